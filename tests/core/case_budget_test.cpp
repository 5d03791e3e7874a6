// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "kwb/case_budget.h"

using kwb::CaseLaunches;
using kwb::RateEstimate;
using kwb::Shape;

TEST(CaseBudget, EstimateIsFlopsOverRateTimesLaunches) {
  const Shape s{1000, 2000, 500};  // 2e9 FLOPs
  EXPECT_DOUBLE_EQ(kwb::launchSeconds(s, 1e12), 2e-3);
  CaseLaunches n;  // 2 + 0 + 3 + 10 + 0 = 15
  EXPECT_EQ(n.total(), 15);
  EXPECT_DOUBLE_EQ(kwb::estimateCaseSeconds(s, 1e12, n), 15 * 2e-3);
  EXPECT_THROW(kwb::launchSeconds(s, 0), std::invalid_argument);
}

TEST(CaseBudget, NaiveAt32768IsSkippedWithTheReason) {
  const Shape s{32768, 32768, 32768};  // 7.04e13 FLOPs: 70 s a launch at 1 TFLOP/s
  const auto why = kwb::budgetSkipReason(
      s, RateEstimate{1e12, "one launch timed at 1024x1024x1024"}, CaseLaunches{}, 60.0);
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("exceeds --max-case-seconds 60"), std::string::npos) << *why;
  EXPECT_NE(why->find("1024x1024x1024"), std::string::npos) << *why;
  EXPECT_NE(why->find("1000 GFLOP/s"), std::string::npos) << *why;
}

TEST(CaseBudget, FitsOrNoBoundOrNoRateRunsTheCase) {
  const Shape s{8192, 8192, 8192};  // 1.1e12 FLOPs: 0.022 s a launch at 50 TFLOP/s
  EXPECT_FALSE(kwb::budgetSkipReason(s, {5e13, "x"}, CaseLaunches{}, 60.0));
  // Exactly at the bound still runs; just past it is skipped.
  const double est = kwb::estimateCaseSeconds(s, 5e13, CaseLaunches{});
  EXPECT_FALSE(kwb::budgetSkipReason(s, {5e13, "x"}, CaseLaunches{}, est));
  EXPECT_TRUE(kwb::budgetSkipReason(s, {5e13, "x"}, CaseLaunches{}, est * 0.999));
  EXPECT_FALSE(kwb::budgetSkipReason(s, {1e6, "x"}, CaseLaunches{}, 0.0));   // 0: no bound
  EXPECT_FALSE(kwb::budgetSkipReason(s, {0.0, "x"}, CaseLaunches{}, 60.0));  // no rate
}

TEST(CaseBudget, PlannedSamplesHonourTheMinimumUnlessTheUserCapsTime) {
  kwb::StoppingRule rule;  // 10 … 500 samples, 0.3 s cap
  EXPECT_EQ(kwb::plannedSamples(rule, 2.0), 10);
  rule.timeCapsMinSamples = true;
  EXPECT_EQ(kwb::plannedSamples(rule, 2.0), 1);
  EXPECT_EQ(kwb::plannedSamples(rule, 0.1), 3);
  EXPECT_EQ(kwb::plannedSamples(rule, 1e-6), 10);
  rule.minSamples = rule.maxSamples = 4;
  EXPECT_EQ(kwb::plannedSamples(rule, 1e-6), 4);
}

TEST(CaseBudget, ProbeShapeAndWhenToEstimate) {
  EXPECT_EQ(kwb::probeShape(Shape{32768, 17, 4096}), (Shape{1024, 17, 1024}));
  EXPECT_FALSE(kwb::needsEstimate(Shape{1024, 1024, 1024}, 60));  // no bigger than its probe
  EXPECT_TRUE(kwb::needsEstimate(Shape{512, 100000, 8}, 60));     // wider than its probe
  EXPECT_TRUE(kwb::needsEstimate(Shape{2048, 1024, 1024}, 60));
  EXPECT_FALSE(kwb::needsEstimate(Shape{32768, 32768, 32768}, 0));  // no bound
}
