// SPDX-License-Identifier: Apache-2.0
#include "kwb/stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace kwb::stats {

double min(std::span<const double> xs) {
  return xs.empty() ? 0.0 : *std::min_element(xs.begin(), xs.end());
}

double max(std::span<const double> xs) {
  return xs.empty() ? 0.0 : *std::max_element(xs.begin(), xs.end());
}

double mean(std::span<const double> xs) {
  if (xs.empty()) return 0.0;
  return std::accumulate(xs.begin(), xs.end(), 0.0) / double(xs.size());
}

double stddev(std::span<const double> xs) {
  if (xs.size() < 2) return 0.0;
  const double m = mean(xs);
  double ss = 0.0;
  for (double x : xs) ss += (x - m) * (x - m);
  return std::sqrt(ss / double(xs.size() - 1));
}

double cv(std::span<const double> xs) {
  const double m = mean(xs);
  return m == 0.0 ? 0.0 : stddev(xs) / m;
}

double percentile(std::span<const double> xs, double p) {
  if (xs.empty()) return 0.0;
  std::vector<double> v(xs.begin(), xs.end());
  const double pos = std::clamp(p, 0.0, 100.0) / 100.0 * double(v.size() - 1);
  const auto lo = std::size_t(std::floor(pos));
  const auto hi = std::size_t(std::ceil(pos));
  std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(lo), v.end());
  const double a = v[lo];
  if (hi == lo) return a;
  // After nth_element the elements above `lo` are ≥ v[lo]; the next rank is their minimum.
  const double b = *std::min_element(v.begin() + std::ptrdiff_t(lo) + 1, v.end());
  return a + (pos - double(lo)) * (b - a);
}

double median(std::span<const double> xs) { return percentile(xs, 50.0); }

Interval medianCi95(std::span<const double> xs) {
  if (xs.empty()) return {};
  std::vector<double> v(xs.begin(), xs.end());
  std::sort(v.begin(), v.end());
  const double n = double(v.size());
  const double half = 1.96 * std::sqrt(n) / 2.0;
  // 1-based order statistics j and k, clamped to the sample.
  const long j = std::max(1L, long(std::floor(n / 2.0 - half)));
  const long k = std::min(long(v.size()), long(std::ceil(1.0 + n / 2.0 + half)));
  return {v[std::size_t(j - 1)], v[std::size_t(k - 1)]};
}

double Summary::relativeMedianNoise() const {
  return median == 0.0 ? 0.0 : (ci95.high - ci95.low) / 2.0 / median;
}

Summary summarize(std::span<const double> xs) {
  Summary s;
  s.count = xs.size();
  if (xs.empty()) return s;
  s.median = median(xs);
  s.min = min(xs);
  s.max = max(xs);
  s.mean = mean(xs);
  s.stddev = stddev(xs);
  s.cv = cv(xs);
  s.p5 = percentile(xs, 5);
  s.p25 = percentile(xs, 25);
  s.p75 = percentile(xs, 75);
  s.p95 = percentile(xs, 95);
  s.ci95 = medianCi95(xs);
  return s;
}

}  // namespace kwb::stats
