#pragma once
// The compile-time configurations of the tunable kernels. Each configuration is its own
// translation unit, generated from one template per kernel (kernels/tune/tune.cmake).
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
// Ids of the kernels that have configurations.
std::vector<std::string> tunableKernels();

// A copy of `base` that launches `v` and carries the configuration in its id
// ("sgemm.warp_tiled[128x128x16_w64x64_t8x4x4]"), so verification reports name it.
KernelDescriptor withVariant(const KernelDescriptor& base, const TuneVariant& v);

}  // namespace kwb::kernels
