// SPDX-License-Identifier: Apache-2.0
// Stage 1: one atomicAdd on the global histogram per sample. The simplest correct histogram:
// every thread of a grid-stride loop reads a sample, computes its bin and adds 1 in device
// memory, where the L2's atomic units serialise every update of one address. It teaches what
// contention costs: with uniform samples over 256 bins the updates spread over 256 addresses
// and the L2 keeps up; with every sample in one bin, each of the N updates waits for the one
// before it on the same address, and the kernel runs at the L2's per-address atomic rate, far
// below what the memory could stream.
#include "histogram/histogram_common.cuh"
#include "histogram/histogram_descriptors.h"

namespace kwb::kernels {
namespace {

constexpr int kThreads = 256;

template <typename T>
__global__ void __launch_bounds__(kThreads)
    globalAtomicsKernel(const T* __restrict__ samples, std::int64_t n, unsigned* hist, int bins) {
  const std::int64_t stride = std::int64_t(gridDim.x) * kThreads;
  for (std::int64_t i = std::int64_t(blockIdx.x) * kThreads + threadIdx.x; i < n; i += stride) {
    const int bin = hist::binOf(samples[i], bins);
    if (bin >= 0) atomicAdd(hist + bin, 1u);
  }
}

LaunchInfo launch(const HistogramArgs& a) {
  hist::clearHistogram(a);
  if (a.count == 0) return {false, "histogram.global_atomics"};
  hist::dispatch(a.type, [&](auto zero) {
    using T = decltype(zero);
    const unsigned blocks = hist::gridFor(a.count, kThreads * 8, 8 * 16);
    globalAtomicsKernel<T><<<blocks, kThreads, 0, a.stream>>>(static_cast<const T*>(a.samples),
                                                              a.count, a.histogram, a.bins);
    KWB_CHECK_LAUNCH();
  });
  return {false, "histogram.global_atomics"};
}

}  // namespace

KernelDescriptor histogramGlobalAtomics() {
  return histogramDescriptor(
      "histogram.global_atomics", "Global atomics", false,
      "one global atomicAdd per sample: contention on a bin serialises in the L2", {&launch});
}

}  // namespace kwb::kernels
