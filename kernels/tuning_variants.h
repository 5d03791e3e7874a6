// SPDX-License-Identifier: Apache-2.0
#pragma once
// The compile-time configurations of the tunable kernels. kernels/tune/tune.cmake is their one
// list: it generates a translation unit per configuration from one template per kernel, and
// the table this file reads. The registry marks a descriptor `tunable` from the same table.
#include <string>
#include <string_view>
#include <vector>

#include "kwb/kernel_descriptor.h"
#include "kwb/tuning.h"

namespace kwb::kernels {

struct TuneVariant {
  TuneConfig config;
  LaunchFn launch = nullptr;  // the configuration's own launcher, same contract as a stage's
};

// The configurations of `kernelId`, in sweep order; empty when the kernel is not tunable.
std::vector<TuneVariant> tuneVariants(std::string_view kernelId);
// Whether tune.cmake lists configurations for `kernelId`.
bool hasTuneVariants(std::string_view kernelId);
// Ids of the kernels that have configurations, in tune.cmake's order.
std::vector<std::string> tunableKernels();

// A copy of `base` that launches `v` and carries the configuration in its id
// ("sgemm.warp_tiled[128x128x16_w64x64_t8x4x4]"), so verification reports name it.
KernelDescriptor withVariant(const KernelDescriptor& base, const TuneVariant& v);

}  // namespace kwb::kernels
