// SPDX-License-Identifier: Apache-2.0
#include "kwb/verdict_rule.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace kwb {

std::string_view toString(Verdict v) {
  switch (v) {
    case Verdict::kFaster:
      return "FASTER";
    case Verdict::kSlower:
      return "SLOWER";
    case Verdict::kSame:
      return "SAME";
    case Verdict::kUncertain:
      return "UNCERTAIN";
  }
  return "?";
}

std::string signedPercent(double change) {
  char buf[32];
  std::snprintf(buf, sizeof buf, std::abs(change) < 0.01 ? "%+.2f%%" : "%+.1f%%", 100.0 * change);
  return buf;
}

std::string speedupText(double change) {
  if (!std::isfinite(change) || change <= -1.0) return {};
  if (std::abs(change) < 0.0005) return "1.00×";
  const double factor = change < 0 ? 1.0 / (1.0 + change) : 1.0 + change;
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.2f× %s", factor, change < 0 ? "faster" : "slower");
  return buf;
}

namespace {
std::string unsignedPercent(double x) { return signedPercent(std::abs(x)).substr(1); }
}  // namespace

Decision decide(double ratio, const stats::Interval& ci, double sameWithin) {
  Decision d;
  const double change = ratio - 1.0, lo = ci.low - 1.0, hi = ci.high - 1.0;
  const std::string what = "change " + signedPercent(change) + " (95% CI " + signedPercent(lo) +
                           " .. " + signedPercent(hi) + ")";
  if (!(ratio > 0) || !std::isfinite(ratio) || !(ci.low <= ci.high)) {
    d.reason = "no usable ratio";
    return d;
  }
  if (lo >= -sameWithin && hi <= sameWithin) {
    d.verdict = Verdict::kSame;
    d.reason = what + " lies within ±" + unsignedPercent(sameWithin);
  } else if (lo > sameWithin) {
    d.verdict = Verdict::kSlower;
    d.reason = what + " lies wholly above +" + unsignedPercent(sameWithin);
  } else if (hi < -sameWithin) {
    d.verdict = Verdict::kFaster;
    d.reason = what + " lies wholly below -" + unsignedPercent(sameWithin);
  } else {
    d.reason =
        what + " is neither within ±" + unsignedPercent(sameWithin) + " nor clearly beyond it";
  }
  return d;
}

stats::Interval ratioCi(double baseMedian, const stats::Interval& baseCi, double newMedian,
                        const stats::Interval& newCi) {
  if (!(baseMedian > 0) || !(newMedian > 0)) return {0, INFINITY};
  const double hb = std::max(baseMedian - baseCi.low, baseCi.high - baseMedian) / baseMedian;
  const double hn = std::max(newMedian - newCi.low, newCi.high - newMedian) / newMedian;
  const double h = std::sqrt((hb * hb + hn * hn) / 2.0);
  const double r = newMedian / baseMedian;
  return {r * std::exp(-h), r * std::exp(h)};
}

}  // namespace kwb
