// SPDX-License-Identifier: Apache-2.0
// Stage 4: the same shape as the warp-shuffle stage, but every load moves 16 bytes (float4 /
// int4) and each thread issues four of them before adding any. A reduction is bound by how
// many bytes are in flight to DRAM: with one 4-byte load per thread per trip, the
// multiprocessor runs out of warps before it saturates the memory system; four independent
// 16-byte loads per thread put 16 times as many bytes in flight with the same warps, and a
// quarter as many load instructions are issued. The grid is up to 16 waves of blocks (8 of 256
// threads resident per multiprocessor). Measured on an H100 at 2^28 floats, the kernel alone
// (output cleared beforehand) took 347–348 µs as one wave, 345.1 as 4 waves, 342.8 as 8 and
// 341.2 as 16; cub::DeviceReduce::Sum 345.0. With many short blocks, new blocks' loads overlap
// the block sum and atomic at the end of finished ones, where a single wave drains the memory
// pipeline at once at the end. A scalar head and tail handle a start that is not 16-byte
// aligned and a count that is not a multiple of 4.
//
// The sum needs no clearing before the launch (a cudaMemsetAsync of the output cost about
// 1.6 µs, and kept the next launch from starting early): each block adds its total into an
// accumulator that the launcher keeps on the device (zero when made), and a one-thread kernel
// after the grid moves the accumulator to the output and zeroes it for the next launch. Both
// kernels are programmatic dependents of the kernel before them (detail/grid_dependency.cuh):
// the next grid's blocks become resident while this one's last wave drains, and wait for it to
// end before their first load. A ticket taken by every block instead (the last block writes the
// sum) needs a fence and a returned atomic per block, which held each block's slot for two L2
// round trips: measured on an H200 it was 5% slower at 2^28 floats.
#include <stdexcept>

#include "detail/grid_dependency.cuh"
#include "detail/workspace.h"
#include "reduce/reduce_descriptors.h"
#include "reduce/vector_common.cuh"

namespace kwb::kernels {
namespace {

constexpr int kThreads = 256;
constexpr int kUnroll = 4;
constexpr int kWaves = 16;
// Both kernels launch as dependents; measurement builds turn that off with KWB_REDUCE_PDL=0.
constexpr const char* kPdlSwitch = "KWB_REDUCE_PDL";

template <typename T>
__global__ void __launch_bounds__(kThreads)
    reduceVectorizedKernel(const T* __restrict__ in, std::int64_t n, std::int64_t head, T* total) {
  detail::launchDependents();
  detail::waitForPriorGrids();  // the input and the accumulator may be the previous grid's
  const T v = vec::blockSum<T, kThreads>(vec::threadSumVectorized<T, kUnroll>(in, n, head));
  if (threadIdx.x == 0) atomicAdd(total, v);
}

// One thread, after the grid: the sum to the output, and the accumulator back to zero.
template <typename T>
__global__ void __launch_bounds__(32) finishKernel(T* total, T* out) {
  detail::launchDependents();
  detail::waitForPriorGrids();  // every block's addition has landed
  if (threadIdx.x != 0) return;
  *out = *total;
  *total = T(0);
}

// The accumulator of every launch on a device, zero when made (detail/workspace.h).
detail::WorkspaceCache& accumulators() {
  static detail::WorkspaceCache cache;
  return cache;
}

LaunchInfo launch(const VectorArgs& a) {
  vec::dispatch(a.type, [&](auto zero) {
    using T = decltype(zero);
    const detail::WorkspaceCache::Lease acc = accumulators().acquire(sizeof(T), a.stream);
    if (acc.data() == nullptr) throw std::runtime_error("reduce.vectorized: no device workspace");
    auto* total = static_cast<T*>(acc.data());
    const unsigned blocks = vec::gridFor(a.count, kThreads * 4 * kUnroll, kWaves * 2048 / kThreads);
    cudaLaunchAttribute attr{};
    cudaLaunchConfig_t cfg = detail::launchConfig(blocks, kThreads, a.stream, attr, kPdlSwitch);
    KWB_CUDA_CHECK(cudaLaunchKernelEx(&cfg, reduceVectorizedKernel<T>, static_cast<const T*>(a.in),
                                      a.count, vec::headElements(a.in, a.count), total));
    cfg = detail::launchConfig(1, 32, a.stream, attr, kPdlSwitch);
    KWB_CUDA_CHECK(cudaLaunchKernelEx(&cfg, finishKernel<T>, total, static_cast<T*>(a.out)));
  });
  return {false, "reduce.vectorized"};
}

}  // namespace

KernelDescriptor reduceVectorized() {
  return vectorDescriptor("reduce.vectorized", "Vectorised loads", "reduce", false,
                          "16-byte grid-stride loads, up to 16 waves of blocks, one atomic per "
                          "block; a one-thread kernel writes the sum (no memset)",
                          &launch);
}

}  // namespace kwb::kernels
