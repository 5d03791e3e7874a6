// SPDX-License-Identifier: Apache-2.0
// Stage 2: each block sums its own 256 elements in shared memory, halving the active threads at
// every level (a tree of 8 levels), and only thread 0 touches the result: one atomic per 256
// elements instead of one per element. Each level costs a __syncthreads, and in the last five
// levels most of the block idles while one warp works.
#include "reduce/reduce_descriptors.h"
#include "reduce/vector_common.cuh"

namespace kwb::kernels {
namespace {

constexpr int kThreads = 256;

template <typename T>
__global__ void __launch_bounds__(kThreads)
    reduceSharedTreeKernel(const T* __restrict__ in, T* out, std::int64_t n) {
  __shared__ T partial[kThreads];
  // A grid-stride loop only for the largest counts (the grid is capped): normally each thread
  // loads one element.
  T v = T(0);
  const std::int64_t stride = std::int64_t(gridDim.x) * kThreads;
  for (std::int64_t i = std::int64_t(blockIdx.x) * kThreads + threadIdx.x; i < n; i += stride)
    v = vec::add(v, in[i]);
  partial[threadIdx.x] = v;
  __syncthreads();
  // Sequential addressing: the active threads are contiguous (whole warps retire together) and
  // read consecutive words (no bank conflicts).
  for (int half = kThreads / 2; half > 0; half >>= 1) {
    if (int(threadIdx.x) < half)
      partial[threadIdx.x] = vec::add(partial[threadIdx.x], partial[threadIdx.x + half]);
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, partial[0]);
}

LaunchInfo launch(const VectorArgs& a) {
  vec::dispatch(a.type, [&](auto zero) {
    using T = decltype(zero);
    KWB_CUDA_CHECK(cudaMemsetAsync(a.out, 0, sizeof(T), a.stream));
    if (a.count == 0) return;
    reduceSharedTreeKernel<T><<<vec::gridFor(a.count, kThreads, 1 << 14), kThreads, 0, a.stream>>>(
        static_cast<const T*>(a.in), static_cast<T*>(a.out), a.count);
    KWB_CHECK_LAUNCH();
  });
  return {false, "reduce.shared_tree"};
}

}  // namespace

KernelDescriptor reduceSharedTree() {
  return vectorDescriptor("reduce.shared_tree", "Shared-memory tree", "reduce", false,
                          "Per-block tree in shared memory, one atomic per block", &launch);
}

}  // namespace kwb::kernels
