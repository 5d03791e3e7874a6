// SPDX-License-Identifier: Apache-2.0
// Stage 2: each block keeps a private copy of the histogram in shared memory, adds every
// sample there with a shared-memory atomic, and adds its copy into the global histogram once
// at the end (one global atomic per non-empty bin per block). Shared atomics are handled in the
// multiprocessor, not the L2, so the N device-memory updates of stage 1 become N cheap local
// ones plus bins × blocks global ones; contention is now only between the warps of one block.
// The blocks are a bounded grid (4 per multiprocessor) that loops over the samples, so the
// global merge costs bins × 4 × SMs atomics whatever N is. Samples are still loaded one at a
// time: a u8 load moves one byte per thread, far from a 16-byte transaction per thread.
#include "histogram/histogram_common.cuh"
#include "histogram/histogram_descriptors.h"

namespace kwb::kernels {
namespace {

constexpr int kThreads = 256;
constexpr int kBlocksPerSm = 4;

template <typename T>
__global__ void __launch_bounds__(kThreads)
    sharedAtomicsKernel(const T* __restrict__ samples, std::int64_t n, unsigned* hist, int bins) {
  extern __shared__ unsigned blockHist[];
  for (int b = int(threadIdx.x); b < bins; b += kThreads) blockHist[b] = 0;
  __syncthreads();
  const std::int64_t stride = std::int64_t(gridDim.x) * kThreads;
  for (std::int64_t i = std::int64_t(blockIdx.x) * kThreads + threadIdx.x; i < n; i += stride) {
    const int bin = hist::binOf(samples[i], bins);
    if (bin >= 0) atomicAdd(blockHist + bin, 1u);
  }
  __syncthreads();
  for (int b = int(threadIdx.x); b < bins; b += kThreads)
    if (blockHist[b] != 0) atomicAdd(hist + b, blockHist[b]);
}

LaunchInfo launch(const HistogramArgs& a) {
  hist::clearHistogram(a);
  if (a.count == 0) return {false, "histogram.shared_atomics"};
  hist::dispatch(a.type, [&](auto zero) {
    using T = decltype(zero);
    const unsigned blocks = hist::gridFor(a.count, kThreads * 16, kBlocksPerSm);
    const std::size_t smem = std::size_t(a.bins) * sizeof(unsigned);  // 16 KiB at 4096 bins
    sharedAtomicsKernel<T><<<blocks, kThreads, smem, a.stream>>>(static_cast<const T*>(a.samples),
                                                                 a.count, a.histogram, a.bins);
    KWB_CHECK_LAUNCH();
  });
  return {false, "histogram.shared_atomics"};
}

}  // namespace

KernelDescriptor histogramSharedAtomics() {
  return histogramDescriptor(
      "histogram.shared_atomics", "Shared-memory atomics", false,
      "a private histogram per block in shared memory, merged with one global atomic per bin",
      {&launch});
}

}  // namespace kwb::kernels
