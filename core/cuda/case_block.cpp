// SPDX-License-Identifier: Apache-2.0
#include "case_block.h"

#include <algorithm>

#include "kwb/cuda/energy_window.h"
#include "kwb/cuda/nvml_sampler.h"
#include "kwb/cuda/runner.h"
#include "kwb/family.h"
#include "kwb/cuda/verdict.h"
#include "kwb/paired.h"
#include "kwb/plausibility.h"

namespace kwb::cuda {

std::vector<std::string> pairedReferences(const CaseResult& c) {
  std::vector<std::string> refs;
  auto add = [&](const std::string& id) {
    if (!id.empty() && id != c.kernel && std::find(refs.begin(), refs.end(), id) == refs.end())
      refs.push_back(id);
  };
  if (c.problem() == "gemm") {
    add("cublas.sgemm");
    add(std::string(tensorReferenceOf(c.precision)));  // FP16 and BF16 inputs: their own
  }
  if (const Family* f = tryFindFamily(c.problem())) add(f->reference);
  return refs;
}

void applyPairedRatios(CaseResult& c, const Measurement& m, const std::vector<PendingCase>& block,
                       const std::vector<std::string>& references) {
  c.paired.clear();
  if (m.samplesMs.empty()) return;
  const Family* family = tryFindFamily(c.problem());
  for (const std::string& ref : references) {
    const auto it = std::find_if(block.begin(), block.end(), [&](const PendingCase& p) {
      return p.result.kernel == ref && sameSize(p.result, c) && !p.measured.samplesMs.empty() &&
             isGood(p.result.status);
    });
    if (it == block.end()) continue;
    const Measurement& r = it->measured;
    const PairedRatio pr =
        pairedRatio(ref, {m.samplesMs, m.rounds, m.sweeps}, {r.samplesMs, r.rounds, r.sweeps});
    if (pr.pairs == 0) continue;
    c.paired.push_back(pr);
    if (ref == "cublas.sgemm") c.pctOfFp32Reference = pr.pct;
    if (ref == "cublas.hgemm_f32acc") c.pctOfFp16Reference = pr.pct;
    if (ref == "cublas.bgemm_f32acc") c.pctOfBf16Reference = pr.pct;
    if (family && ref == family->reference) c.figures["pct_of_reference"] = pr.pct;
  }
}

void timeBlock(std::vector<PendingCase>& block, BlockContext& ctx, std::string& stopReason) {
  std::vector<RoundCase> cases;
  std::vector<PendingCase*> owners;
  int group = 0;
  const CaseResult* last = nullptr;
  for (PendingCase& pc : block) {
    if (!pc.timing) continue;
    if (last && !sameSize(*last, pc.result)) ++group;
    last = &pc.result;
    cases.push_back({pc.timing.get(), group});
    owners.push_back(&pc);
  }
  if (cases.empty()) return;
  ctx.nvml.start();
  try {
    runRounds(
        cases, ctx.cfg.measure, ctx.cancelled,
        [&](int i) {
          if (ctx.cfg.heartbeat) ctx.cfg.heartbeat(int(owners[std::size_t(i)]->index));
        },
        [&](int i, const CudaError& e) {
          PendingCase& pc = *owners[std::size_t(i)];
          pc.result.status = CaseStatus::kError;
          pc.result.message = std::string("while timing: ") + e.what();
          if (e.sticky())
            stopReason = "not run: the CUDA context was lost while timing " + pc.result.kernel +
                         " " + sizeLabel(pc.result);
        });
  } catch (const CudaError&) {  // sticky: recorded by the callback above
    ctx.contextLost = true;
  }
  const ClockSample clocks = ctx.nvml.stop();
  for (PendingCase* pc : owners) pc->result.clocks = clocks;
}

namespace {

// The defences after timing (docs/BRING_YOUR_OWN.md, "Defences"): the output the timed launches
// left, and a median below what the device allows; either fails the case through its verdict.
void checkTimedCase(PendingCase& pc, const BlockContext& ctx) {
  CaseResult& c = pc.result;
  if (ctx.contextLost || !isGood(c.status) || !c.timed()) return;
  try {
    if (pc.checkTimed) pc.checkTimed(c);
  } catch (const CudaError& e) {
    c.status = CaseStatus::kError;
    c.message = std::string("checking the timed launches' output: ") + e.what();
    return;
  }
  if (ctx.device) c.suspicious = implausibility(c, *ctx.device);
  if (c.verification && (c.verification->timedOutput || !c.suspicious.empty())) applyVerdict(c);
}

}  // namespace

void finishPending(PendingCase& pc, const BlockContext& ctx, const std::vector<CaseResult>& done,
                   const std::vector<PendingCase>& block) {
  if (!pc.timing) return;
  CaseResult& c = pc.result;
  // A timed case was verified good: an error status now means one of its samples failed.
  if (isGood(c.status)) {
    try {
      pc.measured = ctx.contextLost ? pc.timing->soFar() : pc.timing->finish(ctx.cancelled);
      if (pc.measured.samplesMs.empty() && ctx.contextLost)
        c.message = "verified; not timed: the CUDA context was lost before its block was timed";
      recordMeasurement(pc.measured, ctx.cfg.measure, c);
      deriveFigures(c, ctx.device);
      fillPercentOfReference(c, done);
      fillReferenceFigure(c, done);
      applyPairedRatios(c, pc.measured, block,
                        ctx.cfg.pairWith ? ctx.cfg.pairWith(c) : pairedReferences(c));
      if (!pc.measured.cuptiNote.empty())
        ctx.warn(c.kernel + " " + sizeLabel(c) + ": " + pc.measured.cuptiNote);
    } catch (const CudaError& e) {
      c.status = CaseStatus::kError;
      c.message = std::string("CUPTI check: ") + e.what();
    }
  }
  checkTimedCase(pc, ctx);
  // After the timed output is checked: the window's launches overwrite it.
  if (ctx.cfg.measure.energySeconds > 0 && !ctx.contextLost && isGood(c.status) && c.timed()) {
    try {
      c.energy = measureCaseEnergy(*pc.timing, ctx.nvml, c, ctx.cfg.measure.energySeconds);
    } catch (const CudaError& e) {
      c.status = CaseStatus::kError;
      c.message = std::string("energy window: ") + e.what();
    }
  }
  pc.timing.reset();
  pc.inputs.reset();  // its memory is free before the next check allocates
  if (pc.afterTiming && !ctx.contextLost && isGood(c.status)) {
    try {
      pc.afterTiming(c);
    } catch (const CudaError& e) {
      c.status = CaseStatus::kError;
      c.message = std::string("after timing: ") + e.what();
    }
  }
}

}  // namespace kwb::cuda
