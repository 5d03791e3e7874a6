// SPDX-License-Identifier: Apache-2.0
// The case loop's 1-D branch (reduce, scan): plan order, one case, the known-answer tests.
#include <algorithm>

#include "kwb/cuda/cupti_tracer.h"
#include "kwb/cuda/nvml_sampler.h"
#include "kwb/cuda/runner.h"
#include "kwb/cuda/vector_session.h"
#include "kwb/error.h"
#include "kwb/run_info.h"
#include "case_block.h"

namespace kwb::cuda {

PlannedCase plannedCase(const PlanCase& p) { return {p.kernel->id, p.size}; }

CaseResult skippedPlanCase(const PlanCase& p, const std::string& why) {
  return skippedCase(*p.kernel, p.size, why);
}

std::vector<PlanCase> orderPlan(const std::vector<const KernelDescriptor*>& kernels,
                                const std::vector<CaseSize>& sizes) {
  std::vector<PlanCase> plan;
  for (const CaseSize& s : sizes)
    for (const bool refs : {true, false})
      for (const auto* k : kernels)
        if (k->problem == s.family && k->reference == refs) plan.push_back({k, s, std::nullopt});
  return plan;
}

std::vector<PlanCase> orderVectorPlan(const std::vector<const KernelDescriptor*>& kernels,
                                      const Family& family, const std::vector<std::int64_t>& counts,
                                      const std::vector<ElementType>& types) {
  return orderPlan(kernels, vectorSizes(family.id, counts, types));
}

PendingCase startVectorCase(const PlanCase& p, const RunConfig& cfg, const VectorRunState& st,
                            std::string& stopReason) {
  const KernelDescriptor& k = *p.kernel;
  const std::string label = k.id + " " + sizeLabel(p.size);
  PendingCase pc;
  CaseResult& c = pc.result;
  try {
    if (!k.launchVector) throw InputError(k.id + " has no 1-D launcher");
    const VectorFamily& f = vectorFamily(k.problem);  // InputError: no such family registered
    std::shared_ptr<VectorCase> vc = st.session.prepare(f, k, vectorSizeOf(p.size), cfg.seed);
    c = st.session.verify(f, k, *vc);
    if (isGood(c.status) && !cfg.verifyOnly) {
      const VectorArgs args = vc->args();
      pc.deviceBytes = vc->deviceBytes();
      pc.inputs = std::move(vc);
      pc.timing = std::make_unique<TimedCase>([&k, args] { k.launchVector(args); }, args.stream,
                                              cfg.measure, st.flusher);
    }
  } catch (const InputError& e) {
    c = skippedPlanCase(p, e.what());  // e.g. too large for device memory
  } catch (const CuptiUnavailable& e) {
    c.status = CaseStatus::kError;
    c.message = std::string("--timer cupti: CUPTI unavailable: ") + e.what();
  } catch (const CudaError& e) {
    c = skippedPlanCase(p, e.what());
    c.status = CaseStatus::kError;
    if (e.sticky()) stopReason = "not run: the CUDA context was lost after " + label;
  }
  return pc;
}

std::optional<KnownAnswer> vectorKnownAnswers(const std::vector<PlanCase>& plan,
                                              VectorSession& session) {
  std::optional<KnownAnswer> out;
  std::vector<std::string> seen;
  for (const PlanCase& first : plan) {
    const std::string& problem = first.kernel->problem;
    if (problem == "gemm" || std::find(seen.begin(), seen.end(), problem) != seen.end()) continue;
    seen.push_back(problem);
    const VectorFamily* f = findVectorFamily(problem);
    const KernelDescriptor* k = first.kernel;
    for (const PlanCase& p : plan)
      if (f && p.kernel->id == f->family().reference) k = p.kernel;
    KnownAnswer ka;
    try {
      ka = session.knownAnswerTest(vectorFamily(problem), *k);
    } catch (const std::exception& e) {  // a CUDA error or no memory: the test failed
      ka.ran = true;
      ka.passed = false;
      ka.detail = k->id + ": " + e.what();
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
