// SPDX-License-Identifier: Apache-2.0
#pragma once
// Starting a case of a run (the case loop, runner.cpp; kwb ab's other build, peer_server.cpp):
// what the run shares, and the one start that prepares, verifies and readies every case of
// every family through its driver (kwb/cuda/family_driver.h).
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "case_block.h"
#include "kwb/cuda/family_driver.h"
#include "kwb/cuda/nvml_sampler.h"
#include "kwb/cuda/runner.h"
#include "kwb/cuda/stream.h"

namespace kwb::cuda {

// What the whole run shares: the stream every case runs on, the L2 flusher, the clock sampler
// and what the families' drivers keep for the run.
struct RunState {
  RunState(const RunConfig& cfg, const DeviceInfo& d) : nvml(cfg.device), device(d) {
    if (cfg.measure.coldL2 && !cfg.verifyOnly)
      flusher = std::make_unique<L2Flusher>(std::size_t(d.l2Bytes));
  }
  // What a driver is lent for a case (`done`: the cases finished so far; may be null).
  DriverContext context(const RunConfig& cfg, const std::vector<CaseResult>* done,
                        const TuneConfig* config = nullptr) {
    return {stream.get(), &device, cfg.seed, &cfg, done, &drivers, config};
  }

  Stream stream;
  std::unique_ptr<L2Flusher> flusher;
  NvmlSampler nvml;
  DeviceInfo device;
  DriverStates drivers;  // after the stream: dropped before it
};

// Verifies a case and, when it passed and the run times, readies it for the rounds (its
// `timing`). Failures are data; a lost context sets `stopReason`. `done`: the cases finished so
// far (--max-case-seconds estimates from them).
PendingCase startCase(const PlanCase& p, const RunConfig& cfg, RunState& st,
                      const std::vector<CaseResult>& done, std::string& stopReason);

// The known-answer test of every family in `plan` (in the order they first appear), each run
// with the family's reference kernel where the plan has it, else its first kernel; a test that
// throws is a failed test. Nullopt when the plan has no case. With `cache`, a family's test
// whose kernel and seed it holds is not run again (RunConfig::reuseDeviceFacts).
std::optional<KnownAnswer> knownAnswers(const std::vector<PlanCase>& plan, const RunConfig& cfg,
                                        RunState& st,
                                        std::map<std::string, KnownAnswer>* cache = nullptr);

}  // namespace kwb::cuda
