// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kwb/stats.h"

namespace st = kwb::stats;

TEST(Stats, EmptyIsAllZero) {
  const std::vector<double> v;
  const auto s = st::summarize(v);
  EXPECT_EQ(s.count, 0u);
  EXPECT_EQ(s.median, 0.0);
  EXPECT_EQ(s.stddev, 0.0);
  EXPECT_EQ(s.relativeMedianNoise(), 0.0);
}

TEST(Stats, OneSample) {
  const std::vector<double> v{3.5};
  const auto s = st::summarize(v);
  EXPECT_EQ(s.median, 3.5);
  EXPECT_EQ(s.min, 3.5);
  EXPECT_EQ(s.p95, 3.5);
  EXPECT_EQ(s.stddev, 0.0);
  EXPECT_EQ(s.cv, 0.0);
  EXPECT_EQ(s.ci95.low, 3.5);
  EXPECT_EQ(s.ci95.high, 3.5);
}

TEST(Stats, TwoSamples) {
  const std::vector<double> v{1.0, 3.0};
  EXPECT_DOUBLE_EQ(st::median(v), 2.0);
  EXPECT_DOUBLE_EQ(st::stddev(v), std::sqrt(2.0));  // ((1)^2 + (1)^2) / (2 − 1)
  const auto ci = st::medianCi95(v);
  EXPECT_EQ(ci.low, 1.0);
  EXPECT_EQ(ci.high, 3.0);
}

TEST(Stats, AllEqual) {
  const std::vector<double> v(10, 4.0);
  const auto s = st::summarize(v);
  EXPECT_EQ(s.median, 4.0);
  EXPECT_EQ(s.stddev, 0.0);
  EXPECT_EQ(s.cv, 0.0);
  EXPECT_EQ(s.relativeMedianNoise(), 0.0);
}

TEST(Stats, HandComputedValues) {
  // Unsorted on purpose.
  const std::vector<double> v{5, 1, 4, 2, 3};
  EXPECT_DOUBLE_EQ(st::median(v), 3.0);
  EXPECT_DOUBLE_EQ(st::mean(v), 3.0);
  EXPECT_DOUBLE_EQ(st::min(v), 1.0);
  EXPECT_DOUBLE_EQ(st::max(v), 5.0);
  EXPECT_DOUBLE_EQ(st::stddev(v), std::sqrt(2.5));  // Σ(x−3)² = 10, / 4
  EXPECT_DOUBLE_EQ(st::cv(v), std::sqrt(2.5) / 3.0);
  EXPECT_DOUBLE_EQ(st::percentile(v, 25), 2.0);
  EXPECT_DOUBLE_EQ(st::percentile(v, 5), 1.2);   // rank 0.2 between 1 and 2
  EXPECT_DOUBLE_EQ(st::percentile(v, 95), 4.8);  // rank 3.8 between 4 and 5
  EXPECT_DOUBLE_EQ(st::median(std::vector<double>{4, 1, 3, 2}), 2.5);
}

TEST(Stats, MeanZeroGivesCvZero) {
  const std::vector<double> v{-1.0, 1.0};
  EXPECT_EQ(st::cv(v), 0.0);
}

TEST(Stats, MedianCiOfHundred) {
  std::vector<double> v;
  for (int i = 1; i <= 100; ++i) v.push_back(i);
  // ranks 50 ∓ 1.96·10/2 = 40.2 → 40, and 1 + 50 + 9.8 = 60.8 → 61.
  const auto ci = st::medianCi95(v);
  EXPECT_EQ(ci.low, 40.0);
  EXPECT_EQ(ci.high, 61.0);
  const auto s = st::summarize(v);
  EXPECT_NEAR(s.relativeMedianNoise(), (61.0 - 40.0) / 2 / 50.5, 1e-12);
}
