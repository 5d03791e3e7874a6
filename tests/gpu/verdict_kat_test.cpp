// SPDX-License-Identifier: Apache-2.0
// Known-answer tests of the verdicts (docs/MEASUREMENT.md, "Verdicts"): spin kernels of
// programmed 100 us against 100 us must be SAME and against 103 us SLOWER, in at least 19 of
// 20 repetitions each, both measured interleaved (kwb ab) and as two separate runs compared
// (kwb compare); a real kernel against itself is SAME.
#include <gtest/gtest.h>

#include <cstdio>

#include "gpu_fixture.h"
#include "kwb/cuda/ab.h"
#include "kwb/cuda/measure.h"
#include "kwb/cuda/runner.h"
#include "kwb/cuda/stream.h"
#include "kwb/cuda/timer_kernels.h"
#include "kwb/paired.h"
#include "kwb/run_compare.h"
#include "registry.h"

using kwb::Verdict;
using kwb::cuda::Measurement;
using kwb::cuda::MeasureOptions;
using kwb::cuda::RoundCase;
using kwb::cuda::TimedCase;

namespace {

constexpr int kRepetitions = 20;
constexpr int kNeeded = 19;

MeasureOptions katOptions() {
  MeasureOptions opt;
  opt.cuptiCheck = false;
  opt.rounds = 10;
  opt.rule = {
      .minSamples = 10, .maxSamples = 200, .minTimeS = 0.03, .maxTimeS = 0.5, .maxNoise = 0.01};
  return opt;
}

std::function<void()> spin(kwb::cuda::Stream& s, double us) {
  const auto ns = (unsigned long long)(us * 1e3);
  CUstream_st* stream = s.get();
  return [stream, ns] { kwb::cuda::launchSpinKernel(stream, ns); };
}

void rounds(std::vector<RoundCase>& cases, const MeasureOptions& opt) {
  kwb::cuda::runRounds(cases, opt, {}, {}, [](int, const kwb::cuda::CudaError& e) { throw e; });
}

kwb::CaseResult result(const Measurement& m, const MeasureOptions& opt) {
  kwb::CaseResult c;
  c.kernel = "spin";
  c.status = kwb::CaseStatus::kPass;
  kwb::cuda::recordMeasurement(m, opt, c);
  return c;
}

// One "run" of one spin kernel on its own: its rounds back to back, as kwb run times a case.
kwb::CaseResult separateRun(kwb::cuda::Stream& s, double us) {
  const MeasureOptions opt = katOptions();
  TimedCase t(spin(s, us), s.get(), opt, nullptr);
  std::vector<RoundCase> one{{&t, 0}};
  rounds(one, opt);
  return result(t.finish({}), opt);
}

// A and B interleaved sweep by sweep, as kwb ab times them; B / A with the 1% margin.
kwb::AbResult interleaved(kwb::cuda::Stream& s, double aUs, double bUs) {
  MeasureOptions opt = katOptions();
  TimedCase a(spin(s, aUs), s.get(), opt, nullptr);
  TimedCase b(spin(s, bUs), s.get(), opt, nullptr);
  std::vector<RoundCase> both{{&a, 0}, {&b, 0}};
  rounds(both, opt);
  const Measurement ma = a.finish({}), mb = b.finish({});
  const kwb::PairedRatio p = kwb::pairedRatio("a", {mb.samplesMs, mb.rounds, mb.sweeps},
                                              {ma.samplesMs, ma.rounds, ma.sweeps});
  return kwb::abResult(result(ma, opt), result(mb, opt), p, 0.01);
}

}  // namespace

class VerdictKat : public GpuTest {};

TEST_F(VerdictKat, InterleavedSpinKernelsAreDecided) {
  kwb::cuda::Stream s;
  int same = 0, slower = 0;
  for (int i = 0; i < kRepetitions; ++i) {
    const kwb::AbResult eq = interleaved(s, 100, 100);
    const kwb::AbResult up = interleaved(s, 100, 103);
    same += eq.verdict == Verdict::kSame;
    slower += up.verdict == Verdict::kSlower;
    std::printf("ab %2d: 100/100 %s (%.4f, %.4f .. %.4f); 103/100 %s (%.4f, %.4f .. %.4f)\n", i,
                std::string(kwb::toString(eq.verdict)).c_str(), eq.ratio, eq.ci95.low, eq.ci95.high,
                std::string(kwb::toString(up.verdict)).c_str(), up.ratio, up.ci95.low,
                up.ci95.high);
  }
  EXPECT_GE(same, kNeeded) << "100 us against 100 us was SAME in " << same << " of 20";
  EXPECT_GE(slower, kNeeded) << "103 us against 100 us was SLOWER in " << slower << " of 20";
}

TEST_F(VerdictKat, SeparateRunsOfSpinKernelsAreDecided) {
  kwb::cuda::Stream s;
  int same = 0, slower = 0;
  for (int i = 0; i < kRepetitions; ++i) {
    const kwb::CaseResult base = separateRun(s, 100);
    const kwb::CaseComparison eq = kwb::compareCase(base, separateRun(s, 100), {});
    const kwb::CaseComparison up = kwb::compareCase(base, separateRun(s, 103), {});
    same += eq.verdict == Verdict::kSame;
    slower += up.verdict == Verdict::kSlower;
    std::printf("compare %2d: 100/100 %s: %s; 103/100 %s: %s\n", i,
                std::string(kwb::toString(eq.verdict)).c_str(), eq.reason.c_str(),
                std::string(kwb::toString(up.verdict)).c_str(), up.reason.c_str());
  }
  EXPECT_GE(same, kNeeded) << "100 us against 100 us was SAME in " << same << " of 20";
  EXPECT_GE(slower, kNeeded) << "103 us against 100 us was SLOWER in " << slower << " of 20";
}

// kwb ab's own path (verification, rounds, pairing) with sgemm.tiled at 512^3 on both sides.
TEST_F(VerdictKat, ARealKernelAgainstItselfIsSame) {
  const kwb::KernelDescriptor& k = kwb::kernels::registry().find("sgemm.tiled");
  kwb::cuda::RunConfig cfg;
  cfg.measure.rounds = 10;
  cfg.measure.cuptiCheck = false;
  cfg.measure.rule.minTimeS = 0.1;
  const std::vector<kwb::cuda::PlanCase> sizes{{&k, kwb::Shape{512, 512, 512}, std::nullopt}};
  const kwb::AbReport r =
      kwb::cuda::runAb(k, k, sizes, cfg, 0.01, [](const kwb::StreamEvent&) {}, {});
  ASSERT_EQ(r.results.size(), 1u);
  EXPECT_EQ(r.b, "sgemm.tiled#b");
  EXPECT_GT(r.results[0].pairs, 50);
  EXPECT_EQ(r.results[0].verdict, Verdict::kSame) << r.results[0].reason;
  std::printf("sgemm.tiled 512^3 against itself: %s\n", r.results[0].reason.c_str());
}
