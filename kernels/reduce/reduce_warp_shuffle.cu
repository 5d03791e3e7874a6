// SPDX-License-Identifier: Apache-2.0
// Stage 3: two changes on the shared-memory tree. (1) Fewer, busier threads: a grid of a few
// blocks per multiprocessor loops over the input, so each thread adds many elements in a
// register before any cooperation, and there are a few thousand atomics in all instead of n/256.
// (2) The tree inside a warp uses __shfl_down_sync: registers exchanged directly, no shared
// memory round trip and no __syncthreads; shared memory holds only one value per warp.
#include "reduce/reduce_descriptors.h"
#include "reduce/vector_common.cuh"

namespace kwb::kernels {
namespace {

constexpr int kThreads = 256;

template <typename T>
__global__ void __launch_bounds__(kThreads)
    reduceWarpShuffleKernel(const T* __restrict__ in, T* out, std::int64_t n) {
  T v = T(0);
  const std::int64_t stride = std::int64_t(gridDim.x) * kThreads;
  for (std::int64_t i = std::int64_t(blockIdx.x) * kThreads + threadIdx.x; i < n; i += stride)
    v = vec::add(v, in[i]);  // coalesced: a warp reads 128 consecutive bytes per step
  // Shuffles within each warp, one shared word per warp, one barrier (vec::blockSum).
  v = vec::blockSum<T, kThreads>(v);
  if (threadIdx.x == 0) atomicAdd(out, v);
}

LaunchInfo launch(const VectorArgs& a) {
  vec::dispatch(a.type, [&](auto zero) {
    using T = decltype(zero);
    KWB_CUDA_CHECK(cudaMemsetAsync(a.out, 0, sizeof(T), a.stream));
    if (a.count == 0) return;
    reduceWarpShuffleKernel<T><<<vec::gridFor(a.count, kThreads, 8), kThreads, 0, a.stream>>>(
        static_cast<const T*>(a.in), static_cast<T*>(a.out), a.count);
    KWB_CHECK_LAUNCH();
  });
  return {false, "reduce.warp_shuffle"};
}

}  // namespace

KernelDescriptor reduceWarpShuffle() {
  return vectorDescriptor("reduce.warp_shuffle", "Warp shuffle", "reduce", false,
                          "Grid-stride accumulation, warp shuffles, one atomic per block", &launch);
}

}  // namespace kwb::kernels
