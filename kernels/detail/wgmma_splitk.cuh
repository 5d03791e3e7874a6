// SPDX-License-Identifier: Apache-2.0
#pragma once
// sgemm.wgmma's split-K (sm_90a): CTAs that share a tile's K each write their FP32 partial tile
// to a workspace, and the last to arrive sums them and runs the epilogue, in the same launch.
// Included by sgemm_wgmma.cu; the choice of splits is sgemm_wgmma_choice.h.
//
// Granularity: a consumer warp (16 rows × BN columns of the tile). Each warp slot of a tile has an
// arrival counter; a warp writes its partial (float4 per lane, a warp's 512 bytes contiguous, to
// L2: st.global.cg), fences, and lane 0 counts itself in. The warp that brings the count to
// `splits` sums the splits' partials for its rows in split order 0, 1, …, splits−1 (its own from
// registers: the same bits it wrote), so the result does not depend on which split finished last,
// and resets the counter to 0 for the next launch. No CTA ever waits for another, so a grid
// larger than the GPU cannot deadlock. Warps rather than warpgroups: no barrier between the four
// warps of a consumer, whose counters may be won by different CTAs.
//
// The fence / atomic / fence sequence is the CUDA programming guide's "last block" pattern
// (threadFenceReduction): each writer's __threadfence orders its partial before the count;
// the last warp's fence orders the count before its reads, which go to L2 (ld.global.cg) so no
// stale L1 line is read.
#include <cstdint>

#include "detail/wgmma_ptx.cuh"  // defines KWB_WGMMA_TARGET

namespace kwb::kernels::wgmma {

// A launch's split-K parameters; splits == 1: whole K per tile, no workspace.
struct SplitK {
  float* partial = nullptr;  // [tile][split][warp slot][BN/8 float4 of 32 lanes]
  int* counters = nullptr;   // [tile][warp slot], 0 between launches
  int splits = 1;
  int kBlocksPerSplit = 0;  // 64-wide k blocks of each split's range; the last may hold fewer
};

inline constexpr int kSplitWarpSlots = 8;  // 2 consumer warpgroups × 4 warps

#if KWB_WGMMA_TARGET
// Whether this warp holds the tile's full sum in d after the call (it arrived last): then the
// caller stores it with alpha and beta; otherwise its partial is parked and it moves on. `tile`
// numbers the tile's slot uniquely within the launch (its workspace holds `stride` partials a
// slot); `split` of `splits` is this range's index and the tile's count of ranges; `warpSlot` =
// 4·consumer + warp of the warpgroup.
template <int BN>
__device__ __forceinline__ bool reduceSegments(float (&d)[BN / 2], const SplitK& sk, int stride,
                                               int tile, int split, int splits, int warpSlot) {
  constexpr int kVec = BN / 8;  // float4s per lane
  const int lane = int(threadIdx.x) % 32;
  auto slice = [&](int z) {
    const std::int64_t block = (std::int64_t(tile) * stride + z) * kSplitWarpSlots + warpSlot;
    return reinterpret_cast<float4*>(sk.partial) + block * (32 * kVec) + lane;
  };
  float4* mine = slice(split);
#pragma unroll
  for (int i = 0; i < kVec; ++i)
    __stcg(mine + 32 * i, make_float4(d[4 * i], d[4 * i + 1], d[4 * i + 2], d[4 * i + 3]));
  __threadfence();
  __syncwarp();
  int* counter = sk.counters + std::int64_t(tile) * kSplitWarpSlots + warpSlot;
  int before = 0;
  if (lane == 0) before = atomicAdd(counter, 1);
  before = __shfl_sync(0xffffffffu, before, 0);
  if (before != splits - 1) return false;
  __threadfence();
#pragma unroll
  for (int i = 0; i < kVec; ++i) {
    const float4 own = make_float4(d[4 * i], d[4 * i + 1], d[4 * i + 2], d[4 * i + 3]);
    float4 sum = split == 0 ? own : __ldcg(slice(0) + 32 * i);
    for (int z = 1; z < splits; ++z) {
      const float4 v = z == split ? own : __ldcg(slice(z) + 32 * i);
      sum.x += v.x;
      sum.y += v.y;
      sum.z += v.z;
      sum.w += v.w;
    }
    d[4 * i] = sum.x;
    d[4 * i + 1] = sum.y;
    d[4 * i + 2] = sum.z;
    d[4 * i + 3] = sum.w;
  }
  if (lane == 0) *counter = 0;  // every split has arrived: none reads it again in this launch
  return true;
}

// Split-K's equal ranges: `splits` a tile, the workspace's stride.
template <int BN>
__device__ __forceinline__ bool reduceSplits(float (&d)[BN / 2], const SplitK& sk, int tile,
                                             int split, int warpSlot) {
  return reduceSegments<BN>(d, sk, sk.splits, tile, split, sk.splits, warpSlot);
}
#endif

}  // namespace kwb::kernels::wgmma
