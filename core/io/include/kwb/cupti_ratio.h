// SPDX-License-Identifier: Apache-2.0
#pragma once
// The timer's ratio of two cases checked against CUPTI's (docs/MEASUREMENT.md, "CUPTI's ratio"):
// each case's CUPTI check gives its kernels' median traced time per launch, so the ratio of two
// cases' CUPTI times is a second reading of the ratio of their medians, from the kernels' own
// start and end times. `kwb ab` (each size) and `kwb compare` (each case) carry it and say when
// the two part.
#include <optional>
#include <string>

#include "kwb/results.h"

namespace kwb {

// How far apart the timer's ratio and CUPTI's may be before a verdict says so. Both cases'
// kernels are traced alike, so a dependent launch's early start, which CUPTI counts and the
// timer does not, weighs on both (the look-back scan at 2^24: timer 1.053, CUPTI 1.062); a
// ratio that moves by more than this is the timer's, not the kernels' (one build against
// itself at 2^16: timer 0.755, CUPTI 0.990; H200, 2026-12-02).
inline constexpr double kCuptiRatioTolerance = 0.05;

// `now`'s CUPTI time over `base`'s, where both were traced.
std::optional<double> cuptiRatio(const CaseResult& base, const CaseResult& now);

// Whether the timer's ratio and CUPTI's part by more than kCuptiRatioTolerance (false where
// either is missing).
bool cuptiParts(double timerRatio, const std::optional<double>& cuptiRatio);

// "; CUPTI's kernel times read new / base 0.9900, not the timer's 0.7550: ..." where the ratios
// part (cuptiParts), else nothing. `what` names the ratio ("B / A").
std::string cuptiNote(double timerRatio, const std::optional<double>& cuptiRatio,
                      const std::string& what);

}  // namespace kwb
