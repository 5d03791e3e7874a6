// SPDX-License-Identifier: Apache-2.0
#pragma once
// kwb ab against another build of kwb (docs/MEASUREMENT.md, "Two builds of kwb"): the other
// build runs as a child process (`kwb ab-peer`) on the same GPU. It verifies its kernel at each
// size with its own code, and takes each of its samples when this process's rounds ask for it,
// so the two builds' samples interleave sweep by sweep as two kernels of one build do. The
// child answers one JSON line for each JSON line it reads; this is both sides of that protocol.
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "case_block.h"
#include "kwb/child_process.h"
#include "kwb/cuda/runner.h"

namespace kwb::cuda {

inline constexpr int kPeerProtocol = 2;  // 2: a case's size as its family's axes (schema 6)

// The measurement options that travel to the other build, and a measurement that comes back.
nlohmann::json measureOptionsToJson(const MeasureOptions& o);
MeasureOptions measureOptionsFromJson(const nlohmann::json& j);
nlohmann::json measurementToJson(const Measurement& m);
Measurement measurementFromJson(const nlohmann::json& j);

// The other build, started as `program ab-peer --device D`.
class PeerBuild {
 public:
  // Starts it, reads its greeting and sends the run's seed and measurement options. Throws
  // InputError naming `program` when it cannot start or does not speak the protocol (a kwb
  // built before `ab-peer` existed).
  PeerBuild(const std::string& program, const RunConfig& cfg);
  ~PeerBuild();
  PeerBuild(const PeerBuild&) = delete;
  PeerBuild& operator=(const PeerBuild&) = delete;

  const std::string& program() const { return m_child.program(); }
  const std::string& version() const { return m_version; }
  const std::string& revision() const { return m_revision; }
  const std::string& deviceName() const { return m_deviceName; }
  const KnownAnswer& knownAnswer() const { return m_knownAnswer; }

  // Verifies `kernel` (an id of the other build) at p's size there and readies its timing; the
  // case comes back under p.kernel's id. Throws InputError when the other build refuses.
  PendingCase start(const PlanCase& p, const std::string& kernel);

  // One request and its answer; an answer with "error" throws CudaError (not sticky here: the
  // other process's context is not this one's).
  nlohmann::json call(const nlohmann::json& request, double timeoutS);

 private:
  ChildProcess m_child;
  std::string m_version, m_revision, m_deviceName;
  KnownAnswer m_knownAnswer;
};

}  // namespace kwb::cuda
