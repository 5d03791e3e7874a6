// SPDX-License-Identifier: Apache-2.0
#pragma once
// sgemm.wgmma's TMA ring (sm_90a): the block tile's constants, the shared-memory layout of the
// stages, and the two halves of the main loop, so that every kernel instance of the stage
// (sgemm_wgmma.cu's persistent kernel, sgemm_wgmma_cluster_split.cu's cluster split-K) walks
// its k blocks with the same code: the producer thread's TMA copies into a ring of stages, each
// stage guarded by a "full" mbarrier (completed by transaction bytes) and an "empty" one (one
// arrival per consumer warp that read it), and the consumer warpgroups' wgmmas on each stage.
// See sgemm_wgmma.cu for the layouts and descriptors.
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "detail/half_restride.h"
#include "detail/multiprocessors.h"
#include "detail/tensor_map.h"
#include "detail/wgmma_ptx.cuh"  // defines KWB_WGMMA_TARGET
#include "kwb/shape.h"

namespace kwb::kernels::wgmma {

inline constexpr int kBK = 64;
inline constexpr int kSlabN = 64;  // n per 128-byte swizzled row of B
static_assert(kBK % 16 == 0);

// How B lies in a stage: slabs of `slabN` columns × 64 k rows, each k row one swizzled row of
// slabN · 2 bytes, slab j at j · slabBytes. 128-byte rows (64 n) for every tile but 64x96, whose
// 96 columns are three 32-n slabs in 64-byte rows: TMA then loads exactly its columns, where 64-n
// slabs would load 128.
struct BLayout {
  int slabN, swizzleBytes;
  __host__ __device__ constexpr int slabBytes() const { return kBK * slabN * 2; }
  // 16 k rows, one wgmma k step; 8 k rows, the descriptor's SBO.
  __host__ __device__ constexpr int kStepBytes() const { return 16 * swizzleBytes; }
  __host__ __device__ constexpr int groupBytes() const { return 8 * swizzleBytes; }
  // The descriptor's and the tensor map's swizzle: 1 / 128B or 2 / 64B.
  __host__ __device__ constexpr int descMode() const { return swizzleBytes == 128 ? 1 : 2; }
  CUtensorMapSwizzle mapSwizzle() const {
    return swizzleBytes == 128 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_64B;
  }
};
template <int BN>
inline constexpr BLayout kBLayout = BN == 96 ? BLayout{32, 64} : BLayout{kSlabN, 128};

// The block tile's rows: 64 per consumer warpgroup, beside one producer warpgroup. BM = 128 (two
// consumers, one CTA per SM) is the stage's wide tile; BM = 64 (one consumer), sized so that two
// CTAs fit on an SM, is chosen for small grids (chooseWgmmaPlan) and is kwb tune's 64x64 cell.
template <int BM>
struct TileM {
  static_assert(BM == 64 || BM == 128, "block tiles of 64 or 128 rows");
  static constexpr int kConsumers = BM / 64;  // consumer warpgroups, 64 rows each
  static constexpr int kThreads = (kConsumers + 1) * 128;
  static constexpr int kABytes = BM * kBK * 2;  // 16 KB per stage (8 KB for 64 rows)
};

// The block tile is BM × BN. 128 rows: BN = 256 for large shapes, 192, 128 or 64 where
// 128×256 tiles would leave multiprocessors idle or a last wave nearly empty (see
// chooseWgmmaPlan). 64 rows: BN = 64, or 96 (a grid of fewer, larger tiles, one CTA per SM: 96
// tiles at 768^3 where 128x64 makes 72 and 64x64 144).
template <int BM, int BN>
struct Tile : TileM<BM> {
  static_assert(BN == 64 || BN == 128 || BN == 192 || BN == 256 || (BM == 64 && BN == 96));
  static_assert(BM == 128 || BN == 64 || BN == 96, "the 64-row tile is 64 or 96 wide");
  static constexpr BLayout kB = kBLayout<BN>;
  static constexpr int kBSlabs = BN / kB.slabN;                     // B's slabs per stage
  static constexpr int kBBytes = kBSlabs * kB.slabBytes();          // 8, 12, 16 or 32 KB a stage
  static constexpr int kStageBytes = TileM<BM>::kABytes + kBBytes;  // one stage's TMA copies
  // 128 rows: as many stages as fit beside the persistent kernel's 32 KB of C boxes (192 KB of
  // ring), at most 8: a narrow tile's stages are small (8 for 128x64, 6 for 128x128, 4 for
  // 128x192 and 128x256). Measured on an H200: 1024^3 4.3% faster than with 4, the other
  // shapes unchanged (PERF_NOTES, "The ring's depth"). 64 rows: 5 stages of 16 KB beside 16 KB of
  // C boxes, about 97 KB a CTA, so that two CTAs fit in an SM's 228 KB (6 stages would not);
  // other depths not measured. The 64x96 tile's 5 stages of 20 KB (117 KB a CTA) leave one CTA
  // per SM, as its grids want (a tile each).
  static constexpr int kStages = BM == 64 ? 5 : std::min(192 * 1024 / kStageBytes, 8);
  static constexpr int kRingBytes = kStages * kStageBytes;
  static constexpr int kBarrierBytes = 2 * kStages * 8;  // full[kStages], empty[kStages]
};
static_assert(Tile<128, 64>::kStages == 8 && Tile<128, 128>::kStages == 6 &&
                  Tile<128, 192>::kStages == 4 && Tile<128, 256>::kStages == 4,
              "the measured ring depths");

// Shared addresses of the ring: A's stages, then B's, then what a kernel keeps after them
// (`after`), then the barriers. `base` is 1024-byte aligned (the 128-byte swizzle's period).
struct Ring {
  std::uint32_t sA = 0, sB = 0, bars = 0, empties = 0;
  __host__ __device__ std::uint32_t full(int s) const { return bars + 8u * std::uint32_t(s); }
  __host__ __device__ std::uint32_t empty(int s) const { return empties + 8u * std::uint32_t(s); }
};

template <int BM, int BN>
__host__ __device__ constexpr Ring ringAt(std::uint32_t base, std::uint32_t after) {
  Ring r;
  r.sA = base;
  constexpr int kStages = Tile<BM, BN>::kStages;
  r.sB = base + kStages * Tile<BM, BN>::kABytes;
  r.bars = r.sB + kStages * Tile<BM, BN>::kBBytes + after;
  r.empties = r.bars + 8u * kStages;
  return r;
}

// A position in the ring: the stage and the parity of its current phase. It runs on across
// tiles, so a persistent CTA's producer fetches the next tile's first k blocks during the
// consumers' epilogue.
template <int BM, int BN>
struct RingPos {
  static constexpr int kStages = Tile<BM, BN>::kStages;
  int s = 0;
  std::uint32_t phase = 0;
  __device__ void advance() {
    if (++s == kStages) {
      s = 0;
      phase ^= 1u;
    }
  }
};

#if KWB_WGMMA_TARGET
// Thread 0 makes the barriers: "full" completed by the producer's arrive.expect_tx plus the
// transaction bytes, "empty" by one arrival per consumer warp of the cluster (CM CTAs).
template <int BM, int BN, int CM>
__device__ __forceinline__ void initRing(const Ring& r) {
  for (int s = 0; s < Tile<BM, BN>::kStages; ++s) {
    mbarInit(r.full(s), 1);
    mbarInit(r.empty(s), CM * Tile<BM, BN>::kConsumers * 4);
  }
  // Make the initialised barriers visible to the async proxy (TMA) and the cluster's peers.
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}

// The producer thread, before its first copy: fetch the tensor maps' descriptors.
__device__ __forceinline__ void prefetchMaps(const CUtensorMap* a, const CUtensorMap* b) {
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<std::uint64_t>(a)) : "memory");
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<std::uint64_t>(b)) : "memory");
}

// The producer thread: k blocks [kBegin, kEnd) of the tile at (row0, col0) into the ring. With
// clusters of CM CTAs sharing B (rank: this CTA's), each loads BN / CM of B's slabs into every
// CTA of the cluster by TMA multicast; A is always its own.
template <int BM, int BN, int CM>
__device__ __forceinline__ void produceKBlocks(const Ring& r, const CUtensorMap* mapA,
                                               const CUtensorMap* mapB, int row0, int col0,
                                               int kBegin, int kEnd, int rank,
                                               RingPos<BM, BN>& pos) {
  constexpr int kABytes = Tile<BM, BN>::kABytes, kBBytes = Tile<BM, BN>::kBBytes;
  constexpr int kStageBytes = Tile<BM, BN>::kStageBytes;
  constexpr int kSlabs = Tile<BM, BN>::kBSlabs;
  constexpr int kOwnSlabs = kSlabs / CM;  // B slabs this CTA loads (for the cluster)
  static_assert(CM == 1 || CM == 2, "clusters of one or two CTAs");
  static_assert(kOwnSlabs * CM == kSlabs, "the cluster's CTAs split B's slabs evenly");
  for (int kt = kBegin; kt < kEnd; ++kt) {
    const int s = pos.s;
    mbarWait(r.empty(s), pos.phase ^ 1u);  // the cluster's consumers are done with this stage
    mbarExpectTx(r.full(s), kStageBytes);  // own A, all of B (own slabs and the peer's)
    tmaLoad2d(r.sA + std::uint32_t(s * kABytes), mapA, kt * kBK, row0, r.full(s));
#pragma unroll
    for (int i = 0; i < kOwnSlabs; ++i) {
      constexpr BLayout kB = Tile<BM, BN>::kB;
      const int j = rank * kOwnSlabs + i;
      const std::uint32_t dst = r.sB + std::uint32_t(s * kBBytes + j * kB.slabBytes());
      if constexpr (CM > 1)
        tmaLoad2dMulticast(dst, mapB, col0 + j * kB.slabN, kt * kBK, r.full(s),
                           std::uint16_t((1u << CM) - 1u));
      else
        tmaLoad2d(dst, mapB, col0 + j * kB.slabN, kt * kBK, r.full(s));
    }
    pos.advance();
  }
}

// A consumer warp hands a stage back to the producers of every CTA that wrote into it.
template <int CM>
__device__ __forceinline__ void releaseStage(const Ring& r, int stage, int lane) {
  if (lane != 0) return;
  if constexpr (CM > 1) {
#pragma unroll
    for (int c = 0; c < CM; ++c) mbarArriveCluster(r.empty(stage), std::uint32_t(c));
  } else {
    mbarArrive(r.empty(stage));
  }
}

// A consumer warpgroup (rows 64·consumer … +63 of the tile): d = the sum over k blocks
// [kBegin, kEnd) of its A rows times B, from the ring. Every stage it read is released when it
// returns, and no wgmma is in flight.
template <class E, int BM, int BN, int CM>
__device__ __forceinline__ void consumeKBlocks(float (&d)[BN / 2], const Ring& r, int consumer,
                                               int lane, int kBegin, int kEnd,
                                               RingPos<BM, BN>& pos) {
  constexpr int kABytes = Tile<BM, BN>::kABytes, kBBytes = Tile<BM, BN>::kBBytes;
#pragma unroll
  for (int i = 0; i < BN / 2; ++i) d[i] = 0.f;
  fenceOperands(d);
  int prev = 0;
  for (int kt = kBegin; kt < kEnd; ++kt) {
    const int s = pos.s;
    mbarWait(r.full(s), pos.phase);  // TMA has delivered this stage
    const std::uint32_t a = r.sA + std::uint32_t(s * kABytes + consumer * 64 * 128);
    const std::uint32_t b = r.sB + std::uint32_t(s * kBBytes);
    wgmmaFence();
#pragma unroll
    for (int kk = 0; kk < kBK / 16; ++kk) {
      constexpr BLayout kB = Tile<BM, BN>::kB;
      wgmmaM64K16<E, BN>(d, smemDesc(a + 32u * kk, 16, 1024),
                         smemDesc(b + std::uint32_t(kB.kStepBytes() * kk), kB.slabBytes(),
                                  kB.groupBytes(), kB.descMode()));
    }
    wgmmaCommit();
    // Keep one group in flight: once the previous slice's wgmmas are done, its stage goes back
    // to the producer.
    if (kt > kBegin) {
      wgmmaWait<1>();
      releaseStage<CM>(r, prev, lane);
    }
    prev = s;
    pos.advance();
  }
  wgmmaWait<0>();
  releaseStage<CM>(r, prev, lane);
  fenceOperands(d);
}
#endif

// The tensor maps the ring's copies read: A (M×K) in boxes of 64 k × BM rows, 128-byte swizzled,
// B (K×N) in slabs of the tile's B layout (64 n × 64 k, 128-byte swizzled; 32 n, 64-byte for
// 64x96); `type` is FP16 or BF16.
struct OperandMaps {
  CUtensorMap a, b;
};
template <int BM, int BN>
OperandMaps operandMaps(CUtensorMapDataType type, const Shape& s, const detail::HalfOperands& ops) {
  constexpr BLayout kB = Tile<BM, BN>::kB;
  return {detail::tensorMap(ops.a.data, type, s.m, s.k, kBK, BM, "A", ops.a.ld),
          detail::tensorMap(ops.b.data, type, s.k, s.n, std::uint32_t(kB.slabN), kBK, "B", ops.b.ld,
                            kB.mapSwizzle())};
}

// A launch of `blocks` CTAs of the BM-row tile with `smemBytes` of dynamic shared memory on
// `stream`, and no attribute yet.
template <int BM>
cudaLaunchConfig_t tileLaunch(unsigned blocks, std::size_t smemBytes, cudaStream_t stream) {
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(blocks);
  cfg.blockDim = dim3(TileM<BM>::kThreads);
  cfg.dynamicSmemBytes = smemBytes;
  cfg.stream = stream;
  return cfg;
}

// An unclustered launch of `blocks` CTAs of the BM-row tile, `perSm` of which share an SM, as a
// programmatic dependent of the stream's previous kernel: its CTAs may start (and set up their
// barriers) while that kernel ends, and wait in the kernel before touching memory. Measured on an
// H200 (PERF_NOTES.md, "Dependent launches"): the 128-row grids up to 8% faster, 64x64 grids of
// 16 and 24 CTAs 7-10% faster, but 512^3's 64 CTAs of 64x64 (two per SM) 10% slower, so a grid
// whose CTAs share SMs and that holds more than a quarter of the SMs' CTAs launches as an
// ordinary kernel, as every launch does with KWB_WGMMA_PDL=0 (measurement builds). `attr` must
// outlive the configuration.
template <int BM>
cudaLaunchConfig_t dependentLaunch(unsigned blocks, int perSm, std::size_t smemBytes,
                                   cudaStream_t stream, cudaLaunchAttribute& attr) {
  cudaLaunchConfig_t cfg = tileLaunch<BM>(blocks, smemBytes, stream);
  if (!detail::dependentLaunchWanted("KWB_WGMMA_PDL")) return cfg;
  if (perSm > 1 && blocks > unsigned(detail::multiprocessors()) / 4) return cfg;
  detail::makeDependent(cfg, attr);
  return cfg;
}

// A launch of `blocks` CTAs of the 128-row tile (the only one that runs in clusters) in clusters
// of `clusterSize` along x; `attr` holds the cluster dimension and must outlive the configuration.
inline cudaLaunchConfig_t clusterLaunch(unsigned blocks, int clusterSize, std::size_t smemBytes,
                                        cudaStream_t stream, cudaLaunchAttribute& attr) {
  cudaLaunchConfig_t cfg = tileLaunch<128>(blocks, smemBytes, stream);
  attr = cudaLaunchAttribute{};
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = unsigned(clusterSize);
  attr.val.clusterDim.y = 1;
  attr.val.clusterDim.z = 1;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  return cfg;
}

}  // namespace kwb::kernels::wgmma
