// SPDX-License-Identifier: Apache-2.0
// The figures of a timed case: its measurement copied in, throughput, % of cuBLAS.
#include "kwb/cuda/runner.h"
#include "kwb/family.h"
#include "kwb/format.h"
#include "kwb/replicates.h"

namespace kwb::cuda {

void recordMeasurement(const Measurement& m, const MeasureOptions& opt, CaseResult& c) {
  c.samplesMs = m.samplesMs;
  c.sampleRounds = m.rounds;
  c.launchesPerSample = m.launchesPerSample;
  c.coldL2 = opt.coldL2;
  c.timer = m.timer;
  c.timerNote = m.timerNote;
  c.throttledSamples = m.throttledSamples;
  c.warmupSmClockMhz = m.warmupSmClockMhz;
  c.kernels = m.kernels;
  c.cuptiMedianMs = m.cuptiMedianMs;
  c.summary = stats::summarize(c.samplesMs);
  // The CI includes the drift between rounds (kwb/replicates.h), not only the samples' scatter.
  const auto honest = stats::estimateReplicated(c.samplesMs, c.sampleRounds,
                                                stats::IntervalKind::kRepeat, opt.runToRunPct);
  c.summary.ci95 = honest.ci95;
  c.uncertainty = honest.uncertainty;
  c.timerVsCuptiPct.reset();
  if (m.cuptiMedianMs && *m.cuptiMedianMs > 0 && c.summary.median > 0)
    c.timerVsCuptiPct = 100.0 * (c.summary.median - *m.cuptiMedianMs) / *m.cuptiMedianMs;
  if (c.samplesMs.empty() && m.throttledSamples > 0)
    c.timerNote += std::string(c.timerNote.empty() ? "" : "; ") + "all " +
                   std::to_string(m.throttledSamples) + " samples were taken below " +
                   fixed(100 * opt.throttleFraction, 0) + "% of the warm-up SM clock and dropped";
  deriveThroughput(c);
}

// From the case's family's declared work (kwb/family.h); the run adds the peak figures.
void deriveThroughput(CaseResult& c) { deriveFigures(c, nullptr); }

void fillPercentOfReference(CaseResult& c, const std::vector<CaseResult>& done) {
  auto refGflops = [&](const char* id) -> double {
    for (const auto& r : done)
      if (r.kernel == id && r.size == c.size && r.timed() && isGood(r.status)) return r.gflops;
    return 0.0;
  };
  if (c.gflops <= 0) return;
  if (const double fp32 = refGflops("cublas.sgemm"); fp32 > 0 && c.kernel != "cublas.sgemm")
    c.pctOfFp32Reference = 100.0 * c.gflops / fp32;
  if (c.precision == Precision::kFp16Fp32Acc && c.kernel != "cublas.hgemm_f32acc")
    if (const double fp16 = refGflops("cublas.hgemm_f32acc"); fp16 > 0)
      c.pctOfFp16Reference = 100.0 * c.gflops / fp16;
  if (c.precision == Precision::kBf16Fp32Acc && c.kernel != "cublas.bgemm_f32acc")
    if (const double bf16 = refGflops("cublas.bgemm_f32acc"); bf16 > 0)
      c.pctOfBf16Reference = 100.0 * c.gflops / bf16;
}

}  // namespace kwb::cuda
