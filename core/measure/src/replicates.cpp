// SPDX-License-Identifier: Apache-2.0
#include "kwb/replicates.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <vector>

#include "kwb/error.h"

namespace kwb::stats {

double t975(int dof) {
  // Two-sided 95% (upper 97.5%) quantiles of Student's t, dof 1..30.
  static constexpr double kTable[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
                                      2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
                                      2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
                                      2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
  if (dof < 1) return INFINITY;
  if (dof <= 30) return kTable[dof - 1];
  if (dof <= 60) return 2.042 + (2.000 - 2.042) * (dof - 30) / 30.0;
  if (dof <= 120) return 2.000 + (1.980 - 2.000) * (dof - 60) / 60.0;
  return 1.96;
}

std::string_view toString(CiMethod m) {
  return m == CiMethod::kReplicates ? "replicates" : "order-statistic";
}

CiMethod parseCiMethod(std::string_view text) {
  if (text == "replicates") return CiMethod::kReplicates;
  if (text == "order-statistic") return CiMethod::kOrderStatistic;
  throw InputError("unknown CI method '" + std::string(text) +
                   "' (expected replicates or order-statistic)");
}

namespace {
// Lag-1 autocorrelation of a series, clamped to [0, 0.9]: positive drift correlation only.
double lag1(const std::vector<double>& xs) {
  const double m = mean(xs);
  double num = 0, den = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    den += (xs[i] - m) * (xs[i] - m);
    if (i + 1 < xs.size()) num += (xs[i] - m) * (xs[i + 1] - m);
  }
  return den > 0 ? std::clamp(num / den, 0.0, 0.9) : 0.0;
}
}  // namespace

ReplicatedEstimate estimateReplicated(std::span<const double> samples, std::span<const int> rounds,
                                      IntervalKind kind, double runToRunPct) {
  if (samples.size() != rounds.size())
    throw std::invalid_argument("estimateReplicated: samples and rounds differ in length");
  ReplicatedEstimate out;
  if (samples.empty()) return out;
  out.median = median(samples);
  out.ci95 = medianCi95(samples);
  std::map<int, std::vector<double>> byRound;
  for (std::size_t i = 0; i < samples.size(); ++i) byRound[rounds[i]].push_back(samples[i]);
  const int r = int(byRound.size());
  out.uncertainty.replicates = r;

  // Variance components (one-way random effects, method of moments): the pooled within-round
  // variance, and what the spread of the rounds' means adds beyond it.
  double ssWithin = 0;
  std::vector<double> means, medians;
  double nSum = 0;
  for (const auto& [round, xs] : byRound) {
    const double m = mean(xs);
    for (const double x : xs) ssWithin += (x - m) * (x - m);
    means.push_back(m);
    medians.push_back(median(xs));
    nSum += double(xs.size());
  }
  const double n = double(samples.size());
  const double within = n > r ? ssWithin / (n - r) : 0.0;
  const double perRound = nSum / r;
  const double sdMeans = stddev(means);
  const double between = std::max(0.0, sdMeans * sdMeans - within / perRound);
  if (out.median > 0) {
    out.uncertainty.withinPct = 100.0 * std::sqrt(within) / out.median;
    out.uncertainty.betweenPct = 100.0 * std::sqrt(between) / out.median;
  }
  if (r < 2) return out;

  // The rounds' medians (in time order) as effectiveRounds draws of the case's median: the CI
  // of their centre, and for a repeat run the difference of two such centres (√2 the standard
  // error) plus both runs' run-level deviation.
  out.uncertainty.method = CiMethod::kReplicates;
  const double rho = lag1(medians);
  const double eff = std::max(2.0, r * (1.0 - rho) / (1.0 + rho));
  out.uncertainty.effectiveRounds = eff;
  const double se = stddev(medians) / std::sqrt(eff);
  const double t = t975(int(std::floor(eff)) - 1);
  double half = t * se;
  if (kind == IntervalKind::kRepeat) {
    const double run = runToRunPct / 100.0 * out.median;
    out.uncertainty.runToRunPct = runToRunPct;
    half = std::sqrt(2.0) * std::sqrt(half * half + 1.96 * 1.96 * run * run);
  }
  out.ci95.low = std::min(out.ci95.low, out.median - half);
  out.ci95.high = std::max(out.ci95.high, out.median + half);
  return out;
}

}  // namespace kwb::stats
