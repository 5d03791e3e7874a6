// SPDX-License-Identifier: Apache-2.0
#pragma once
// Starting a case of a run (the case loop, runner.cpp; kwb ab's other build, peer_server.cpp):
// what the run shares, and the verification that readies a case for the rounds.
#include <memory>
#include <string>
#include <vector>

#include "case_block.h"
#include "kwb/cuda/case_gate.h"
#include "kwb/cuda/gemm_session.h"
#include "kwb/cuda/nvml_sampler.h"
#include "kwb/cuda/runner.h"
#include "kwb/cuda/vector_session.h"

namespace kwb::cuda {

// What the whole run shares: the session (stream, cuBLAS, reference cache), the L2 flusher,
// the clock sampler, and the inputs a tuning sweep's configurations share.
struct RunState {
  RunState(const RunConfig& cfg, const DeviceInfo& d)
      : session(cfg.device),
        gate(session, cfg.measure, cfg.seed, cfg.verifyOnly, cfg.maxCaseSeconds),
        nvml(cfg.device),
        vectors(session.stream()),
        device(d) {
    if (cfg.measure.coldL2 && !cfg.verifyOnly)
      flusher = std::make_unique<L2Flusher>(std::size_t(d.l2Bytes));
  }
  GemmSession session;
  CaseGate gate;  // --max-case-seconds
  std::unique_ptr<L2Flusher> flusher;
  NvmlSampler nvml;
  std::shared_ptr<PreparedCase> inputs;  // the last configurations' shared inputs
  std::string inputsKey;                 // the kernel and shape `inputs` were prepared for
  VectorSession vectors;                 // the 1-D families' pipeline, on the session's stream
  DeviceInfo device;
};

// Verifies a case and, when it passed and the run times, readies it for the rounds (its
// `timing`). Failures are data; a lost context sets `stopReason`. `done`: the cases finished so
// far (--max-case-seconds estimates from them).
PendingCase startCase(const PlanCase& p, const RunConfig& cfg, RunState& st,
                      const std::vector<CaseResult>& done, std::string& stopReason);

}  // namespace kwb::cuda
