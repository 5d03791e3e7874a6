// SPDX-License-Identifier: Apache-2.0
// Stage 1: Hillis-Steele per block. One element per thread in shared memory; at step d every
// thread adds the value 2^d places to its left, so after log2(512) = 9 steps each holds the sum
// of everything before it in the block. Simple and fully parallel, but not work-efficient:
// n log n additions instead of n, every step a full read-modify-write of shared memory and a
// __syncthreads. Tiles larger than a block are joined by the recursive block-sums pass
// (block_sums.cuh): the input is read twice and the output written twice.
#include "scan/block_sums.cuh"
#include "scan/scan_descriptors.h"

namespace kwb::kernels {
namespace {

constexpr int kThreads = 512;  // = the tile

template <typename T>
__global__ void __launch_bounds__(kThreads)
    hillisSteeleKernel(const T* in, T* out, std::int64_t n, T* sums) {
  // Two buffers: step d reads one and writes the other, so no thread overwrites a value that
  // another thread of the same step still has to read.
  __shared__ T buf[2][kThreads];
  const int t = int(threadIdx.x);
  const std::int64_t i = std::int64_t(blockIdx.x) * kThreads + t;
  buf[0][t] = i < n ? in[i] : T(0);
  __syncthreads();
  int p = 0;
  for (int offset = 1; offset < kThreads; offset <<= 1) {
    const T x = buf[p][t];
    buf[p ^ 1][t] = t >= offset ? vec::add(buf[p][t - offset], x) : x;
    p ^= 1;
    __syncthreads();
  }
  if (i < n) out[i] = buf[p][t];
  if (sums && t == kThreads - 1) sums[blockIdx.x] = buf[p][t];
}

std::size_t scratch(std::int64_t count, ElementType) {
  return scan::blockSumsBytes(count, kThreads);
}

LaunchInfo launch(const VectorArgs& a) {
  if (a.count == 0) return {false, "scan.hillis_steele"};
  vec::dispatch(a.type, [&](auto zero) {
    using T = decltype(zero);
    scan::scanWithBlockSums<T, kThreads>(
        static_cast<const T*>(a.in), static_cast<T*>(a.out), a.count, static_cast<char*>(a.scratch),
        a.stream, [&](const T* in, T* out, std::int64_t n, T* sums, std::int64_t blocks) {
          hillisSteeleKernel<T><<<unsigned(blocks), kThreads, 0, a.stream>>>(in, out, n, sums);
          KWB_CHECK_LAUNCH();
        });
  });
  return {false, "scan.hillis_steele"};
}

}  // namespace

KernelDescriptor scanHillisSteele() {
  return vectorDescriptor("scan.hillis_steele", "Hillis-Steele", "scan", false,
                          "Per-block Hillis-Steele in shared memory, recursive block sums", &launch,
                          &scratch);
}

}  // namespace kwb::kernels
