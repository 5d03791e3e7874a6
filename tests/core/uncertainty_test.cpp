// SPDX-License-Identifier: Apache-2.0
// Honest uncertainty (kwb/replicates.h), paired ratios (kwb/paired.h), the verdict rule
// (kwb/verdict_rule.h), profiler detection and the A/B report: pure functions, no GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "kwb/ab_report.h"
#include "kwb/error.h"
#include "kwb/paired.h"
#include "kwb/profiler_env.h"
#include "kwb/replicates.h"
#include "kwb/run_compare.h"
#include "kwb/verdict_rule.h"

namespace {

using kwb::Verdict;

// `rounds` rounds of `perRound` samples: 1.0 times the round's drift factor, with ±noise
// (relative, normal) scatter inside the round.
struct Drifted {
  std::vector<double> ms;
  std::vector<int> rounds, sweeps;
};
Drifted drifted(const std::vector<double>& drift, int perRound, double noise, unsigned seed,
                double scale = 1.0) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> n(0.0, noise);
  Drifted d;
  for (int r = 0; r < int(drift.size()); ++r)
    for (int s = 0; s < perRound; ++s) {
      d.ms.push_back(scale * drift[std::size_t(r)] * (1.0 + n(rng)));
      d.rounds.push_back(r);
      d.sweeps.push_back(s);
    }
  return d;
}
const std::vector<double> kDrift = {1.00, 1.02, 0.99, 1.03, 0.98, 1.01, 1.02, 0.97, 1.00, 1.01};

double halfWidthPct(const kwb::stats::Interval& ci, double median) {
  return 100.0 * (ci.high - ci.low) / 2.0 / median;
}

TEST(Replicates, DriftBetweenRoundsWidensTheInterval) {
  const Drifted d = drifted(kDrift, 20, 0.001, 1);
  const auto e = kwb::stats::estimateReplicated(d.ms, d.rounds);
  const auto naive = kwb::stats::medianCi95(d.ms);
  EXPECT_EQ(e.uncertainty.method, kwb::stats::CiMethod::kReplicates);
  EXPECT_EQ(e.uncertainty.replicates, 10);
  // The samples' own CI sees only part of the ±3% drift; the rounds see all of it.
  EXPECT_GT(halfWidthPct(e.ci95, e.median), 2 * halfWidthPct(naive, e.median));
  EXPECT_GT(halfWidthPct(e.ci95, e.median), 0.8);
  // Components: within ≈ 0.1%, between ≈ the drift's standard deviation (about 1.9%).
  EXPECT_NEAR(e.uncertainty.withinPct, 0.1, 0.03);
  EXPECT_NEAR(e.uncertainty.betweenPct, 1.9, 0.3);
}

TEST(Replicates, NoDriftKeepsTheIntervalTight) {
  const Drifted d = drifted(std::vector<double>(10, 1.0), 20, 0.001, 2);
  const auto e = kwb::stats::estimateReplicated(d.ms, d.rounds);
  EXPECT_LT(halfWidthPct(e.ci95, e.median), 0.1);
  EXPECT_LT(e.uncertainty.betweenPct, 0.05);
}

TEST(Replicates, TheRepeatIntervalHoldsTwoRunsErrors) {
  const Drifted d = drifted(kDrift, 20, 0.001, 5);
  const auto repeat = kwb::stats::estimateReplicated(d.ms, d.rounds);
  const auto ci =
      kwb::stats::estimateReplicated(d.ms, d.rounds, kwb::stats::IntervalKind::kConfidence);
  EXPECT_NEAR(halfWidthPct(repeat.ci95, repeat.median) / halfWidthPct(ci.ci95, ci.median),
              std::sqrt(2.0), 1e-6);
}

TEST(Replicates, OneRoundFallsBackToTheOrderStatistic) {
  const std::vector<double> xs = {1.0, 1.1, 0.9, 1.05, 0.95};
  const std::vector<int> rounds(xs.size(), 0);
  const auto e = kwb::stats::estimateReplicated(xs, rounds);
  EXPECT_EQ(e.uncertainty.method, kwb::stats::CiMethod::kOrderStatistic);
  const auto os = kwb::stats::medianCi95(xs);
  EXPECT_EQ(e.ci95.low, os.low);
  EXPECT_EQ(e.ci95.high, os.high);
  EXPECT_THROW(kwb::stats::estimateReplicated(xs, std::vector<int>{0}), std::invalid_argument);
  EXPECT_EQ(kwb::stats::estimateReplicated({}, {}).median, 0.0);
}

TEST(Replicates, StudentsQuantiles) {
  EXPECT_NEAR(kwb::stats::t975(1), 12.706, 1e-3);
  EXPECT_NEAR(kwb::stats::t975(9), 2.262, 1e-3);
  EXPECT_NEAR(kwb::stats::t975(1000), 1.96, 1e-3);
  EXPECT_TRUE(std::isinf(kwb::stats::t975(0)));
}

// A stage and its reference drift together, sample by sample: the ratio of paired samples
// cancels the drift that makes each median uncertain.
TEST(Paired, CommonDriftCancelsInThePairs) {
  const Drifted ref = drifted(kDrift, 5, 0.001, 3);
  const Drifted stage = drifted(kDrift, 5, 0.001, 4, 1.03);  // 3% slower, same drift
  const kwb::PairedRatio p = kwb::pairedRatio("ref", {stage.ms, stage.rounds, stage.sweeps},
                                              {ref.ms, ref.rounds, ref.sweeps});
  EXPECT_EQ(p.pairs, 50);
  EXPECT_EQ(p.replicates, 10);
  EXPECT_NEAR(p.pct, 100.0 / 1.03, 0.2);
  EXPECT_LT(p.ci95.high - p.ci95.low, 0.3);  // percentage points
  EXPECT_GT(p.ci95.high, p.pct);
  // Unpaired, the medians' own CIs are an order of magnitude wider.
  const auto e = kwb::stats::estimateReplicated(stage.ms, stage.rounds);
  EXPECT_GT(halfWidthPct(e.ci95, e.median), 5 * (p.ci95.high - p.ci95.low) / 2 / p.pct * 100);
}

TEST(Paired, OnlySamplesOfTheSameRoundAndSweepPair) {
  const std::vector<double> a = {1, 1, 1}, b = {2, 2};
  const std::vector<int> ar = {0, 0, 1}, as = {0, 1, 0}, br = {0, 1}, bs = {1, 1};
  const kwb::PairedRatio p = kwb::pairedRatio("b", {a, ar, as}, {b, br, bs});
  EXPECT_EQ(p.pairs, 1);  // only (0, 1)
  EXPECT_DOUBLE_EQ(p.pct, 200.0);
  const kwb::PairedRatio none = kwb::pairedRatio("b", {a, ar, as}, {{}, {}, {}});
  EXPECT_EQ(none.pairs, 0);
  EXPECT_THROW(kwb::pairedRatio("b", {a, br, bs}, {b, br, bs}), std::invalid_argument);
}

TEST(VerdictRule, EquivalenceMarginDecides) {
  EXPECT_EQ(kwb::decide(1.000, {0.995, 1.005}, 0.01).verdict, Verdict::kSame);
  EXPECT_EQ(kwb::decide(1.030, {1.025, 1.035}, 0.01).verdict, Verdict::kSlower);
  EXPECT_EQ(kwb::decide(0.970, {0.965, 0.975}, 0.01).verdict, Verdict::kFaster);
  // Significant but inside the margin with its CI: SAME.
  EXPECT_EQ(kwb::decide(1.004, {1.002, 1.006}, 0.01).verdict, Verdict::kSame);
  // The CI straddles the margin: cannot decide.
  const auto d = kwb::decide(1.012, {1.004, 1.020}, 0.01);
  EXPECT_EQ(d.verdict, Verdict::kUncertain);
  EXPECT_NE(d.reason.find("+1.2%"), std::string::npos) << d.reason;
  // Beyond the margin and clear of no change, but the CI reaches into the margin: cannot
  // decide (between separate runs this is what drift looks like).
  EXPECT_EQ(kwb::decide(1.03, {1.005, 1.055}, 0.01).verdict, Verdict::kUncertain);
  EXPECT_EQ(kwb::decide(1.05, {0.98, 1.12}, 0.01).verdict, Verdict::kUncertain);
  EXPECT_EQ(kwb::decide(NAN, {0.9, 1.1}, 0.01).verdict, Verdict::kUncertain);
}

TEST(VerdictRule, SeparateRunsAddTheirUncertainties) {
  const auto ci = kwb::ratioCi(1.0, {0.97, 1.03}, 1.0, {0.96, 1.04});
  EXPECT_NEAR(std::log(ci.high), 0.05 / std::sqrt(2.0), 1e-9);  // √((3² + 4²) / 2)
  EXPECT_NEAR(std::log(ci.low), -0.05 / std::sqrt(2.0), 1e-9);
}

kwb::CaseResult timed(const std::string& device, double median, double half) {
  kwb::CaseResult c;
  c.kernel = "sgemm.tiled";
  c.size = kwb::gemmSize({512, 512, 512});
  c.status = kwb::CaseStatus::kPass;
  c.samplesMs = {median};
  c.summary.median = median;
  c.summary.ci95 = {median * (1 - half), median * (1 + half)};
  (void)device;
  return c;
}

TEST(RunCompareRule, DriftWideCisAreUncertainAndCrossDeviceIsMarked) {
  kwb::RunDocument base, now;
  base.device = kwb::DeviceInfo{};
  base.device->name = "NVIDIA H200";
  now.device = kwb::DeviceInfo{};
  now.device->name = "NVIDIA H100 80GB HBM3";
  base.cases = {timed("", 1.0, 0.02)};
  now.cases = {timed("", 1.03, 0.02)};
  const auto r = kwb::compareRuns(base, now);
  ASSERT_EQ(r.cases.size(), 1u);
  EXPECT_EQ(r.cases[0].verdict, Verdict::kUncertain) << r.cases[0].reason;
  EXPECT_TRUE(r.crossDevice);
  EXPECT_NE(r.deviceNote.find("NVIDIA H200"), std::string::npos);
  now.device->name = base.device->name;
  now.cases = {timed("", 1.05, 0.005)};
  const auto same = kwb::compareRuns(base, now);
  EXPECT_FALSE(same.crossDevice);
  base.cases = {timed("", 1.0, 0.005)};
  EXPECT_EQ(kwb::compareRuns(base, now).cases[0].verdict, Verdict::kSlower);
}

TEST(ProfilerEnv, FindsNsightByItsInjectionLibrary) {
  std::map<std::string, std::string> env;
  auto get = [&](const char* name) -> const char* {
    const auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  };
  EXPECT_EQ(kwb::detectProfiler(get), kwb::Profiler::kNone);
  env["CUDA_INJECTION64_PATH"] =
      "/usr/local/cuda/nsight-compute-2025.3.0/target/linux-desktop-glibc_2_11_3-x64/"
      "libTreeLauncherTargetInjection.so";
  EXPECT_EQ(kwb::detectProfiler(get), kwb::Profiler::kNsightCompute);
  env["CUDA_INJECTION64_PATH"] =
      "/opt/nvidia/nsight-systems/2025.1/target-linux-x64/"
      "libToolsInjection64.so";
  EXPECT_EQ(kwb::detectProfiler(get), kwb::Profiler::kNsightSystems);
  // The nsys shipped in Nsight Compute's folder is still Nsight Systems.
  env["CUDA_INJECTION64_PATH"] =
      "/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64/libToolsInjection64.so";
  EXPECT_EQ(kwb::detectProfiler(get), kwb::Profiler::kNsightSystems);
  // ncu's launcher preloads its library and names its ports.
  env.erase("CUDA_INJECTION64_PATH");
  env["NV_NSIGHT_INJECTION_PORT_BASE"] = "49152";
  EXPECT_EQ(kwb::detectProfiler(get), kwb::Profiler::kNsightCompute);
  env["KWB_PROFILER"] = "none";
  EXPECT_EQ(kwb::detectProfiler(get), kwb::Profiler::kNone);
  env["KWB_PROFILER"] = "ncu";
  EXPECT_EQ(kwb::detectProfiler(get), kwb::Profiler::kNsightCompute);
  EXPECT_EQ(kwb::toString(kwb::Profiler::kNsightSystems), "Nsight Systems");
}

TEST(AbReport, RoundTripsAndRefusesOtherFiles) {
  kwb::AbReport r;
  r.a = "sgemm.tiled";
  r.b = "sgemm.tiled#b";
  r.aLabel = "old.cu";
  r.bLabel = "new.cu";
  r.sameWithin = 0.01;
  kwb::CaseResult a = timed("", 1.0, 0.01), b = timed("", 1.03, 0.01);
  b.kernel = r.b;
  kwb::PairedRatio p;
  p.reference = r.a;
  p.pct = 100.0 / 1.03;
  p.ci95 = {100.0 / 1.035, 100.0 / 1.025};
  p.pairs = 40;
  p.replicates = 10;
  r.results.push_back(kwb::abResult(a, b, p, r.sameWithin));
  EXPECT_EQ(r.results[0].verdict, Verdict::kSlower);
  EXPECT_NEAR(r.results[0].ratio, 1.03, 1e-12);
  r.document.cases = {a, b};
  const auto back = kwb::parseAbReport(kwb::toJsonText(r), "mem");
  EXPECT_EQ(back.bLabel, "new.cu");
  ASSERT_EQ(back.results.size(), 1u);
  EXPECT_EQ(back.results[0].verdict, Verdict::kSlower);
  EXPECT_NEAR(back.results[0].ci95.high, 1.035, 1e-12);
  EXPECT_EQ(back.document.cases.size(), 2u);
  EXPECT_THROW(kwb::parseAbReport("{\"schemaVersion\": 5}", "x.json"), kwb::InputError);
  EXPECT_THROW(kwb::parseAbReport("{\"kind\": \"kwb-ab\", \"version\": 1}", "x.json"),
               kwb::InputError);
  // No pairs (a side not timed): no verdict.
  EXPECT_EQ(kwb::abResult(a, b, {}, 0.01).verdict, Verdict::kUncertain);
}

// Across builds, each pair of processes decides on its own and the verdict must hold in all:
// two pairs that each read a tight 6% apart, one each way (where each process's buffers
// landed), are UNCERTAIN, not SLOWER or FASTER.
TEST(AbReport, ProcessPairsMustAgree) {
  auto part = [](double ratio, double halfWidth) {
    kwb::AbResult r;
    r.size = "2^20 f32";
    r.aMs = 0.005;
    r.bMs = 0.005 * ratio;
    r.ratio = ratio;
    r.ci95 = {ratio - halfWidth, ratio + halfWidth};
    r.pairs = 50;
    r.rounds = 5;
    return r;
  };
  const kwb::AbResult split =
      kwb::combineProcessPairs({part(1.06, 0.002), part(0.94, 0.002)}, 0.025);
  EXPECT_EQ(split.verdict, Verdict::kUncertain) << split.reason;
  EXPECT_NEAR(split.ratio, std::sqrt(1.06 * 0.94), 1e-12);
  EXPECT_NEAR(split.ci95.low, 0.938, 1e-12);
  EXPECT_NEAR(split.ci95.high, 1.062, 1e-12);
  EXPECT_EQ(split.pairs, 100);
  EXPECT_EQ(split.rounds, 10);
  ASSERT_EQ(split.processPairs.size(), 2u);
  EXPECT_NE(split.reason.find("the process pairs read 1.0600 (1.0580 .. 1.0620), 0.9400"),
            std::string::npos)
      << split.reason;
  // Both pairs faster: FASTER; both within the margin: SAME; one of each: UNCERTAIN.
  EXPECT_EQ(kwb::combineProcessPairs({part(0.80, 0.01), part(0.82, 0.01)}, 0.025).verdict,
            Verdict::kFaster);
  EXPECT_EQ(kwb::combineProcessPairs({part(1.005, 0.003), part(0.995, 0.003)}, 0.025).verdict,
            Verdict::kSame);
  EXPECT_EQ(kwb::combineProcessPairs({part(0.90, 0.01), part(1.0, 0.003)}, 0.025).verdict,
            Verdict::kUncertain);
  // One pair: its own result, unchanged.
  const kwb::AbResult one = kwb::combineProcessPairs({part(1.06, 0.002)}, 0.025);
  EXPECT_EQ(one.ratio, 1.06);
  EXPECT_EQ(one.pairs, 50);
  EXPECT_TRUE(one.processPairs.empty());
  // A pair with no ratio (a side failed there): not compared, with that pair's reason.
  kwb::AbResult failed = part(0, 0);
  failed.reason = "not compared: B fail";
  const kwb::AbResult withFailure = kwb::combineProcessPairs({part(0.8, 0.01), failed}, 0.025);
  EXPECT_EQ(withFailure.verdict, Verdict::kUncertain);
  EXPECT_EQ(withFailure.reason, "not compared: B fail");
  // The pairs survive the JSON round trip.
  kwb::AbReport r;
  r.a = "scan.decoupled_lookback@abc";
  r.b = "scan.decoupled_lookback";
  r.results = {split};
  const auto back = kwb::parseAbReport(kwb::toJsonText(r), "mem");
  ASSERT_EQ(back.results.at(0).processPairs.size(), 2u);
  EXPECT_NEAR(back.results[0].processPairs[1].ratio, 0.94, 1e-12);
  EXPECT_NEAR(back.results[0].processPairs[1].ci95.high, 0.942, 1e-12);
}

// Each A/B size carries CUPTI's B / A beside the timer's, and says so where they part: one
// build against itself read 0.755 by the timer and 0.990 by CUPTI (H200, 2026-12-02); a real
// change moves both (the scan at 2^22: 0.802 and 0.821).
TEST(AbReport, CuptisRatioChecksTheTimers) {
  auto sides = [](double timerRatio, std::optional<double> aCupti, std::optional<double> bCupti) {
    kwb::CaseResult a = timed("", 1.0, 0.01), b = timed("", timerRatio, 0.01);
    a.cuptiMedianMs = aCupti;
    b.cuptiMedianMs = bCupti;
    kwb::PairedRatio p;
    p.pct = 100.0 / timerRatio;
    p.ci95 = {100.0 / (timerRatio * 1.002), 100.0 / (timerRatio * 0.998)};
    p.pairs = 100;
    p.replicates = 10;
    return kwb::abResult(a, b, p, 0.025);
  };
  const kwb::AbResult parted = sides(0.755, 4.02, 3.98);
  EXPECT_EQ(parted.verdict, Verdict::kFaster);  // the timer's verdict stands, with a warning
  ASSERT_TRUE(parted.cuptiRatio.has_value());
  EXPECT_NEAR(*parted.cuptiRatio, 3.98 / 4.02, 1e-12);
  EXPECT_NE(parted.reason.find("CUPTI's kernel times read B / A 0.9900, not the timer's 0.7550"),
            std::string::npos)
      << parted.reason;
  const kwb::AbResult agreed = sides(0.802, 12.33, 10.12);
  EXPECT_EQ(agreed.reason.find("CUPTI"), std::string::npos) << agreed.reason;
  EXPECT_NEAR(*agreed.cuptiRatio, 10.12 / 12.33, 1e-12);
  // Just inside and just outside the 5%.
  EXPECT_EQ(sides(1.0, 1.0, 1.049).reason.find("CUPTI"), std::string::npos);
  EXPECT_NE(sides(1.0, 1.0, 1.051).reason.find("CUPTI"), std::string::npos);
  EXPECT_NE(sides(1.0, 1.0, 1 / 1.051).reason.find("CUPTI"), std::string::npos);
  // One side not traced: no ratio, no note.
  EXPECT_FALSE(sides(0.755, std::nullopt, 3.98).cuptiRatio.has_value());
  // Pairs of processes: the geometric mean of the pairs' CUPTI ratios, checked the same way.
  const kwb::AbResult two =
      kwb::combineProcessPairs({sides(0.755, 4.02, 3.98), sides(1.325, 3.98, 4.02)}, 0.025);
  ASSERT_TRUE(two.cuptiRatio.has_value());
  EXPECT_NEAR(*two.cuptiRatio, 1.0, 1e-12);
  EXPECT_EQ(two.verdict, Verdict::kUncertain);
  EXPECT_EQ(two.reason.find("CUPTI's kernel times"), std::string::npos) << two.reason;
  // It survives the JSON round trip, and an older report without it reads as untraced.
  kwb::AbReport r;
  r.a = "x";
  r.b = "x#b";
  r.results = {parted};
  const auto back = kwb::parseAbReport(kwb::toJsonText(r), "mem");
  ASSERT_TRUE(back.results.at(0).cuptiRatio.has_value());
  EXPECT_NEAR(*back.results[0].cuptiRatio, 3.98 / 4.02, 1e-12);
  r.results[0].cuptiRatio.reset();
  EXPECT_FALSE(kwb::parseAbReport(kwb::toJsonText(r), "mem").results.at(0).cuptiRatio);
}

// kwb compare reads CUPTI's change beside the timer's, and says where they part: a tight 8%
// that CUPTI does not see is the timer's alone (between processes of one build the back-to-back
// cadence moved, not the kernel); a change CUPTI also reads carries no note.
TEST(RunCompareRule, CuptisChangeChecksTheTimers) {
  kwb::CaseResult base = timed("", 1.0, 0.005), now = timed("", 1.08, 0.005);
  base.cuptiMedianMs = 0.9;
  now.cuptiMedianMs = 0.91;
  const kwb::CaseComparison parted = kwb::compareCase(base, now, {});
  EXPECT_EQ(parted.verdict, Verdict::kSlower);
  ASSERT_TRUE(parted.cuptiRatio.has_value());
  EXPECT_NEAR(*parted.cuptiRatio, 0.91 / 0.9, 1e-12);
  EXPECT_NE(parted.reason.find("CUPTI's kernel times read new / base 1.0111, not the timer's "
                               "1.0800"),
            std::string::npos)
      << parted.reason;
  now.cuptiMedianMs = 0.97;  // CUPTI reads 7.8% too
  const kwb::CaseComparison agreed = kwb::compareCase(base, now, {});
  EXPECT_EQ(agreed.verdict, Verdict::kSlower);
  EXPECT_EQ(agreed.reason.find("CUPTI"), std::string::npos) << agreed.reason;
  now.cuptiMedianMs.reset();  // not traced
  EXPECT_FALSE(kwb::compareCase(base, now, {}).cuptiRatio.has_value());
}

// The one sign convention: the change is in time, negative is faster, and the speedup says the
// same as a factor whichever way it goes.
TEST(SpeedupText, NegativeTimeChangeIsFasterAndTheFactorIsTheRatioOfTimes) {
  EXPECT_EQ(kwb::speedupText(-0.064), "1.07× faster");  // base / new = 1 / 0.936
  EXPECT_EQ(kwb::speedupText(0.068), "1.07× slower");   // new / base = 1.068
  EXPECT_EQ(kwb::speedupText(-0.5), "2.00× faster");
  EXPECT_EQ(kwb::speedupText(0.0001), "1.00×");
  EXPECT_EQ(kwb::speedupText(-1.0), "");  // no time left: no ratio
  EXPECT_EQ(kwb::speedupText(NAN), "");
}

}  // namespace
