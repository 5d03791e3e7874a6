// SPDX-License-Identifier: Apache-2.0
#include "case_start.h"

#include <algorithm>
#include <string>

#include "kwb/cuda/check.h"
#include "kwb/cuda/cupti_tracer.h"
#include "kwb/cuda/device_health.h"
#include "kwb/cuda/gemm_session.h"
#include "kwb/cuda/stream_check.h"
#include "kwb/cuda/user_guard.h"
#include "kwb/cuda/user_kernel.h"
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
  // Before timing, so no sample carries CUPTI (kwb/cuda/stream_check.h); an outside profiler
  // owns CUPTI (cfg.profiler names it).
  if (const auto outside =
          cfg.profiler.empty() ? workOutsideStream(launch, ctx.stream) : std::nullopt;
      outside && !outside->empty()) {
    c.status = CaseStatus::kFail;
    c.message = "work outside the timed stream: " + *outside +
                " ran in its launch on another stream or context, which the timer does not see "
                "(docs/MEASUREMENT.md, \"Work outside the timed stream\")";
    return;
  }
  pc.deviceBytes = fc->deviceBytes();
  pc.timing =
      std::make_unique<TimedCase>(std::move(launch), ctx.stream, cfg.measure, st.flusher.get());
  pc.checkTimed = [f = fc.get(), &k](CaseResult& r) { f->checkTimedOutput(k, r); };
  pc.afterTiming = fc->afterTiming(k);
  pc.inputs = std::move(fc);
}

// A user kernel's CUDA error names its file and entry, and for a fault the rule it broke; the
// engine's own source location ("core/cuda/case_gate.cpp:55: ") is left out, as it says nothing
// to the kernel's author. A fault in the guard launch is named already (userFault).
void nameUserSource(const KernelDescriptor& k, bool lostContext, CaseResult& c) {
  const CompiledUserKernel* u = findUserKernel(k.id);
  if (!u || c.message.find(u->source.path) != std::string::npos) return;
  std::string what = c.message;
  if (const auto cpp = what.find(".cpp:"); cpp != std::string::npos)
    if (const auto colon = what.find(": ", cpp); colon != std::string::npos)
      what = what.substr(colon + 2);
  c.message = nameUserFault(k, ": " + what, lostContext);
}

// After a case's CUDA error, the device's known-answer check (kwb/cuda/device_health.h): its
// result joins the case's message, and a device that fails it ends the run here as a lost
// context does.
void checkDeviceAfter(const KernelDescriptor& k, const CaseSize& size, RunState& st, CaseResult& c,
                      std::string& stopReason) {
  std::string problem;
  try {
    problem = deviceHealthProblem(st.stream.get());
  } catch (const CudaError& e) {
    problem = std::string("the device's check failed: ") + e.what();
  }
  if (problem.empty()) {
    c.message += " (the device passed its known-answer check after it)";
    return;
  }
  c.message += "; after it, " + problem;
  stopReason = "not run: the device failed its check after " + k.id + " " + sizeLabel(size);
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
  // An error (the drivers record a CUDA error that keeps the context in the case, as an error).
  if (c.status != CaseStatus::kError) return pc;
  nameUserSource(k, !stopReason.empty(), c);
  if (stopReason.empty()) checkDeviceAfter(k, p.size, st, c, stopReason);
  return pc;
}

namespace {

// One family's known-answer test; a test that throws is a failed test.
KnownAnswer runKnownAnswer(const std::string& problem, const KernelDescriptor& k,
                           const RunConfig& cfg, RunState& st) {
  try {
    return familyDriver(problem).knownAnswer(k, st.context(cfg, nullptr));
  } catch (const CudaError& e) {
    if (e.sticky()) throw;  // the run cannot go on
    return {true, false, k.id + ": " + e.what(), {}, 0.0};
  } catch (const std::exception& e) {  // no memory, no driver: the test failed
    return {true, false, k.id + ": " + e.what(), {}, 0.0};
  }
}

// Whether `k` launches in this process: the A side of kwb ab --against-kwb is a descriptor of
// a kernel in another build, which that build tested.
bool launchesHere(const KernelDescriptor& k) {
  return k.launch != nullptr || k.launchVector != nullptr || k.launcher.has_value();
}

}  // namespace

std::optional<KnownAnswer> knownAnswers(const std::vector<PlanCase>& plan, const RunConfig& cfg,
                                        RunState& st, std::map<std::string, KnownAnswer>* cache) {
  std::optional<KnownAnswer> out;
  std::vector<std::string> seen;
  for (const PlanCase& first : plan) {
    const std::string& problem = first.kernel->problem;
    if (std::find(seen.begin(), seen.end(), problem) != seen.end()) continue;
    seen.push_back(problem);
    // The family's reference where the plan has it, else its first kernel that runs here.
    const FamilyDriver* driver = findFamilyDriver(problem);
    const KernelDescriptor* k = nullptr;
    for (const PlanCase& p : plan)
      if (p.kernel->problem == problem && launchesHere(*p.kernel) &&
          (!k || (driver && p.kernel->id == driver->family().reference)))
        k = p.kernel;
    if (!k) continue;  // every kernel of it runs elsewhere
    const std::string key = problem + "|" + k->id + "|" + std::to_string(cfg.seed);
    const bool cached = cache && cache->count(key) > 0;
    const KnownAnswer ka = cached ? cache->at(key) : runKnownAnswer(problem, *k, cfg, st);
    if (cache && ka.passed) (*cache)[key] = ka;  // a failed test runs again next time
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
