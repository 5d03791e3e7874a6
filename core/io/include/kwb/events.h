// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kwb/error.h"
#include "kwb/progression.h"
#include "kwb/results.h"

namespace kwb {

// JSON-lines event protocol of `kwb run --stream` (docs/PROTOCOL.md).
inline constexpr int kProtocolVersion = 1;
// A hello whose protocol version differs from kProtocolVersion: the reader and the engine do
// not understand each other (docs/PROTOCOL.md, "Versions"). Carries the engine's version so
// the GUI can name both.
class ProtocolVersionError : public InputError {
 public:
  ProtocolVersionError(const std::string& what, int version)
      : InputError(what), m_version(version) {}
  int version() const { return m_version; }

 private:
  int m_version;
};
// The latest `elapsedS` an event may carry (a week): `kwb replay` paces by it.
inline constexpr double kMaxElapsedS = 7 * 24 * 3600.0;

enum class EventType {
  kHello,
  kDevice,
  kPlan,
  kCaseStarted,
  kCaseFinished,
  kCaseFailed,
  kLog,
  kDone
};
std::string_view toString(EventType t);

// A case of a plan: a kernel on a size of its family.
struct PlannedCase {
  std::string kernel;
  CaseSize size;
};

// One event; which fields are meaningful depends on `type`.
struct StreamEvent {
  StreamEvent() = default;
  explicit StreamEvent(EventType t) : type(t) {}
  EventType type = EventType::kLog;
  double elapsedS = 0.0;  // seconds since the run started; `kwb replay` paces by it
  // Set on events a host pool forwards (kwb run --devices): the GPU (the host's CUDA device
  // index) and the shard (1-based) of the engine that sent it; -1 and 0 otherwise.
  int gpu = -1;
  int shard = 0;
  // hello
  std::string toolVersion, gitRevision, host, timestamp;
  int schemaVersion = kSchemaVersion;
  int protocolVersion = kProtocolVersion;
  // device
  std::optional<DeviceInfo> device;
  // plan
  RunSettings settings;
  std::vector<PlannedCase> plan;
  std::vector<KernelInfo> kernels;   // every kernel the plan names; older engines send none
  std::vector<FamilyInfo> families;  // every family the plan's cases are of (schema 6)
  // case_started / case_finished / case_failed
  int index = -1;
  PlannedCase planned;               // case_started
  std::optional<CaseResult> result;  // case_finished / case_failed
  // log
  std::string level, message;
  // done
  int exitCode = 0;
  KnownAnswer knownAnswer;
  ProgressionCheck progression;
  double wallSeconds = 0.0;
  std::optional<LaunchOverhead> launchOverhead;
};

// One line of JSON, no trailing newline.
std::string toJsonLine(const StreamEvent& e);
// Throws InputError naming `source` and the line number on malformed input.
StreamEvent parseEventLine(std::string_view line, std::string_view source, int lineNumber);

// Rebuilds a results document from events as they arrive: `kwb replay` and the GUI build their
// document with it. The events of several engines may be applied in turn (a reader that
// starts a new engine for the cases a crashed one left): cases and kernels accumulate, the
// known-answer test fails if any engine's failed, and the progression check of the whole
// document is the one rule of kwb/progression.h. A host pool's stream (events tagged with their
// `gpu`, kwb run --devices --stream) lists each GPU once in the document's `devices`, and each
// case names the GPU that ran it.
class DocumentBuilder {
 public:
  void apply(const StreamEvent& e);
  // The engine ended without `done` while a case ran: that case is recorded as `crashed` with
  // `why` and returned; nullopt when no case was running.
  std::optional<CaseResult> markCrashed(const std::string& why);

  const RunDocument& document() const { return m_doc; }
  // The current engine's plan; case indices of its events refer to it.
  const std::vector<PlannedCase>& plan() const { return m_plan; }
  int finishedCases() const { return int(m_doc.cases.size()); }
  // The current engine sent `done`.
  bool done() const { return m_done; }
  int exitCode() const { return m_exitCode; }
  // Index of the case started but not finished, or -1.
  int runningIndex() const { return m_running; }
  // The progression of the cases so far (the engine's verdict once every engine is done).
  ProgressionCheck progression() const;

 private:
  RunDocument m_doc;
  std::vector<PlannedCase> m_plan;
  std::map<int, int> m_gpuDevice;  // a pool's GPU → its index in m_doc.devices
  int m_plans = 0;                 // engines seen
  int m_running = -1;
  bool m_done = false;
  int m_exitCode = 0;
};

}  // namespace kwb
