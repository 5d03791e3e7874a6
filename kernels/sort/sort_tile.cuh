// SPDX-License-Identifier: Apache-2.0
#pragma once
// One tile of an LSD radix pass, shared by the reduce-then-scan and one-sweep stages: keys loaded
// warp-striped (the arrangement CUB's match-based block ranks are stable in), and the scatter of
// a ranked tile: keys (then values) placed in shared memory by rank, so that threads write
// consecutive positions of each digit's run, then written to out[offset[digit] + rank].
#include <cub/block/block_load.cuh>

#include "sort/sort_common.cuh"

namespace kwb::kernels::sort {

// The tile's `valid` elements from in + start, warp-striped (warp w holds the w-th 32·kItems
// run; item u of lane l is element u·32 + l of it); the rest padded with `pad`.
template <int kThreads, int kItems>
__device__ __forceinline__ void loadWarpStriped(const std::uint32_t* in, std::int64_t start,
                                                int valid, std::uint32_t pad,
                                                std::uint32_t (&items)[kItems]) {
  if (valid == kThreads * kItems)
    cub::LoadDirectWarpStriped(int(threadIdx.x), in + start, items);
  else
    cub::LoadDirectWarpStriped(int(threadIdx.x), in + start, items, valid, pad);
}

// Shared memory of a tile's scatter.
template <int kTile>
struct ScatterStorage {
  std::uint32_t staged[kTile];
};

// Writes a ranked tile: rank r of digit d goes to out[offset[d] + r], where `offset` (shared,
// one per digit) is the digit's output position minus the tile's count of smaller digits.
// Elements at ranks >= valid (the padding) are not written. Values (kPairs) travel with their
// keys: they are loaded here, in the keys' arrangement. Ends with the staging buffer free.
template <bool kFloat, bool kPairs, int kThreads, int kItems>
__device__ __forceinline__ void scatterTile(const std::uint32_t (&keys)[kItems],
                                            const int (&ranks)[kItems],
                                            ScatterStorage<kThreads * kItems>& s,
                                            const std::uint32_t* offset, DigitOf<kFloat> digitOf,
                                            int valid, std::int64_t start,
                                            const std::uint32_t* valuesIn, std::uint32_t* keysOut,
                                            std::uint32_t* valuesOut) {
#pragma unroll
  for (int u = 0; u < kItems; ++u) s.staged[ranks[u]] = keys[u];
  __syncthreads();
  std::uint32_t digits[kItems];
#pragma unroll
  for (int u = 0; u < kItems; ++u) {
    const int r = int(threadIdx.x) + u * kThreads;
    const std::uint32_t key = s.staged[r];
    digits[u] = digitOf.Digit(key);
    if (r < valid) keysOut[offset[digits[u]] + std::uint32_t(r)] = key;
  }
  if constexpr (kPairs) {
    std::uint32_t values[kItems];
    loadWarpStriped<kThreads, kItems>(valuesIn, start, valid, 0u, values);
    __syncthreads();  // every key read from the staging buffer
#pragma unroll
    for (int u = 0; u < kItems; ++u) s.staged[ranks[u]] = values[u];
    __syncthreads();
#pragma unroll
    for (int u = 0; u < kItems; ++u) {
      const int r = int(threadIdx.x) + u * kThreads;
      if (r < valid) valuesOut[offset[digits[u]] + std::uint32_t(r)] = s.staged[r];
    }
  }
  __syncthreads();  // the staging buffer may be reused
}

}  // namespace kwb::kernels::sort
