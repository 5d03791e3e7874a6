// SPDX-License-Identifier: Apache-2.0
// Stage 1: every element goes straight to one global atomicAdd on the result. Correct and
// simple, and as slow as a reduction can be: all the atomics hit one address, so the L2 slice
// that owns it serialises them; the GPU does one addition at a time, not one per thread.
#include "reduce/reduce_descriptors.h"
#include "reduce/vector_common.cuh"

namespace kwb::kernels {
namespace {

template <typename T>
__global__ void reduceAtomicKernel(const T* __restrict__ in, T* out, std::int64_t n) {
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    atomicAdd(out, in[i]);  // int: wrapping addition; float: the order is whatever ran first
}

constexpr int kThreads = 256;

LaunchInfo launch(const VectorArgs& a) {
  vec::dispatch(a.type, [&](auto zero) {
    using T = decltype(zero);
    // The atomics accumulate into out, so it starts at zero (this also is the sum of 0 items).
    KWB_CUDA_CHECK(cudaMemsetAsync(a.out, 0, sizeof(T), a.stream));
    if (a.count == 0) return;
    reduceAtomicKernel<T><<<vec::gridFor(a.count, kThreads, 32), kThreads, 0, a.stream>>>(
        static_cast<const T*>(a.in), static_cast<T*>(a.out), a.count);
    KWB_CHECK_LAUNCH();
  });
  return {false, "reduce.atomic"};
}

}  // namespace

KernelDescriptor reduceAtomic() {
  return vectorDescriptor("reduce.atomic", "Global atomics", "reduce", false,
                          "One atomicAdd on the result per element", &launch);
}

}  // namespace kwb::kernels
