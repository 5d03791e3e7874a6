#pragma once
// `kwb ab` (docs/MEASUREMENT.md, "A/B in one run"): two kernels (or two versions of a user's
// kernel) verified and then timed interleaved, sweep by sweep in every round, at each size;
// B's time over A's from the ratio of paired samples, with its CI and a verdict.
#include <functional>
#include <vector>

#include "kwb/ab_report.h"
#include "kwb/cuda/runner.h"

namespace kwb::cuda {

// `sizes`: one plan case per size (its kernel is ignored). When A and B are the same kernel,
// B runs as "<id>#b" so the two stay apart in the document.
AbReport runAb(const KernelDescriptor& a, const KernelDescriptor& b,
               const std::vector<PlanCase>& sizes, const RunConfig& cfg, double sameWithin,
               const EventSink& sink, const std::function<bool()>& cancelled);

}  // namespace kwb::cuda
