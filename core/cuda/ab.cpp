// SPDX-License-Identifier: Apache-2.0
#include "kwb/cuda/ab.h"

#include <optional>

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

namespace {

// One pair of processes, A's build and this one, started in that order or (bFirst) the other,
// timing `rc.measure.rounds` rounds.
AbReport onePairOfProcesses(const AcrossBuilds& x, const KernelDescriptor& b,
                            const std::vector<PlanCase>& sizes, const RunConfig& rc, bool bFirst,
                            const EventSink& sink, const std::function<bool()>& cancelled) {
  std::optional<PeerBuild> peer, self;
  if (bFirst) self.emplace(x.thisKwb, rc);
  peer.emplace(x.otherKwb, rc);
  if (!peer->knownAnswer().passed)
    throw InputError("the other kwb '" + x.otherKwb +
                     "' failed its known-answer test: " + peer->knownAnswer().detail);
  // B runs in a child process too, this kwb started as A's build is: the process that
  // coordinates allocates and runs other work first (its known-answer test), and one build
  // timed here against itself in a child read 25% apart at 2^16 (the look-back scan on an H200,
  // where CUPTI gave both the same kernel time). Started alike, the two sides differ only in
  // their builds and in their start order, which the pairs alternate.
  if (!bFirst) self.emplace(x.thisKwb, rc);
  // A's figures are worked out here from its samples, with this build's descriptor of the
  // problem; its verification and samples are the other build's.
  KernelDescriptor aSide = b;
  aSide.id =
      x.aKernel + "@" + (peer->revision().empty() ? "other" : peer->revision().substr(0, 12));
  aSide.displayName = x.aKernel + " (kwb at " + x.otherKwb + ")";
  aSide.launch = nullptr;  // never launched here
  aSide.launchVector = nullptr;
  aSide.reference = false;
  RunConfig pairRc = rc;
  pairRc.startElsewhere = [&](const PlanCase& p, PendingCase& out) {
    if (p.kernel == &aSide)
      out = peer->start(p, x.aKernel);
    else
      out = self->start(p, b.id);  // this process runs only the known-answer test, on b
    return true;
  };
  return abOfPlan(aSide, b, sizes, pairRc, x.sameWithin, sink, cancelled);
}

}  // namespace

AbReport runAbAcrossBuilds(const AcrossBuilds& x, const KernelDescriptor& b,
                           const std::vector<PlanCase>& sizes, const RunConfig& cfg,
                           const EventSink& sink, const std::function<bool()>& cancelled) {
  const int rounds = cfg.measure.rounds;
  if (x.processPairs < 1 || x.processPairs > rounds)
    throw InputError("--process-pairs " + std::to_string(x.processPairs) +
                     " must be at least 1 and at most the rounds (" + std::to_string(rounds) +
                     "): each pair of processes times at least one round");
  queryDevice(cfg.device);  // no device: NoDeviceError here, before the other build starts
  std::vector<AbReport> parts;
  for (int k = 0; k < x.processPairs && (k == 0 || !(cancelled && cancelled())); ++k) {
    RunConfig rc = cfg;  // the rounds shared out, the first pairs taking any remainder
    rc.measure.rounds = rounds / x.processPairs + (k < rounds % x.processPairs ? 1 : 0);
    parts.push_back(onePairOfProcesses(x, b, sizes, rc, k % 2 == 1, sink, cancelled));
  }
  AbReport r = parts.front();
  for (std::size_t k = 1; k < parts.size(); ++k)
    r.document.cases.insert(r.document.cases.end(), parts[k].document.cases.begin(),
                            parts[k].document.cases.end());
  for (std::size_t i = 0; i < r.results.size(); ++i) {
    std::vector<AbResult> perPair;
    for (const AbReport& p : parts)
      if (i < p.results.size()) perPair.push_back(p.results[i]);
    r.results[i] = combineProcessPairs(perPair, x.sameWithin);
  }
  return r;
}

}  // namespace kwb::cuda
