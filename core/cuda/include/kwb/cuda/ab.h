// SPDX-License-Identifier: Apache-2.0
#pragma once
// `kwb ab` (docs/MEASUREMENT.md, "A/B in one run"): two kernels (or two versions of a user's
// kernel) verified and then timed interleaved, sweep by sweep in every round, at each size;
// B's time over A's from the ratio of paired samples, with its CI and a verdict.
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "kwb/ab_report.h"
#include "kwb/cuda/runner.h"

namespace kwb::cuda {

// `sizes`: one plan case per size (its kernel is ignored). When A and B are the same kernel,
// B runs as "<id>#b" so the two stay apart in the document.
AbReport runAb(const KernelDescriptor& a, const KernelDescriptor& b,
               const std::vector<PlanCase>& sizes, const RunConfig& cfg, double sameWithin,
               const EventSink& sink, const std::function<bool()>& cancelled);

// A kernel of another build of kwb (A: `aKernel` in `otherKwb`, a path to its kwb) against `b`
// of this build, interleaved in the same way: the other build runs as a child process on the
// same device and verifies and times its side there (`kwb ab-peer`). A's cases are named
// "<aKernel>@<its revision>". Throws InputError when the other build cannot be started, does
// not speak the protocol or lacks the kernel.
AbReport runAbAcrossBuilds(const std::string& otherKwb, const std::string& aKernel,
                           const KernelDescriptor& b, const std::vector<PlanCase>& sizes,
                           const RunConfig& cfg, double sameWithin, const EventSink& sink,
                           const std::function<bool()>& cancelled);

// `kwb ab-peer`: the other build's side. Reads one JSON request per line from `in` and answers
// one line each on `out` until "quit" or end of input; `base` names the device, kwb's version
// and revision. Returns the exit code (3: no device).
int servePeer(std::istream& in, std::ostream& out, const KernelRegistry& registry,
              const RunConfig& base);

}  // namespace kwb::cuda
