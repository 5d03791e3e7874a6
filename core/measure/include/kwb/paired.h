// SPDX-License-Identifier: Apache-2.0
#pragma once
// Ratios of paired samples (docs/MEASUREMENT.md, "Paired ratios"): a stage and its reference,
// or the two sides of `kwb ab`, sampled in the same sweeps milliseconds apart, so the drift of
// the GPU over seconds cancels in each pair's ratio.
#include <cstdint>
#include <span>
#include <string>

#include "kwb/replicates.h"

namespace kwb {

// A stage against a reference, measured interleaved: each of the stage's samples paired with
// the reference's sample of the same sweep (taken milliseconds apart), their ratio per pair.
struct PairedRatio {
  std::string reference;  // the reference kernel id
  double pct = 0;         // median of reference time / stage time over the pairs, in %
  stats::Interval ci95;   // its 95% CI in %, from the rounds (kwb/replicates.h)
  int pairs = 0;
  int replicates = 0;
};

// One side's samples with the round and sweep each was taken in (equal lengths).
struct TaggedSamples {
  std::span<const double> ms;
  std::span<const int> rounds;
  std::span<const int> sweeps;
};

// Pairs the samples of `stage` and `reference` taken in the same round and sweep; each pair's
// reference time / stage time (× 100: the stage's throughput in % of the reference's) is one
// observation, and the median and its 95% CI come from them by round (kwb/replicates.h).
// No pairs: pairs = 0 and pct 0. Throws std::invalid_argument on spans of unequal length.
PairedRatio pairedRatio(const std::string& reference, const TaggedSamples& stage,
                        const TaggedSamples& referenceSamples);

}  // namespace kwb
