// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <span>
#include <string_view>

namespace kwb {

// When to stop taking samples of one case (nvbench's stopping criterion, simplified):
// at least minSamples and minTimeS; at most maxSamples or maxTimeS; in between, stop as soon
// as the 95% CI of the median is within ±maxNoise of it. minSamples wins over maxTimeS (a
// slow case still gets its minimum) unless timeCapsMinSamples, set when the user named the
// time cap (kwb run --max-time): then the cap ends sampling after at least one sample.
struct StoppingRule {
  int minSamples = 10;
  int maxSamples = 500;
  double minTimeS = 0.02;
  double maxTimeS = 0.3;
  double maxNoise = 0.01;  // relative half-width of the median's CI
  bool timeCapsMinSamples = false;
};

enum class StopReason { kContinue, kNoiseReached, kMaxSamples, kMaxTime };
std::string_view toString(StopReason r);

// `samples` so far (any unit), `elapsedS` wall time spent sampling this case.
StopReason shouldStop(const StoppingRule& rule, std::span<const double> samples, double elapsedS);

}  // namespace kwb
