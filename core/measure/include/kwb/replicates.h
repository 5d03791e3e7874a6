// SPDX-License-Identifier: Apache-2.0
#pragma once
// Honest uncertainty across a run (docs/MEASUREMENT.md, "Uncertainty"). A case's samples are
// taken in rounds spread over the run, round-robin with the other cases; the GPU's speed drifts
// over seconds, so samples of one round are alike and rounds differ. An interval of a median
// therefore comes from the spread between the rounds' medians (Student's t over the rounds),
// never narrower than the distribution-free interval of all samples, and both variance
// components are reported. Two intervals are made from it: the confidence interval of the
// median, and the repeat interval, where the median of another run of the same build falls
// with 95% probability (√2 wider: both runs' errors), which is what a case's ci95 reports.
#include <span>
#include <string>
#include <string_view>

#include "kwb/stats.h"

namespace kwb::stats {

// Two-sided 95% quantile of Student's t with `dof` degrees of freedom (dof ≥ 1; 1.96 beyond
// the table).
double t975(int dof);

// How a CI was made.
enum class CiMethod {
  kOrderStatistic,  // one round only: the distribution-free CI of all samples
  kReplicates,      // Student's t over the rounds' medians, at least the order-statistic CI
};
std::string_view toString(CiMethod m);          // "order-statistic", "replicates"
CiMethod parseCiMethod(std::string_view text);  // throws InputError

// What the document records of a case's uncertainty.
struct Uncertainty {
  int replicates = 0;  // rounds that kept at least one sample
  // Rounds close in time drift together: the rounds' medians' lag-1 autocorrelation (clamped
  // to [0, 0.9]) makes them worth effectiveRounds = R (1 - rho) / (1 + rho) independent draws.
  double effectiveRounds = 0;
  // The run-to-run standard deviation that no single run can see (measured from repeated
  // runs, docs/MEASUREMENT.md), added to the repeat interval; % of the median.
  double runToRunPct = 0;
  double withinPct = 0;   // within-round standard deviation, % of the median
  double betweenPct = 0;  // between-round standard deviation (beyond what within explains)
  CiMethod method = CiMethod::kOrderStatistic;
};

struct ReplicatedEstimate {
  double median = 0;  // of all samples
  Interval ci95;
  Uncertainty uncertainty;
};

enum class IntervalKind {
  kConfidence,  // of this run's median (a paired ratio's, kwb ab's)
  kRepeat,      // where a repeat run's median falls: the document's ci95 of a case
};

// `samples[i]` was taken in round `rounds[i]` (any integers; equal means same round). Spans
// of unequal length are an error (std::invalid_argument). No samples: all zero.
// `runToRunPct` (kRepeat only): a run-level standard deviation in % of the median, added in
// quadrature to the repeat interval (both runs carry it).
ReplicatedEstimate estimateReplicated(std::span<const double> samples, std::span<const int> rounds,
                                      IntervalKind kind = IntervalKind::kRepeat,
                                      double runToRunPct = 0.0);

// The run-to-run standard deviation of a median beyond what the rounds show, measured on an
// H100 from three spec-benchmark runs of one build (docs/MEASUREMENT.md, "Repeatability").
inline constexpr double kRunToRunPct = 0.24;

}  // namespace kwb::stats
