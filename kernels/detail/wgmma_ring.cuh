// SPDX-License-Identifier: Apache-2.0
#pragma once
// sgemm.wgmma's TMA ring (sm_90a): the block tile's constants, the shared-memory layout of the
// stages, and the two halves of the main loop, so that every kernel instance of the stage
// (sgemm_wgmma.cu's persistent kernel, sgemm_wgmma_cluster_split.cu's cluster split-K) walks
// its k blocks with the same code: the producer thread's TMA copies into a ring of stages, each
// stage guarded by a "full" mbarrier (completed by transaction bytes) and an "empty" one (one
// arrival per consumer warp that read it), and the consumer warpgroups' wgmmas on each stage.
//
// Shared layouts, both written by TMA with CU_TENSOR_MAP_SWIZZLE_128B (16-byte chunk c of a
// 128-byte row r lands at chunk c ^ (r % 8): the same address function as wgmma's 128-byte
// swizzle, given 1024-byte aligned tiles):
//   A (row-major M×K = K-major, the wgmma default, trans-a 0): 128 rows × 128 bytes (64 k).
//     Descriptor: start = tile + 64·128·warpgroup + 32·kk for k step kk (the start moves inside
//     the 128-byte swizzle row, as CUTLASS's descriptor iterator does), LBO 16 (unused for
//     swizzled K-major, "assumed 1"), SBO 1024 (8 rows × 128 B to the next 8 rows).
//   B (row-major K×N = N-major, trans-b 1): four slabs of 64 k rows × 128 bytes (64 n), slab
//     j at +8192·j. In the PTX ISA's words for MN-major swizzled layouts, LBO is the offset
//     between repeats along N (64 n per 128-byte row: the next slab, 8192) and SBO between
//     groups of 8 k (1024); CUTLASS writes the same canonical layout as
//     Swizzle<3,4,3> o ((T,8,m),(8,k)):((1,T,LBO),(8T,SBO)). k step kk starts at +2048·kk.
//   64×96's B: three 64-byte-swizzled slabs of 64 k × 32 n, slab j at +4096·j: LBO
//   4096, SBO 512, k step kk at +1024·kk, mode 2 (BLayout below).
//   Descriptor bits: [0,14) start >> 4, [16,30) LBO >> 4, [32,46) SBO >> 4, [49,52) base
//   offset 0 (tiles are 1024-byte aligned), [62,64) swizzle mode 1 = 128B (2 = 64B).
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
// slabs would load 128. The 128x48 tile loads one 64-n slab and its wgmmas read 48 columns.
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

// The block tile is BM × BN. 128 rows: BN = 256 for large shapes, 192, 128, 64 or 48 where
// 128×256 tiles would leave multiprocessors idle or a last wave nearly empty (see
// chooseWgmmaPlan). 64 rows: BN = 64, or 96 (a grid of fewer, larger tiles, one CTA per SM: 96
// tiles at 768^3 where 128x64 makes 72 and 64x64 144).
template <int BM, int BN>
struct Tile : TileM<BM> {
  static_assert(BN == 48 || BN == 64 || BN == 128 || BN == 192 || BN == 256 ||
                (BM == 64 && BN == 96));
  static_assert(BM == 128 || BN == 64 || BN == 96 || BN == 128, "the 64-row tile is 64-128 wide");
  static constexpr BLayout kB = kBLayout<BN>;
  static constexpr int kBSlabs = (BN + kB.slabN - 1) / kB.slabN;    // B's slabs per stage
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
// transaction bytes, "empty" by one arrival per consumer warp of the CTAs whose stages this CTA's
// producer writes (Readers: itself and, in a cluster, the peers of its tile row and column).
template <int BM, int BN, int Readers>
__device__ __forceinline__ void initRing(const Ring& r) {
  for (int s = 0; s < Tile<BM, BN>::kStages; ++s) {
    mbarInit(r.full(s), 1);
    mbarInit(r.empty(s), Readers * Tile<BM, BN>::kConsumers * 4);
  }
  // Make the initialised barriers visible to the async proxy (TMA) and the cluster's peers.
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}

// The producer thread, before its first copy: fetch the tensor maps' descriptors.
__device__ __forceinline__ void prefetchMaps(const CUtensorMap* a, const CUtensorMap* b) {
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<std::uint64_t>(a)) : "memory");
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<std::uint64_t>(b)) : "memory");
}

// Clusters of CM × CN CTAs (CM along M sharing B, CN along N sharing A; rank r is tile
// (r % CM, r / CM) of the cluster's CM × CN block of tiles; at most 8 CTAs, the portable cluster
// size). Each CTA loads 1/CM of B into the CTAs of its tile column and 1/CN of A's rows into those
// of its tile row, by TMA multicast. B is split by slabs where they divide evenly (128x256: two
// of four each), else by k rows (the 64-wide tiles' one slab: 32 of its 64 k rows each for CM =
// 2, 16 for CM = 4), the map's box then that high.
template <int BM, int BN, int CM>
inline constexpr bool kBSplitByK = CM > 1 && Tile<BM, BN>::kBSlabs % CM != 0;

// The cluster CTAs of rank `rank`'s tile row (those that share its A) and tile column (its B),
// as multicast masks; each includes `rank` itself.
struct ClusterPeers {
  std::uint16_t row, col;
  __host__ __device__ constexpr std::uint16_t both() const { return std::uint16_t(row | col); }
};
template <int CM, int CN>
__host__ __device__ constexpr ClusterPeers clusterPeers(int rank) {
  static_assert(CM >= 1 && CN >= 1 && CM * CN <= 8, "clusters of at most 8 CTAs");
  const int rankM = rank % CM, rankN = rank / CM;
  unsigned row = 0;
  for (int j = 0; j < CN; ++j) row |= 1u << (rankM + CM * j);
  const unsigned col = ((1u << CM) - 1u) << (CM * rankN);
  return {std::uint16_t(row), std::uint16_t(col)};
}
static_assert(clusterPeers<2, 2>(3).row == 0b1010 && clusterPeers<2, 2>(3).col == 0b1100 &&
                  clusterPeers<4, 2>(5).row == 0b00100010 &&
                  clusterPeers<4, 2>(5).col == 0b11110000 && clusterPeers<1, 2>(1).col == 0b10,
              "row peers share rank % CM, column peers rank / CM");
// CTAs whose consumers arrive on each of a CTA's "empty" barriers: its tile row and column.
template <int CM, int CN>
inline constexpr int kRingReaders = CM + CN - 1;
// The count above and the masks consumers release to (releaseStage) must agree at every rank,
// or a stage is refilled before a reader is done, or never.
template <int CM, int CN>
__host__ __device__ constexpr bool readersArePeers() {
  for (int rank = 0; rank < CM * CN; ++rank) {
    int ctas = 0;
    for (unsigned m = clusterPeers<CM, CN>(rank).both(); m != 0; m &= m - 1) ++ctas;
    if (ctas != kRingReaders<CM, CN>) return false;
  }
  return true;
}
static_assert(readersArePeers<1, 1>() && readersArePeers<2, 1>() && readersArePeers<1, 2>() &&
                  readersArePeers<2, 2>() && readersArePeers<4, 2>() && readersArePeers<2, 4>() &&
                  readersArePeers<1, 8>(),
              "each stage's readers are its CTA's tile row and column");

// The producer thread: k blocks [kBegin, kEnd) of the tile at (row0, col0) into the ring, its
// own parts of A and B where the tile is one of a cluster's (rank: this CTA's; above).
template <int BM, int BN, int CM, int CN = 1>
__device__ __forceinline__ void produceKBlocks(const Ring& r, const CUtensorMap* mapA,
                                               const CUtensorMap* mapB, int row0, int col0,
                                               int kBegin, int kEnd, int rank,
                                               RingPos<BM, BN>& pos) {
  constexpr int kABytes = Tile<BM, BN>::kABytes, kBBytes = Tile<BM, BN>::kBBytes;
  constexpr int kStageBytes = Tile<BM, BN>::kStageBytes;
  constexpr BLayout kB = Tile<BM, BN>::kB;
  constexpr bool kByK = kBSplitByK<BM, BN, CM>;
  constexpr int kSlabs = Tile<BM, BN>::kBSlabs;
  constexpr int kOwnSlabs = kByK ? kSlabs : kSlabs / CM;  // B slabs this CTA loads (all: by k)
  constexpr int kOwnKRows = kByK ? kBK / CM : kBK;        // of each, k rows
  constexpr int kOwnRows = BM / CN;                       // A rows this CTA loads
  static_assert(kByK || kOwnSlabs * CM == kSlabs, "the cluster's CTAs split B's slabs evenly");
  static_assert(kBK % (8 * CM) == 0 && BM % (8 * CN) == 0, "whole 8-row swizzle atoms each");
  const int rankM = rank % CM, rankN = rank / CM;
  const ClusterPeers peers = clusterPeers<CM, CN>(rank);
  for (int kt = kBegin; kt < kEnd; ++kt) {
    const int s = pos.s;
    mbarWait(r.empty(s), pos.phase ^ 1u);  // the cluster's consumers are done with this stage
    mbarExpectTx(r.full(s), kStageBytes);  // all of A and B (own parts and the peers')
    const std::uint32_t dstA = r.sA + std::uint32_t(s * kABytes + rankN * kOwnRows * 128);
    if constexpr (CN > 1)
      tmaLoad2dMulticast(dstA, mapA, kt * kBK, row0 + rankN * kOwnRows, r.full(s), peers.row);
    else
      tmaLoad2d(dstA, mapA, kt * kBK, row0, r.full(s));
#pragma unroll
    for (int i = 0; i < kOwnSlabs; ++i) {
      const int j = kByK ? i : rankM * kOwnSlabs + i, kRow = kByK ? rankM * kOwnKRows : 0;
      const std::uint32_t dst =
          r.sB + std::uint32_t(s * kBBytes + j * kB.slabBytes() + kRow * kB.slabN * 2);
      if constexpr (CM > 1)
        tmaLoad2dMulticast(dst, mapB, col0 + j * kB.slabN, kt * kBK + kRow, r.full(s), peers.col);
      else
        tmaLoad2d(dst, mapB, col0 + j * kB.slabN, kt * kBK, r.full(s));
    }
    pos.advance();
  }
}

// Every thread of a tile kernel, first: thread 0 fetches the tensor maps' descriptors (kernel
// parameters, not memory a previous grid writes) and makes the barriers; in a cluster the
// peers' barriers must be initialised before a copy or an arrival reaches them, so the cluster
// barrier is arrived at before, and waited on after, the wait for the previous grid, whose
// latency it overlaps (a dependent launch, dependentLaunch below: this set-up overlaps the
// previous kernel's end, and no global memory is touched before that ends).
template <int BM, int BN, int CM, int CN>
__device__ __forceinline__ void openRing(const Ring& r, const CUtensorMap* a,
                                         const CUtensorMap* b) {
  static_assert(readersArePeers<CM, CN>());
  if (threadIdx.x == 0) {
    prefetchMaps(a, b);
    initRing<BM, BN, kRingReaders<CM, CN>>(r);
  }
  if constexpr (CM * CN > 1)
    clusterArriveRelaxed();
  else
    __syncthreads();
  launchDependents();
  waitForPriorGrids();
  if constexpr (CM * CN > 1) clusterWait();
}

// The producer thread after its last copy, in a cluster: waits, as if to refill each stage once
// more, until every reader of every stage has released it. Then no peer's consumer will arrive
// on this CTA's barriers any more and every copy this CTA multicast has been read, so the CTA
// may exit without a cluster barrier (CUTLASS's producer tail): its consumers' arrivals on
// peers are awaited the same way by those peers' producers.
template <int BM, int BN>
__device__ __forceinline__ void drainRing(const Ring& r, RingPos<BM, BN>& pos) {
  for (int i = 0; i < Tile<BM, BN>::kStages; ++i) {
    mbarWait(r.empty(pos.s), pos.phase ^ 1u);
    pos.advance();
  }
}

// A consumer warp hands a stage back to the producers that write into it: those of the CTAs of
// its tile row and column (`writers`, clusterPeers(rank).both(); each "empty" counts
// kRingReaders CTAs' warps). A CTA of a 2x2 or larger cluster off both (its diagonal peers)
// writes nothing into this CTA's stages and so does not wait for its consumers.
template <int CS>
__device__ __forceinline__ void releaseStage(const Ring& r, int stage, int lane,
                                             std::uint16_t writers) {
  if (lane != 0) return;
  if constexpr (CS > 1) {
#pragma unroll
    for (int c = 0; c < CS; ++c)
      if (writers >> c & 1u) mbarArriveCluster(r.empty(stage), std::uint32_t(c));
  } else {
    mbarArrive(r.empty(stage));
  }
}

// A consumer warpgroup (rows 64·consumer … +63 of the tile): d = the sum over k blocks
// [kBegin, kEnd) of its A rows times B, from the ring. Every stage it read is released when it
// returns, and no wgmma is in flight. CS: the CTAs of its cluster; writers: releaseStage's.
template <class E, int BM, int BN, int CS>
__device__ __forceinline__ void consumeKBlocks(float (&d)[BN / 2], const Ring& r, int consumer,
                                               int lane, int kBegin, int kEnd, RingPos<BM, BN>& pos,
                                               std::uint16_t writers = 1) {
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
      releaseStage<CS>(r, prev, lane, writers);
    }
    prev = s;
    pos.advance();
  }
  wgmmaWait<0>();
  releaseStage<CS>(r, prev, lane, writers);
  fenceOperands(d);
}
#endif

// The tensor maps the ring's copies read: A (M×K) in boxes of 64 k × BM rows (BM / CN where
// clusters of CN CTAs share A, each loading its part), 128-byte swizzled, B (K×N) in slabs of the
// tile's B layout (64 n × 64 k, 128-byte swizzled; 32 n, 64-byte for 64x96; 64 / CM k where the
// cluster's CTAs split B by k rows); `type` is FP16 or BF16.
struct OperandMaps {
  CUtensorMap a, b;
};
template <int BM, int BN, int CM = 1, int CN = 1>
OperandMaps operandMaps(CUtensorMapDataType type, const Shape& s, const detail::HalfOperands& ops) {
  constexpr BLayout kB = Tile<BM, BN>::kB;
  constexpr int kBoxK = kBSplitByK<BM, BN, CM> ? kBK / CM : kBK;
  return {detail::tensorMap(ops.a.data, type, s.m, s.k, kBK, BM / CN, "A", ops.a.ld),
          detail::tensorMap(ops.b.data, type, s.k, s.n, std::uint32_t(kB.slabN), kBoxK, "B",
                            ops.b.ld, kB.mapSwizzle())};
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
// ordinary kernel, as every launch does with KWB_WGMMA_PDL=0 (measurement builds). (The same 64
// CTAs one per SM gain 13% as dependents: a 64-row grid that fits the SMs launches so.) `attr`
// must outlive the configuration.
template <int BM>
cudaLaunchConfig_t dependentLaunch(unsigned blocks, int perSm, std::size_t smemBytes,
                                   cudaStream_t stream, cudaLaunchAttribute& attr) {
  cudaLaunchConfig_t cfg = tileLaunch<BM>(blocks, smemBytes, stream);
  if (!detail::dependentLaunchWanted("KWB_WGMMA_PDL")) return cfg;
  if (perSm > 1 && blocks > unsigned(detail::multiprocessors()) / 4) return cfg;
  detail::makeDependent(cfg, attr);
  return cfg;
}

// A launch of `blocks` CTAs of the BM-row tile in clusters of `clusterSize` along x; `attr` holds
// the cluster dimension and must outlive the configuration.
template <int BM = 128>
cudaLaunchConfig_t clusterLaunch(unsigned blocks, int clusterSize, std::size_t smemBytes,
                                 cudaStream_t stream, cudaLaunchAttribute& attr) {
  cudaLaunchConfig_t cfg = tileLaunch<BM>(blocks, smemBytes, stream);
  attr = cudaLaunchAttribute{};
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = unsigned(clusterSize);
  attr.val.clusterDim.y = 1;
  attr.val.clusterDim.z = 1;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  return cfg;
}

// The same launch as a programmatic dependent of the stream's previous kernel, as
// dependentLaunch makes the unclustered ones (unless KWB_WGMMA_PDL=0 in measurement builds):
// for the tile kernel and the cluster split, whose CTAs wait in the kernel (openRing) before
// they touch memory. `attrs` (the
// cluster dimension, then the serialization) must outlive the configuration.
template <int BM = 128>
cudaLaunchConfig_t dependentClusterLaunch(unsigned blocks, int clusterSize, std::size_t smemBytes,
                                          cudaStream_t stream, cudaLaunchAttribute (&attrs)[2]) {
  cudaLaunchConfig_t cfg = clusterLaunch<BM>(blocks, clusterSize, smemBytes, stream, attrs[0]);
  if (!detail::dependentLaunchWanted("KWB_WGMMA_PDL")) return cfg;
  attrs[1] = cudaLaunchAttribute{};
  attrs[1].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attrs[1].val.programmaticStreamSerializationAllowed = 1;
  cfg.numAttrs = 2;
  return cfg;
}

}  // namespace kwb::kernels::wgmma
