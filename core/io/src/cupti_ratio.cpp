// SPDX-License-Identifier: Apache-2.0
#include "kwb/cupti_ratio.h"

#include <cmath>

#include "kwb/format.h"

namespace kwb {

std::optional<double> cuptiRatio(const CaseResult& base, const CaseResult& now) {
  if (!base.cuptiMedianMs || !now.cuptiMedianMs) return std::nullopt;
  if (!(*base.cuptiMedianMs > 0) || !(*now.cuptiMedianMs > 0)) return std::nullopt;
  return *now.cuptiMedianMs / *base.cuptiMedianMs;
}

bool cuptiParts(double timerRatio, const std::optional<double>& cuptiRatio) {
  if (!cuptiRatio || !(timerRatio > 0)) return false;
  return std::abs(std::log(timerRatio / *cuptiRatio)) > std::log1p(kCuptiRatioTolerance);
}

std::string cuptiNote(double timerRatio, const std::optional<double>& cuptiRatio,
                      const std::string& what) {
  if (!cuptiParts(timerRatio, cuptiRatio)) return "";
  return "; CUPTI's kernel times read " + what + " " + fixed(*cuptiRatio, 4) +
         ", not the timer's " + fixed(timerRatio, 4) +
         ": the difference is not the kernels' alone (docs/MEASUREMENT.md, \"CUPTI's ratio\")";
}

}  // namespace kwb
