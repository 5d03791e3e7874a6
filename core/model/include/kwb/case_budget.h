// SPDX-License-Identifier: Apache-2.0
#pragma once
// Bounded cases (docs/MEASUREMENT.md, "Bounded cases"): before a case starts, its time is
// estimated from its FLOPs and a rate, and a case over the bound is skipped with the reason.
// Pure functions: the rate is measured by the caller (core/cuda/case_gate.cpp).
#include <optional>
#include <string>

#include "kwb/shape.h"
#include "kwb/stopping.h"

namespace kwb {

inline constexpr double kDefaultMaxCaseSeconds = 60.0;

// The launches one case makes, each a full GEMM of the case's shape.
struct CaseLaunches {
  int verify = 2;      // the canary run and the alpha/beta run
  int reference = 0;   // reference computations not cached yet
  int warmups = 3;     // at least (warm-ups go on until the clock is steady)
  int samples = 10;    // samples the stopping rule takes at least (plannedSamples)
  int cuptiCheck = 0;  // extra samples timed with CUPTI
  int total() const { return verify + reference + warmups + samples + cuptiCheck; }
};

// Samples a rule takes at least when one launch lasts `launchS` seconds: minSamples, unless
// the rule lets its time cap end sampling earlier (StoppingRule::timeCapsMinSamples), then as
// many as fit in maxTimeS (at least one). Never more than maxSamples.
int plannedSamples(const StoppingRule& rule, double launchS);

// Seconds for one launch of `shape` at `flopsPerSecond` (> 0), and for the whole case.
double launchSeconds(const Shape& shape, double flopsPerSecond);
double estimateCaseSeconds(const Shape& shape, double flopsPerSecond, const CaseLaunches& n);

// Where a rate came from, for the skip message ("measured at 1024x1024x1024").
struct RateEstimate {
  double flopsPerSecond = 0;
  std::string source;
};

// The skip reason when the estimate exceeds maxCaseSeconds (≤ 0: no bound), else nothing.
// The reason names the estimate, the rate and its source, and the option.
std::optional<std::string> budgetSkipReason(const Shape& shape, const RateEstimate& rate,
                                            const CaseLaunches& n, double maxCaseSeconds);

// The shape a rate is probed at: each dimension capped at `cap`.
Shape probeShape(const Shape& shape, std::int64_t cap = 1024);

// Whether a case needs a probe before it starts: its FLOPs exceed the probe's (smaller cases
// are cheap enough to run unestimated) and a bound is set.
bool needsEstimate(const Shape& shape, double maxCaseSeconds);

}  // namespace kwb
