// SPDX-License-Identifier: Apache-2.0
#include "kwb/case_budget.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace kwb {

int plannedSamples(const StoppingRule& rule, double launchS) {
  int n = rule.minSamples;
  if (rule.timeCapsMinSamples && launchS > 0)
    n = std::min(n, int(std::max(1.0, std::ceil(rule.maxTimeS / launchS))));
  return std::clamp(n, 1, std::max(rule.maxSamples, 1));
}

double launchSeconds(const Shape& shape, double flopsPerSecond) {
  if (!(flopsPerSecond > 0)) throw std::invalid_argument("launchSeconds: rate must be > 0");
  return shape.flops() / flopsPerSecond;
}

double estimateCaseSeconds(const Shape& shape, double flopsPerSecond, const CaseLaunches& n) {
  return launchSeconds(shape, flopsPerSecond) * double(n.total());
}

std::optional<std::string> budgetSkipReason(const Shape& shape, const RateEstimate& rate,
                                            const CaseLaunches& n, double maxCaseSeconds) {
  if (maxCaseSeconds <= 0 || !(rate.flopsPerSecond > 0)) return std::nullopt;
  const double est = estimateCaseSeconds(shape, rate.flopsPerSecond, n);
  if (est <= maxCaseSeconds) return std::nullopt;
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "estimated %.0f s (%d launches of %.3g s at %.4g GFLOP/s, %s) exceeds "
                "--max-case-seconds %g",
                est, n.total(), launchSeconds(shape, rate.flopsPerSecond),
                rate.flopsPerSecond / 1e9, rate.source.c_str(), maxCaseSeconds);
  return std::string(buf);
}

Shape probeShape(const Shape& shape, std::int64_t cap) {
  return Shape{std::min(shape.m, cap), std::min(shape.n, cap), std::min(shape.k, cap)};
}

bool needsEstimate(const Shape& shape, double maxCaseSeconds) {
  return maxCaseSeconds > 0 && shape.flops() > probeShape(shape).flops();
}

}  // namespace kwb
