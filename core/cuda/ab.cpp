#include "kwb/cuda/ab.h"

#include "kwb/family.h"

namespace kwb::cuda {

AbReport runAb(const KernelDescriptor& a, const KernelDescriptor& b,
               const std::vector<PlanCase>& sizes, const RunConfig& cfg, double sameWithin,
               const EventSink& sink, const std::function<bool()>& cancelled) {
  KernelDescriptor bSide = b;
  if (bSide.id == a.id) bSide.id += "#b";
  std::vector<PlanCase> plan;
  for (const PlanCase& s : sizes) {
    plan.push_back({&a, s.shape, std::nullopt, s.size});
    plan.push_back({&bSide, s.shape, std::nullopt, s.size});
  }
  RunConfig rc = cfg;
  const std::string aId = a.id, bId = bSide.id;
  rc.pairWith = [aId, bId](const CaseResult& c) {
    return c.kernel == bId ? std::vector<std::string>{aId} : std::vector<std::string>{};
  };
  AbReport r;
  r.a = aId;
  r.b = bId;
  r.sameWithin = sameWithin;
  r.document = runPlan(plan, rc, sink, cancelled);
  r.device = r.document.device;
  const auto& cases = r.document.cases;
  for (std::size_t i = 0; i + 1 < cases.size(); i += 2) {
    const CaseResult& ca = cases[i];
    const CaseResult& cb = cases[i + 1];
    const PairedRatio* p = cb.pairedWith(aId);
    AbResult x = abResult(ca, cb, p ? *p : PairedRatio{}, sameWithin);
    if (!isGood(ca.status) || !isGood(cb.status)) {
      const bool aBad = !isGood(ca.status);
      const CaseResult& bad = aBad ? ca : cb;
      x.reason = std::string("not compared: ") + (aBad ? "A " : "B ") +
                 std::string(toString(bad.status)) +
                 (bad.message.empty() ? "" : " (" + bad.message + ")");
    }
    x.size = sizeLabel(cb);
    r.results.push_back(x);
  }
  return r;
}

}  // namespace kwb::cuda
