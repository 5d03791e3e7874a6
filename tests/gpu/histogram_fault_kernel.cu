// SPDX-License-Identifier: Apache-2.0
#include "histogram_fault_kernel.h"

#include "histogram/histogram_args.h"
#include "histogram/histogram_descriptors.h"
#include "kwb/cuda/check.h"

namespace kwb::test {
namespace {

__global__ void dropOne(unsigned* hist, int bins) {
  for (int b = 0; b < bins; ++b)
    if (hist[b] != 0) {
      --hist[b];
      return;
    }
}

LaunchInfo launch(const kernels::HistogramArgs& a) {
  static const KernelDescriptor cub = kernels::cubHistogramEvenRef();
  std::any_cast<kernels::HistogramLauncher>(cub.launcher).launch(a);
  dropOne<<<1, 1, 0, a.stream>>>(a.histogram, a.bins);
  KWB_CHECK_LAUNCH();
  return {false, "test.histogram_drops_one"};
}

std::size_t scratch(std::int64_t count, kernels::SampleType type, int bins) {
  static const KernelDescriptor cub = kernels::cubHistogramEvenRef();
  return std::any_cast<kernels::HistogramLauncher>(cub.launcher).scratchBytes(count, type, bins);
}

}  // namespace

KernelDescriptor histogramDropsOneSample() {
  KernelDescriptor d = kernels::histogramDescriptor(
      "test.histogram_drops_one", "Drops one sample", false,
      "CUB's counts with one sample taken from the first non-empty bin", {&launch, &scratch});
  d.family = "test";
  return d;
}

}  // namespace kwb::test
