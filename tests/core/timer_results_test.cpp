// SPDX-License-Identifier: Apache-2.0
// Timer names, the timer fields of a results document, reading schema 1 documents, and the
// verdicts of comparing two runs.
#include <gtest/gtest.h>

#include <fstream>

#include "kwb/error.h"
#include "kwb/exporters.h"
#include "kwb/results.h"
#include "kwb/run_compare.h"
#include "kwb/stats.h"
#include "sample_document.h"

using kwb::TimerMode;
using kwb::Verdict;

TEST(TimerMode, NamesRoundTripAndUnknownIsNamed) {
  for (TimerMode t : {TimerMode::kIsolated, TimerMode::kBackToBack, TimerMode::kCupti,
                      TimerMode::kHost, TimerMode::kHostEvents})
    EXPECT_EQ(kwb::parseTimerMode(kwb::toString(t)), t);
  try {
    kwb::parseTimerMode("wallclock");
    FAIL();
  } catch (const kwb::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'wallclock'"), std::string::npos);
  }
  EXPECT_TRUE(kwb::isGpuTime(kwb::kDefaultTimer));
  EXPECT_FALSE(kwb::isGpuTime(TimerMode::kHost));
  EXPECT_FALSE(kwb::isGpuTime(TimerMode::kHostEvents));
  EXPECT_NE(std::string(kwb::timerLabel(TimerMode::kHost)).find("host"), std::string::npos);
}

TEST(TimerResults, TimerFieldsRoundTrip) {
  auto doc = makeSampleDocument();
  doc.settings.timer = TimerMode::kIsolated;
  doc.settings.cuptiCheck = false;
  doc.launchOverhead = kwb::LaunchOverhead{2.5, 0.75};
  auto& c = doc.cases[0];
  c.timer = TimerMode::kIsolated;
  c.timerNote = "graph capture failed";
  c.throttledSamples = 3;
  c.warmupSmClockMhz = 1980;
  c.kernels = {{"sm90_xmma_gemm", 1.0, 0.0071}, {"splitKreduce", 1.0, 0.0031}};
  c.cuptiMedianMs = 0.0102;
  c.timerVsCuptiPct = 1.5;
  const auto back = kwb::parseDocument(kwb::toJsonText(doc), "t.json");
  EXPECT_EQ(back.schemaVersion, kwb::kSchemaVersion);
  EXPECT_EQ(back.settings.timer, TimerMode::kIsolated);
  EXPECT_FALSE(back.settings.cuptiCheck);
  ASSERT_TRUE(back.launchOverhead);
  EXPECT_DOUBLE_EQ(back.launchOverhead->isolatedUs, 2.5);
  EXPECT_DOUBLE_EQ(back.launchOverhead->backToBackUs, 0.75);
  const auto& b = back.cases[0];
  EXPECT_EQ(b.timer, TimerMode::kIsolated);
  EXPECT_EQ(b.timerNote, "graph capture failed");
  EXPECT_EQ(b.throttledSamples, 3);
  EXPECT_DOUBLE_EQ(b.warmupSmClockMhz, 1980);
  ASSERT_EQ(b.kernels.size(), 2u);
  EXPECT_EQ(b.kernels[1].name, "splitKreduce");
  EXPECT_DOUBLE_EQ(b.kernels[0].medianMs, 0.0071);
  EXPECT_DOUBLE_EQ(*b.cuptiMedianMs, 0.0102);
  EXPECT_DOUBLE_EQ(*b.timerVsCuptiPct, 1.5);
}

// A schema 1 document (no timer fields) still opens, its timing marked host-inclusive.
TEST(TimerResults, SchemaOneDocumentIsReadAsHostInclusive) {
  std::ifstream in(std::string(KWB_SOURCE_DIR) + "/tests/data/gui-baseline-spec-benchmark.json");
  ASSERT_TRUE(in) << "fixture missing";
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_NE(text.find("\"schemaVersion\": 1"), std::string::npos);
  const auto doc = kwb::parseDocument(text, "old.json");
  EXPECT_EQ(doc.schemaVersion, 1);
  EXPECT_EQ(doc.settings.timer, TimerMode::kHostEvents);
  ASSERT_FALSE(doc.cases.empty());
  for (const auto& c : doc.cases) EXPECT_EQ(c.timer, TimerMode::kHostEvents) << c.kernel;
  EXPECT_FALSE(doc.launchOverhead);
}

TEST(TimerResults, ExportsNameTheTimer) {
  auto doc = makeSampleDocument();
  doc.settings.timer = TimerMode::kBackToBack;
  doc.cases[0].timer = TimerMode::kBackToBack;
  EXPECT_NE(kwb::toCsv(doc).find(",timer,"), std::string::npos);
  EXPECT_NE(kwb::toCsv(doc).find(",back-to-back,"), std::string::npos);
  EXPECT_NE(kwb::toMarkdown(doc).find(std::string(kwb::timerLabel(TimerMode::kBackToBack))),
            std::string::npos);
}

namespace {

// A case whose samples are `n` values spread ±`noise` around `ms`, deterministic.
kwb::CaseResult timedCase(double ms, double noise, int n = 101,
                          TimerMode timer = TimerMode::kBackToBack) {
  kwb::CaseResult c;
  c.kernel = "sgemm.warp_tiled";
  c.size = kwb::gemmSize({512, 512, 512});
  c.status = kwb::CaseStatus::kPass;
  c.timer = timer;
  for (int i = 0; i < n; ++i) c.samplesMs.push_back(ms * (1 + noise * (2.0 * i / (n - 1) - 1)));
  c.summary = kwb::stats::summarize(c.samplesMs);
  return c;
}

}  // namespace

TEST(RunCompare, ClearSlowdownIsSlower) {
  const auto r = kwb::compareCase(timedCase(1.0, 0.01), timedCase(1.10, 0.01), {});
  EXPECT_EQ(r.verdict, Verdict::kSlower) << r.reason;
  EXPECT_NEAR(r.change, 0.10, 1e-9);
}

TEST(RunCompare, ClearSpeedupIsFaster) {
  EXPECT_EQ(kwb::compareCase(timedCase(1.0, 0.01), timedCase(0.9, 0.01), {}).verdict,
            Verdict::kFaster);
}

TEST(RunCompare, TinyChangeOfTightSamplesIsSame) {
  EXPECT_EQ(kwb::compareCase(timedCase(1.0, 0.002), timedCase(1.003, 0.002), {}).verdict,
            Verdict::kSame);
}

// The same 10% difference is not a verdict when the samples are too noisy to tell: a ratio
// of medians alone would call it SLOWER.
TEST(RunCompare, NoisySamplesAreUncertain) {
  const auto r = kwb::compareCase(timedCase(1.0, 0.6, 31), timedCase(1.10, 0.6, 31), {});
  EXPECT_EQ(r.verdict, Verdict::kUncertain) << r.reason;
  EXPECT_NE(r.reason.find("kwb ab"), std::string::npos) << r.reason;
  // A small change known only loosely is not SAME either.
  EXPECT_EQ(kwb::compareCase(timedCase(1.0, 0.6, 31), timedCase(1.0, 0.6, 31), {}).verdict,
            Verdict::kUncertain);
}

TEST(RunCompare, DifferentTimersAreNotCompared) {
  const auto r =
      kwb::compareCase(timedCase(1.0, 0.01, 101, TimerMode::kHostEvents), timedCase(0.5, 0.01), {});
  EXPECT_EQ(r.verdict, Verdict::kUncertain);
  EXPECT_NE(r.reason.find("different timers"), std::string::npos) << r.reason;
}

TEST(RunCompare, DocumentsPairCasesAndListTheRest) {
  kwb::RunDocument base, now;
  base.cases = {timedCase(1.0, 0.01)};
  auto other = timedCase(2.0, 0.01);
  other.kernel = "cublas.sgemm";
  now.cases = {timedCase(1.2, 0.01), other};
  const auto r = kwb::compareRuns(base, now);
  ASSERT_EQ(r.cases.size(), 1u);
  EXPECT_EQ(r.count(Verdict::kSlower), 1);
  ASSERT_EQ(r.onlyInNew.size(), 1u);
  EXPECT_EQ(r.onlyInNew[0], "cublas.sgemm 512x512x512");
  EXPECT_TRUE(r.onlyInBase.empty());
}

// A 1.5% change of tight samples is within the default run-to-run allowance (SAME), and
// SLOWER under a 1% rule: the threshold, not the ratio alone, decides.
TEST(RunCompare, SameWithinDecidesSmallClearChanges) {
  const auto base = timedCase(1.0, 0.001), now = timedCase(1.015, 0.001);
  EXPECT_EQ(kwb::compareCase(base, now, {}).verdict, Verdict::kSame);
  EXPECT_EQ(kwb::compareCase(base, now, {.sameWithin = 0.01}).verdict, Verdict::kSlower);
}
