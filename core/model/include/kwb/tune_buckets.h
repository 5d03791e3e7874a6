// SPDX-License-Identifier: Apache-2.0
#pragma once
// Which configuration of a tuned kernel a shape runs (`kwb tune --shapes`, `kwb run --tuning`).
// Pure C++ (no CUDA).
//
// A bucket is keyed by a shape's work, 2·M·N·K: configurations trade occupancy against reuse,
// and how many blocks a shape makes grows with its work far more than with its aspect. Sorted
// by FLOPs, each tuned shape owns the shapes from the geometric midpoint with the next smaller
// tuned shape up to, not including, the midpoint with the next larger: a shape takes the choice
// of the tuned shape nearest in log FLOPs, a tie going to the larger one. The smallest bucket
// starts at 0 FLOPs and the largest has no end, so every shape has a bucket.
#include <span>
#include <string_view>
#include <vector>

#include "kwb/run_document.h"

namespace kwb {

// The kernel as registered (its own choice of tile and split-K by shape), in a sweep's table
// and in its choices.
inline constexpr std::string_view kDefaultConfig = "default";

// The buckets of `tuned` (any order), in increasing FLOPs, each choosing the fastest
// configuration of `results` on its shape (kwb::fastest), or kDefaultConfig where nothing
// passed and was timed there. Throws InputError when `tuned` is empty or two of its shapes do
// the same FLOPs (their buckets would be one).
std::vector<TuneChoice> chooseByBucket(std::span<const CaseResult> results,
                                       std::span<const Shape> tuned);

// The choice whose bucket holds `s`. Throws InputError when none does.
const TuneChoice& choiceFor(std::span<const TuneChoice> choices, const Shape& s);

// Throws InputError unless `choices` are buckets as chooseByBucket makes them: at least one,
// the first from 0, each ending where the next starts, the last without end, each holding its
// own shape; the message names the first choice that is not.
void checkBuckets(std::span<const TuneChoice> choices);

}  // namespace kwb
