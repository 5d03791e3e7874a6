// SPDX-License-Identifier: Apache-2.0
#pragma once
// kwb run --tuning FILE: the cases of the kernel a `kwb tune` document tuned run the
// configuration their shape's bucket chose (kwb/tune_buckets.h); every other case is as without.
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "kwb/cuda/runner.h"
#include "kwb/kernel_descriptor.h"
#include "kwb/results.h"

namespace kwb::cuda {

// One compile-time configuration of a tunable kernel as this build has it: its name and the
// kernel that runs it, whose id carries the configuration ("sgemm.warp_tiled[cfg]").
struct TuneOption {
  std::string config;
  KernelDescriptor kernel;
};
// The configurations this build has of `base`, in sweep order; empty when it has none. kwb
// passes the kernels' own (kernels/tuning_variants.h), which core does not know.
using TuneOptionsFn = std::function<std::vector<TuneOption>(const KernelDescriptor& base)>;

struct AppliedTuning {
  std::string kernel;                        // the tuned kernel's id
  std::deque<KernelDescriptor> descriptors;  // what its cases point at; must outlive the run
};

// Points every case of the tuned kernel in `plan` at the configuration its shape's bucket chose
// (the kernel as registered where that is "default"), and names it in the case's ranKernel:
// "sgemm.warp_tiled[cfg] (tuned for 1024x1024x1024)". The case keeps the kernel's id, so
// comparisons, the progression and % of cuBLAS see the kernel. Throws InputError naming `path`
// when the file cannot be read, holds no sweep, tunes a kernel the plan does not run, or
// chooses a configuration `options` does not have: all before any device is opened.
AppliedTuning applyTuning(const std::string& path, std::vector<PlanCase>& plan,
                          const TuneOptionsFn& options);

// One line per case of the tuned kernel: its shape and what ran.
std::string tunedCasesText(const RunDocument& doc, const AppliedTuning& tuning);

}  // namespace kwb::cuda
