// SPDX-License-Identifier: Apache-2.0
#pragma once
// The tile of the two fast scans (reduce-then-scan, decoupled look-back): kThreads threads, each
// loading kVectors 16-byte vectors (TileShape; reduce-then-scan uses 256 x 4, a tile of 4096
// elements). Vector k of thread t holds elements 4(kThreads k + t) .. +3 of the tile, so every
// load instruction of a warp reads 512 consecutive bytes and no transpose is needed. The tile is
// scanned in registers: each vector serially (3 additions), the 32 lanes of a warp with
// shuffles, the (vector, warp) totals by one warp; what the tile adds on top (the sum of all
// earlier tiles) comes from a caller-supplied operation run by warp 0.
#include "reduce/vector_common.cuh"

namespace kwb::kernels::scan {

// kMinBlocksP: the blocks per SM asked of ptxas (__launch_bounds__), which caps the registers.
template <int kThreadsP, int kVectorsP, int kMinBlocksP = 1>
struct TileShape {
  static constexpr int kThreads = kThreadsP;
  static constexpr int kVectors = kVectorsP;
  static constexpr int kMinBlocks = kMinBlocksP;
  static constexpr int kWarps = kThreads / 32;
  static constexpr int kItems = kThreads * kVectors * 4;
  static constexpr int kTotals = kVectors * kWarps;           // one per (vector, warp)
  static constexpr int kTotalsPerLane = (kTotals + 31) / 32;  // held by each lane of warp 0
  static_assert(kThreads % 32 == 0 && kThreads <= 1024 && kVectors >= 1);
};

using DefaultShape = TileShape<256, 4>;
constexpr int kTileThreads = DefaultShape::kThreads;
constexpr int kTileItems = DefaultShape::kItems;

template <typename T, typename Shape = DefaultShape>
using Tile = vec::Vec4T<T>[Shape::kVectors];

// How a tile's full 16-byte vectors are read and written.
// - kPlain: ld / st.
// - kStreaming: ld.cs / st.cs (evict first), for a tile read once and written once, so the data
//   does not push the hot tile statuses out of L2.
// - kStoreV4: ld, and the store as __stwb (st.global.wb.v4, the default policy, the same
//   meaning as an assignment). nvcc split the first of the one-wave look-back kernel's four
//   float4 assignments into four 4-byte stores; __stwb keeps all four whole. It is an asm
//   statement with a "memory" clobber, which keeps the compiler from moving other memory
//   accesses across it; in the many-wave kernel, whose stores nvcc never split, it measured 5%
//   slower at 2^24 (kernels/PERF_NOTES.md, "Scan: the one-wave kernel's stores").
enum class Access { kPlain, kStreaming, kStoreV4 };

template <Access kAccess, typename V>
__device__ inline V loadVector(const V* p) {
  if constexpr (kAccess == Access::kStreaming) return __ldcs(p);
  return *p;
}
template <Access kAccess, typename V>
__device__ inline void storeVector(V* p, const V& v) {
  if constexpr (kAccess == Access::kStreaming)
    __stcs(p, v);
  else if constexpr (kAccess == Access::kStoreV4)
    __stwb(p, v);
  else
    *p = v;
}

// Loads tile `tile` of in[0, n): 16-byte loads for a full tile when `vectors` (in and out are
// 16-byte aligned), guarded scalar loads with zeros past the end otherwise.
template <typename Shape = DefaultShape, Access kAccess = Access::kPlain, typename T>
__device__ inline void loadTile(const T* in, std::int64_t n, std::int64_t tile, bool vectors,
                                Tile<T, Shape>& v) {
  const std::int64_t base = tile * Shape::kItems;
  const bool full = vectors && base + Shape::kItems <= n;
#pragma unroll
  for (int k = 0; k < Shape::kVectors; ++k) {
    const std::int64_t e = base + std::int64_t(k * Shape::kThreads + int(threadIdx.x)) * 4;
    if (full) {
      v[k] = loadVector<kAccess>(reinterpret_cast<const vec::Vec4T<T>*>(in + e));
    } else {
      v[k].x = e < n ? in[e] : T(0);
      v[k].y = e + 1 < n ? in[e + 1] : T(0);
      v[k].z = e + 2 < n ? in[e + 2] : T(0);
      v[k].w = e + 3 < n ? in[e + 3] : T(0);
    }
  }
}

template <typename Shape = DefaultShape, Access kAccess = Access::kPlain, typename T>
__device__ inline void storeTile(T* out, std::int64_t n, std::int64_t tile, bool vectors,
                                 const Tile<T, Shape>& v) {
  const std::int64_t base = tile * Shape::kItems;
  const bool full = vectors && base + Shape::kItems <= n;
#pragma unroll
  for (int k = 0; k < Shape::kVectors; ++k) {
    const std::int64_t e = base + std::int64_t(k * Shape::kThreads + int(threadIdx.x)) * 4;
    if (full) {
      storeVector<kAccess>(reinterpret_cast<vec::Vec4T<T>*>(out + e), v[k]);
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
  for (int k = 0; k < DefaultShape::kVectors; ++k) s = vec::add(s, vec::sum4<T>(v[k]));
  return vec::blockSum<T, kTileThreads>(s);
}

template <typename T>
__device__ inline void addTo(vec::Vec4T<T>& v, T offset) {
  v.x = vec::add(offset, v.x);
  v.y = vec::add(offset, v.y);
  v.z = vec::add(offset, v.z);
  v.w = vec::add(offset, v.w);
}

// Run by warp 0: replaces totals[0, kTotals) by their exclusive prefix sums (lane l scans its
// run of kTotalsPerLane serially, the lanes' run totals are scanned with shuffles) and returns
// the sum of them all in every lane.
template <typename T, typename Shape>
__device__ inline T scanTotals(T* totals) {
  constexpr int kPer = Shape::kTotalsPerLane;
  const int lane = int(threadIdx.x % 32);
  T run[kPer];
  T sum = T(0);
#pragma unroll
  for (int i = 0; i < kPer; ++i) {
    const int at = lane * kPer + i;
    run[i] = sum;  // exclusive within the lane's run
    sum = vec::add(sum, at < Shape::kTotals ? totals[at] : T(0));
  }
  const T inclusive = vec::warpInclusiveScan(sum);
  const T before = __shfl_up_sync(0xffffffffu, inclusive, 1);
  const T base = lane == 0 ? T(0) : before;
#pragma unroll
  for (int i = 0; i < kPer; ++i)
    if (lane * kPer + i < Shape::kTotals) totals[lane * kPer + i] = vec::add(base, run[i]);
  return __shfl_sync(0xffffffffu, inclusive, 31);
}

// Scans the tile in place to its inclusive prefix sums plus `prefixOp(aggregate)`: warp 0
// calls prefixOp with the tile's total (every lane, converged) and lane 0's return value, the
// sum of everything before the tile, is added to every element. Two barriers; a block that
// scans several tiles needs a __syncthreads between the calls (the shared totals are reused).
template <typename T, typename Shape = DefaultShape, typename PrefixOp>
__device__ inline void scanTile(Tile<T, Shape>& v, PrefixOp&& prefixOp) {
  __shared__ T totals[Shape::kTotalsPerLane * 32];  // (vector, warp) totals, then prefixes
  __shared__ T tilePrefix;
  const int lane = int(threadIdx.x % 32), warp = int(threadIdx.x / 32);
#pragma unroll
  for (int k = 0; k < Shape::kVectors; ++k) {
    v[k].y = vec::add(v[k].x, v[k].y);  // serial within the vector
    v[k].z = vec::add(v[k].y, v[k].z);
    v[k].w = vec::add(v[k].z, v[k].w);
    const T inclusive = vec::warpInclusiveScan(v[k].w);
    const T before = __shfl_up_sync(0xffffffffu, inclusive, 1);
    if (lane == 31) totals[k * Shape::kWarps + warp] = inclusive;
    // The warp's part now, not after the barriers: nothing per vector stays live across them
    // but the four values (registers are what limits the blocks per SM).
    if (lane > 0) addTo(v[k], before);
  }
  __syncthreads();
  if (warp == 0) {
    const T aggregate = scanTotals<T, Shape>(totals);
    const T prefix = prefixOp(aggregate);
    if (lane == 0) tilePrefix = prefix;
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < Shape::kVectors; ++k)
    addTo(v[k], vec::add(tilePrefix, totals[k * Shape::kWarps + warp]));
}

template <typename Shape = DefaultShape>
__host__ __device__ inline std::int64_t tilesFor(std::int64_t n) {
  return (n + Shape::kItems - 1) / Shape::kItems;
}

}  // namespace kwb::kernels::scan
