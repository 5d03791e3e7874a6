// SPDX-License-Identifier: Apache-2.0
#include "kwb/stopping.h"

#include "kwb/stats.h"

#include <algorithm>

namespace kwb {

std::string_view toString(StopReason r) {
  switch (r) {
    case StopReason::kContinue:
      return "continue";
    case StopReason::kNoiseReached:
      return "noise target reached";
    case StopReason::kMaxSamples:
      return "max samples";
    case StopReason::kMaxTime:
      return "max time";
  }
  return "?";
}

StopReason shouldStop(const StoppingRule& rule, std::span<const double> samples, double elapsedS) {
  const int n = int(samples.size());
  if (n >= rule.maxSamples) return StopReason::kMaxSamples;
  // The time cap ends sampling once the minimum count exists (once one sample exists when
  // the user's cap overrides the minimum).
  const int capFrom = rule.timeCapsMinSamples ? 1 : std::max(rule.minSamples, 1);
  if (n >= capFrom && elapsedS >= rule.maxTimeS) return StopReason::kMaxTime;
  if (n < rule.minSamples || elapsedS < rule.minTimeS) return StopReason::kContinue;
  if (stats::summarize(samples).relativeMedianNoise() <= rule.maxNoise)
    return StopReason::kNoiseReached;
  return StopReason::kContinue;
}

}  // namespace kwb
