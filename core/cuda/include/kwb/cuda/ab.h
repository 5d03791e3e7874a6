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

// kwb ab --against-kwb: `aKernel` of another build of kwb (`otherKwb`, a path to its kwb)
// against a kernel of this build.
struct AcrossBuilds {
  std::string otherKwb, thisKwb;  // thisKwb: this build's kwb, started as the other is
  std::string aKernel;
  double sameWithin = 0;  // SAME's margin (kwb ab: --same-within, else 2.5% across builds)
  int processPairs = 2;   // pairs of processes, the builds started in alternating order
};

// A kernel of another build of kwb against `b` of this build, interleaved in the same way: each
// build runs as a child process on the same device (`kwb ab-peer`) and verifies and times its
// side there, so neither side is the process that coordinates. The rounds are shared among
// `x.processPairs` pairs of processes, started A first, then B first, and so on, and each size's
// result combines the pairs' (combineProcessPairs); the document holds every pair's cases, pair
// by pair. A's cases are named "<aKernel>@<its revision>". Throws InputError when either build
// cannot be started, does not speak the protocol or lacks the kernel, or when the pairs
// outnumber the rounds.
AbReport runAbAcrossBuilds(const AcrossBuilds& x, const KernelDescriptor& b,
                           const std::vector<PlanCase>& sizes, const RunConfig& cfg,
                           const EventSink& sink, const std::function<bool()>& cancelled);

// `kwb ab-peer`: the other build's side. Reads one JSON request per line from `in` and answers
// one line each on `out` until "quit" or end of input; `base` names the device, kwb's version
// and revision. Returns the exit code (3: no device).
int servePeer(std::istream& in, std::ostream& out, const KernelRegistry& registry,
              const RunConfig& base);

}  // namespace kwb::cuda
