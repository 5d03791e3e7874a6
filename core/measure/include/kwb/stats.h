// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <cstddef>
#include <span>

namespace kwb::stats {

// Small pure functions over samples. Edge cases, by definition:
// - no samples: every statistic is 0 (a Summary with count 0);
// - one sample: stddev 0, every percentile equals it, the CI is [x, x];
// - mean 0: CV 0.
double median(std::span<const double> xs);
double min(std::span<const double> xs);
double max(std::span<const double> xs);
double mean(std::span<const double> xs);
double stddev(std::span<const double> xs);  // sample standard deviation (n − 1)
double cv(std::span<const double> xs);      // stddev / mean
// Linear interpolation between closest ranks (numpy's default), p in [0, 100].
double percentile(std::span<const double> xs, double p);

struct Interval {
  double low = 0.0;
  double high = 0.0;
};
// Distribution-free 95% confidence interval of the median from order statistics
// (binomial, normal approximation): ranks n/2 ∓ 1.96·√n/2, clamped to the sample.
Interval medianCi95(std::span<const double> xs);

struct Summary {
  std::size_t count = 0;
  double median = 0, min = 0, max = 0, mean = 0, stddev = 0, cv = 0;
  double p5 = 0, p25 = 0, p75 = 0, p95 = 0;
  Interval ci95;
  // Half-width of the median's CI relative to the median: the noise the stopping rule reads.
  double relativeMedianNoise() const;
};
Summary summarize(std::span<const double> xs);

}  // namespace kwb::stats
