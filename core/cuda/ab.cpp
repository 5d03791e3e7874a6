// SPDX-License-Identifier: Apache-2.0
#include "kwb/cuda/ab.h"

#include "kwb/cuda/device.h"
#include "kwb/error.h"
#include "kwb/family.h"
#include "peer.h"

namespace kwb::cuda {
namespace {

// Runs A and B at every size (A first), pairs B's samples with A's and decides each size.
AbReport abOfPlan(const KernelDescriptor& a, const KernelDescriptor& b,
                  const std::vector<PlanCase>& sizes, RunConfig rc, double sameWithin,
                  const EventSink& sink, const std::function<bool()>& cancelled) {
  std::vector<PlanCase> plan;
  for (const PlanCase& s : sizes) {
    plan.push_back({&a, s.size, std::nullopt});
    plan.push_back({&b, s.size, std::nullopt});
  }
  const std::string aId = a.id, bId = b.id;
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

}  // namespace

AbReport runAb(const KernelDescriptor& a, const KernelDescriptor& b,
               const std::vector<PlanCase>& sizes, const RunConfig& cfg, double sameWithin,
               const EventSink& sink, const std::function<bool()>& cancelled) {
  KernelDescriptor bSide = b;
  if (bSide.id == a.id) bSide.id += "#b";
  return abOfPlan(a, bSide, sizes, cfg, sameWithin, sink, cancelled);
}

AbReport runAbAcrossBuilds(const std::string& otherKwb, const std::string& aKernel,
                           const KernelDescriptor& b, const std::vector<PlanCase>& sizes,
                           const RunConfig& cfg, double sameWithin, const EventSink& sink,
                           const std::function<bool()>& cancelled) {
  queryDevice(cfg.device);  // no device: NoDeviceError here, before the other build starts
  PeerBuild peer(otherKwb, cfg);
  if (!peer.knownAnswer().passed)
    throw InputError("the other kwb '" + otherKwb +
                     "' failed its known-answer test: " + peer.knownAnswer().detail);
  // A's figures are worked out here from its samples, with this build's descriptor of the
  // problem; its verification and samples are the other build's.
  KernelDescriptor aSide = b;
  aSide.id = aKernel + "@" + (peer.revision().empty() ? "other" : peer.revision().substr(0, 12));
  aSide.displayName = aKernel + " (kwb at " + otherKwb + ")";
  aSide.launch = nullptr;  // never launched here
  aSide.launchVector = nullptr;
  aSide.reference = false;
  RunConfig rc = cfg;
  rc.startElsewhere = [&](const PlanCase& p, PendingCase& out) {
    if (p.kernel != &aSide) return false;
    out = peer.start(p, aKernel);
    return true;
  };
  return abOfPlan(aSide, b, sizes, rc, sameWithin, sink, cancelled);
}

}  // namespace kwb::cuda
