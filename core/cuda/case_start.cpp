// SPDX-License-Identifier: Apache-2.0
#include "case_start.h"

#include "kwb/cuda/check.h"
#include "kwb/cuda/user_guard.h"
#include "kwb/cuda/user_kernel.h"
#include "kwb/error.h"
#include "kwb/run_info.h"

namespace kwb::cuda {
namespace {

// Verifies a GEMM case and, when it passed and the run times, readies it for the rounds.
// Failures are data; a lost context sets `stopReason`.
PendingCase startGemmCase(const PlanCase& p, const RunConfig& cfg, RunState& st,
                          const std::vector<CaseResult>& done, std::string& stopReason) {
  const KernelDescriptor& k = *p.kernel;
  PendingCase pc;
  CaseResult& c = pc.result;
  try {
    // Over --max-case-seconds: recorded as skipped with the estimate, like a shape too large.
    if (const auto why = st.gate.skipReason(k, p.shape(), done)) throw InputError(*why);
    // Configurations of one kernel share their inputs; any other case prepares its own.
    const std::string key =
        p.config ? std::string(baseKernelId(k.id)) + " " + toString(p.shape()) : std::string();
    if (key.empty() || key != st.inputsKey) {
      st.inputs.reset();  // the run's own reference goes; a block may still hold them
      st.inputsKey.clear();
      st.inputs = st.session.prepare(k, p.shape(), cfg.seed);
      st.inputsKey = key;
    }
    std::shared_ptr<PreparedCase> inputs = st.inputs;
    if (key.empty()) {
      st.inputs.reset();
      st.inputsKey.clear();
    }
    // User kernels (docs/BRING_YOUR_OWN.md): first a launch with C between guard regions,
    // so a kernel writing past C fails before it can scribble over the pipeline's buffers.
    const bool user = k.family == "user";
    const std::string outside = user ? guardViolation(k, *inputs, st.session.stream()) : "";
    if (outside.empty()) {
      c = st.session.verify(k, *inputs);
    } else {
      c = skippedCase(k, p.shape(), outside);
      c.status = CaseStatus::kFail;
    }
    if (!isGood(c.status) || cfg.verifyOnly) return pc;
    if (p.config && c.status == CaseStatus::kFallback) {
      c.message = "not timed: the shape ran " + c.ranKernel + ", not this configuration";
      return pc;
    }
    const GemmArgs args = inputs->args(1.0f, 0.0f);
    pc.deviceBytes = key.empty() ? inputs->deviceBytes() : 0;
    pc.inputs = std::move(inputs);
    pc.timing = std::make_unique<TimedCase>([&k, args] { k.launch(args); }, st.session.stream(),
                                            cfg.measure, st.flusher.get());
    if (user) {  // fresh inputs after timing: catches a kernel that replays a cached C
      GemmSession* session = &st.session;
      const Shape shape = p.shape();
      const std::uint64_t seed = freshSeed(cfg.seed);
      pc.afterTiming = [session, &k, shape, seed](CaseResult& r) {
        const CaseResult again = session->verifyCase(k, shape, seed);
        if (!isGood(again.status)) {
          r.status = again.status;
          r.message = "second seed (after timing): " + again.message;
        }
      };
    }
  } catch (const InputError& e) {
    c = skippedCase(k, p.shape(), e.what());  // e.g. too large for device memory
  } catch (const CuptiUnavailable& e) {
    c.status = CaseStatus::kError;
    c.message = std::string("--timer cupti: CUPTI unavailable: ") + e.what();
  } catch (const ContextLost& e) {
    c = e.result();
    stopReason = "not run: the CUDA context was lost after " + k.id + " " + toString(p.shape());
  } catch (const CudaError& e) {
    c.kernel = k.id;
    c.size = p.size;
    c.precision = k.precision;
    c.status = CaseStatus::kError;
    c.message = e.what();
    if (e.sticky())
      stopReason = "not run: the CUDA context was lost after " + k.id + " " + toString(p.shape());
  }
  if (!stopReason.empty()) {
    st.inputs.reset();
    st.inputsKey.clear();
  }
  return pc;
}

}  // namespace

PendingCase startCase(const PlanCase& p, const RunConfig& cfg, RunState& st,
                      const std::vector<CaseResult>& done, std::string& stopReason) {
  if (p.kernel->problem == "gemm") return startGemmCase(p, cfg, st, done, stopReason);
  return startVectorCase(p, cfg, {st.vectors, st.flusher.get(), st.nvml, st.device}, stopReason);
}

}  // namespace kwb::cuda
