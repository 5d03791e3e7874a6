// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "kwb/stopping.h"

using kwb::StoppingRule;
using kwb::StopReason;

namespace {
// Feeds samples one at a time, each taking `dtS` of wall time, until the rule stops.
std::pair<StopReason, std::size_t> run(const StoppingRule& rule, const std::vector<double>& stream,
                                       double dtS) {
  std::vector<double> taken;
  for (double x : stream) {
    taken.push_back(x);
    const auto r = kwb::shouldStop(rule, taken, dtS * double(taken.size()));
    if (r != StopReason::kContinue) return {r, taken.size()};
  }
  return {StopReason::kContinue, taken.size()};
}
}  // namespace

TEST(Stopping, QuietStreamStopsAtMinimums) {
  StoppingRule rule{
      .minSamples = 10, .maxSamples = 1000, .minTimeS = 0.0, .maxTimeS = 10, .maxNoise = 0.01};
  const std::vector<double> constant(100, 1.0);
  const auto [reason, n] = run(rule, constant, 0.001);
  EXPECT_EQ(reason, StopReason::kNoiseReached);
  EXPECT_EQ(n, 10u);
}

TEST(Stopping, MinTimeHoldsEvenWhenQuiet) {
  StoppingRule rule{
      .minSamples = 5, .maxSamples = 1000, .minTimeS = 0.05, .maxTimeS = 10, .maxNoise = 0.01};
  const std::vector<double> constant(1000, 1.0);
  const auto [reason, n] = run(rule, constant, 0.001);  // 1 ms per sample: 50 needed
  EXPECT_EQ(reason, StopReason::kNoiseReached);
  EXPECT_EQ(n, 50u);
}

TEST(Stopping, NoisyStreamNeedsMoreSamples) {
  std::mt19937 gen(7);
  std::normal_distribution<double> d(1.0, 0.05);
  std::vector<double> noisy(5000);
  for (auto& x : noisy) x = d(gen);
  StoppingRule rule{
      .minSamples = 10, .maxSamples = 5000, .minTimeS = 0, .maxTimeS = 100, .maxNoise = 0.005};
  const auto [reason, n] = run(rule, noisy, 0.0001);
  EXPECT_EQ(reason, StopReason::kNoiseReached);
  // CI half-width ≈ 1.2533·σ·1.96/√n / median ⇒ n ≈ (1.2533·0.05·1.96/0.005)² ≈ 600.
  EXPECT_GT(n, 300u);
  EXPECT_LT(n, 1200u);
}

TEST(Stopping, CapsOnSamplesAndTime) {
  std::vector<double> alternating;
  for (int i = 0; i < 1000; ++i) alternating.push_back(i % 2 ? 1.0 : 3.0);
  StoppingRule bySamples{
      .minSamples = 2, .maxSamples = 40, .minTimeS = 0, .maxTimeS = 100, .maxNoise = 0.001};
  EXPECT_EQ(run(bySamples, alternating, 0.001),
            (std::pair{StopReason::kMaxSamples, std::size_t{40}}));
  StoppingRule byTime{
      .minSamples = 2, .maxSamples = 1000, .minTimeS = 0, .maxTimeS = 0.1, .maxNoise = 0.001};
  EXPECT_EQ(run(byTime, alternating, 0.01), (std::pair{StopReason::kMaxTime, std::size_t{10}}));
}

TEST(Stopping, SlowKernelGetsItsMinimumSamplesPastTheDefaultTimeCap) {
  StoppingRule rule{
      .minSamples = 10, .maxSamples = 100, .minTimeS = 0, .maxTimeS = 0.3, .maxNoise = 0.01};
  // Each sample takes 0.5 s: the cap is passed at the first, the minimum still holds.
  EXPECT_EQ(run(rule, std::vector<double>(50, 500.0), 0.5),
            (std::pair{StopReason::kMaxTime, std::size_t{10}}));
  EXPECT_EQ(kwb::shouldStop(rule, {}, 10.0), StopReason::kContinue);
}

TEST(Stopping, UserTimeCapEndsSlowKernelAfterOneSample) {
  StoppingRule rule{.minSamples = 10,
                    .maxSamples = 100,
                    .minTimeS = 0,
                    .maxTimeS = 0.3,
                    .maxNoise = 0.01,
                    .timeCapsMinSamples = true};
  EXPECT_EQ(run(rule, std::vector<double>(5, 500.0), 0.5),
            (std::pair{StopReason::kMaxTime, std::size_t{1}}));
  EXPECT_EQ(kwb::shouldStop(rule, {}, 10.0), StopReason::kContinue);
}
