// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one rule that turns a measured change into a verdict, for `kwb compare` (two separate
// runs) and `kwb ab` (two things measured interleaved in one run), by where the whole 95% CI of
// the change lies against the margin ±sameWithin: inside it, SAME; wholly above it, SLOWER;
// wholly below it, FASTER; across a bound, UNCERTAIN: these samples cannot decide
// (docs/MEASUREMENT.md, "Verdicts").
#include <string>
#include <string_view>

#include "kwb/stats.h"

namespace kwb {

enum class Verdict { kFaster, kSlower, kSame, kUncertain };
std::string_view toString(Verdict v);  // "FASTER", "SLOWER", "SAME", "UNCERTAIN"

struct Decision {
  Verdict verdict = Verdict::kUncertain;
  std::string reason;  // one sentence: the change, its CI and why
};

// `ratio`: new time / base time (above 1 is slower); `ci`: its 95% CI; `sameWithin`: the
// relative change below which two times count as the same (0.02 = 2%).
Decision decide(double ratio, const stats::Interval& ci, double sameWithin);

// The CI of new / base from two separate runs' medians and their repeat intervals (a case's
// ci95, kwb/replicates.h): each repeat interval already holds two runs' errors, so the
// relative half-widths add in quadrature over √2.
stats::Interval ratioCi(double baseMedian, const stats::Interval& baseCi, double newMedian,
                        const stats::Interval& newCi);

// "+3.1%", "-0.40%": a relative change as people read it.
std::string signedPercent(double change);

// The one sign convention of every comparison kwb shows (kwb compare, the GUI's Baseline tab,
// the report): the change is in time, new / base - 1, negative = faster; beside it the speedup
// as a factor, "1.07× faster" (base / new) or "1.07× slower" (new / base), "1.00×" within
// half a per mille. Empty for a change that is no ratio (not above -1, or not finite).
std::string speedupText(double change);

}  // namespace kwb
