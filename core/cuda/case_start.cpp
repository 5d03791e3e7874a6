// SPDX-License-Identifier: Apache-2.0
#include "case_start.h"

#include <algorithm>

#include "kwb/cuda/check.h"
#include "kwb/cuda/cupti_tracer.h"
#include "kwb/cuda/gemm_session.h"
#include "kwb/error.h"
#include "kwb/run_info.h"

namespace kwb::cuda {
namespace {

// Prepares and verifies the case with its family's driver and, when it passed and the run
// times, readies its timed launch. Throws what the driver throws.
void prepareCase(const PlanCase& p, const RunConfig& cfg, RunState& st,
                 const std::vector<CaseResult>& done, PendingCase& pc) {
  const KernelDescriptor& k = *p.kernel;
  FamilyDriver& driver = familyDriver(k.problem);  // InputError: no such family registered
  const DriverContext ctx = st.context(cfg, &done, p.config ? &*p.config : nullptr);
  std::shared_ptr<FamilyCase> fc = driver.prepare(k, p.size, ctx);
  CaseResult& c = pc.result;
  c = fc->verify(k);
  if (!isGood(c.status) || cfg.verifyOnly) return;
  if (p.config && c.status == CaseStatus::kFallback) {  // the time would be the other kernel's
    c.message = "not timed: the shape ran " + c.ranKernel + ", not this configuration";
    return;
  }
  std::function<void()> launch = fc->timedLaunch(k);
  pc.deviceBytes = fc->deviceBytes();
  pc.timing =
      std::make_unique<TimedCase>(std::move(launch), ctx.stream, cfg.measure, st.flusher.get());
  pc.checkTimed = [f = fc.get(), &k](CaseResult& r) { f->checkTimedOutput(k, r); };
  pc.afterTiming = fc->afterTiming(k);
  pc.inputs = std::move(fc);
}

}  // namespace

PendingCase startCase(const PlanCase& p, const RunConfig& cfg, RunState& st,
                      const std::vector<CaseResult>& done, std::string& stopReason) {
  const KernelDescriptor& k = *p.kernel;
  const std::string lost =
      "not run: the CUDA context was lost after " + k.id + " " + sizeLabel(p.size);
  PendingCase pc;
  CaseResult& c = pc.result;
  try {
    prepareCase(p, cfg, st, done, pc);
  } catch (const InputError& e) {
    c = skippedPlanCase(p, e.what());  // e.g. too large for device memory, over the budget
  } catch (const CuptiUnavailable& e) {
    c.status = CaseStatus::kError;
    c.message = std::string("--timer cupti: CUPTI unavailable: ") + e.what();
  } catch (const ContextLost& e) {
    c = e.result();
    stopReason = lost;
  } catch (const CudaError& e) {
    c.kernel = k.id;
    c.size = p.size;
    c.precision = k.precision;
    c.status = CaseStatus::kError;
    c.message = e.what();
    if (e.sticky()) stopReason = lost;
  }
  return pc;
}

std::optional<KnownAnswer> knownAnswers(const std::vector<PlanCase>& plan, const RunConfig& cfg,
                                        RunState& st) {
  std::optional<KnownAnswer> out;
  std::vector<std::string> seen;
  for (const PlanCase& first : plan) {
    const std::string& problem = first.kernel->problem;
    if (std::find(seen.begin(), seen.end(), problem) != seen.end()) continue;
    seen.push_back(problem);
    const KernelDescriptor* k = first.kernel;
    const FamilyDriver* driver = findFamilyDriver(problem);
    for (const PlanCase& p : plan)
      if (driver && p.kernel->id == driver->family().reference) k = p.kernel;
    KnownAnswer ka;
    try {
      ka = familyDriver(problem).knownAnswer(*k, st.context(cfg, nullptr));
    } catch (const CudaError& e) {
      if (e.sticky()) throw;  // the run cannot go on
      ka = {true, false, k->id + ": " + e.what(), {}, 0.0};
    } catch (const std::exception& e) {  // no memory, no driver: the test failed
      ka = {true, false, k->id + ": " + e.what(), {}, 0.0};
    }
    if (!out) {
      out = ka;
    } else {
      out->passed = out->passed && ka.passed;
      out->detail += "; " + ka.detail;
    }
  }
  return out;
}

}  // namespace kwb::cuda
