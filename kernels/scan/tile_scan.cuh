// SPDX-License-Identifier: Apache-2.0
#pragma once
// The tile of the two fast scans (reduce-then-scan, decoupled look-back): 256 threads, each
// loading four 16-byte vectors, a tile of 4096 elements. Vector k of thread t holds elements
// 4(256k + t) .. +3 of the tile, so every load instruction of a warp reads 512 consecutive
// bytes. The tile is scanned in registers: each vector serially (3 additions), the 32 lanes of
// a warp with shuffles, the 32 (vector, warp) totals by one warp; what the tile adds on top
// (the sum of all earlier tiles) comes from a caller-supplied operation run by warp 0.
#include "reduce/vector_common.cuh"

namespace kwb::kernels::scan {

constexpr int kTileThreads = 256;
constexpr int kTileVectors = 4;
constexpr int kTileWarps = kTileThreads / 32;
constexpr int kTileItems = kTileThreads * kTileVectors * 4;
static_assert(kTileVectors * kTileWarps == 32, "one warp scans the (vector, warp) totals");

template <typename T>
using Tile = vec::Vec4T<T>[kTileVectors];

// Loads tile `tile` of in[0, n): 16-byte loads for a full tile when `vectors` (in and out are
// 16-byte aligned), guarded scalar loads with zeros past the end otherwise.
template <typename T>
__device__ inline void loadTile(const T* in, std::int64_t n, std::int64_t tile, bool vectors,
                                Tile<T>& v) {
  const std::int64_t base = tile * kTileItems;
  const bool full = vectors && base + kTileItems <= n;
#pragma unroll
  for (int k = 0; k < kTileVectors; ++k) {
    const std::int64_t e = base + std::int64_t(k * kTileThreads + int(threadIdx.x)) * 4;
    if (full) {
      v[k] = *reinterpret_cast<const vec::Vec4T<T>*>(in + e);
    } else {
      v[k].x = e < n ? in[e] : T(0);
      v[k].y = e + 1 < n ? in[e + 1] : T(0);
      v[k].z = e + 2 < n ? in[e + 2] : T(0);
      v[k].w = e + 3 < n ? in[e + 3] : T(0);
    }
  }
}

template <typename T>
__device__ inline void storeTile(T* out, std::int64_t n, std::int64_t tile, bool vectors,
                                 const Tile<T>& v) {
  const std::int64_t base = tile * kTileItems;
  const bool full = vectors && base + kTileItems <= n;
#pragma unroll
  for (int k = 0; k < kTileVectors; ++k) {
    const std::int64_t e = base + std::int64_t(k * kTileThreads + int(threadIdx.x)) * 4;
    if (full) {
      *reinterpret_cast<vec::Vec4T<T>*>(out + e) = v[k];
    } else {
      if (e < n) out[e] = v[k].x;
      if (e + 1 < n) out[e + 1] = v[k].y;
      if (e + 2 < n) out[e + 2] = v[k].z;
      if (e + 3 < n) out[e + 3] = v[k].w;
    }
  }
}

// The tile's sum, in thread 0 (vec::blockSum).
template <typename T>
__device__ inline T tileSum(const Tile<T>& v) {
  T s = T(0);
#pragma unroll
  for (int k = 0; k < kTileVectors; ++k) s = vec::add(s, vec::sum4<T>(v[k]));
  return vec::blockSum<T, kTileThreads>(s);
}

// Scans the tile in place to its inclusive prefix sums plus `prefixOp(aggregate)`: warp 0
// calls prefixOp with the tile's total (every lane, converged) and lane 0's return value, the
// sum of everything before the tile, is added to every element. Two barriers; a block that
// scans several tiles needs a __syncthreads between the calls (the shared totals are reused).
template <typename T, typename PrefixOp>
__device__ inline void scanTile(Tile<T>& v, PrefixOp&& prefixOp) {
  __shared__ T totals[32];  // (vector, warp) totals, then their exclusive prefixes
  __shared__ T tilePrefix;
  const int lane = int(threadIdx.x % 32), warp = int(threadIdx.x / 32);
  T laneExclusive[kTileVectors];
#pragma unroll
  for (int k = 0; k < kTileVectors; ++k) {
    v[k].y = vec::add(v[k].x, v[k].y);  // serial within the vector
    v[k].z = vec::add(v[k].y, v[k].z);
    v[k].w = vec::add(v[k].z, v[k].w);
    const T inclusive = vec::warpInclusiveScan(v[k].w);
    const T before = __shfl_up_sync(0xffffffffu, inclusive, 1);
    laneExclusive[k] = lane == 0 ? T(0) : before;
    if (lane == 31) totals[k * kTileWarps + warp] = inclusive;
  }
  __syncthreads();
  if (warp == 0) {
    const T x = totals[lane];
    const T inclusive = vec::warpInclusiveScan(x);
    const T before = __shfl_up_sync(0xffffffffu, inclusive, 1);
    totals[lane] = lane == 0 ? T(0) : before;
    const T aggregate = __shfl_sync(0xffffffffu, inclusive, 31);
    const T prefix = prefixOp(aggregate);
    if (lane == 0) tilePrefix = prefix;
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < kTileVectors; ++k) {
    const T offset =
        vec::add(vec::add(tilePrefix, totals[k * kTileWarps + warp]), laneExclusive[k]);
    v[k].x = vec::add(offset, v[k].x);
    v[k].y = vec::add(offset, v[k].y);
    v[k].z = vec::add(offset, v[k].z);
    v[k].w = vec::add(offset, v[k].w);
  }
}

__host__ __device__ inline std::int64_t tilesFor(std::int64_t n) {
  return (n + kTileItems - 1) / kTileItems;
}

}  // namespace kwb::kernels::scan
