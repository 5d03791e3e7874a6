#include "kwb/stopping.h"

#include "kwb/stats.h"

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
  // The time cap wins over the minimum sample count only once one sample exists.
  if (n >= 1 && elapsedS >= rule.maxTimeS) return StopReason::kMaxTime;
  if (n < rule.minSamples || elapsedS < rule.minTimeS) return StopReason::kContinue;
  if (stats::summarize(samples).relativeMedianNoise() <= rule.maxNoise)
    return StopReason::kNoiseReached;
  return StopReason::kContinue;
}

}  // namespace kwb
