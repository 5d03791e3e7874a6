// SPDX-License-Identifier: Apache-2.0
// sgemm.wgmma — stage 9: Hopper warpgroup MMA (FP16 in, FP32 accumulate), built only for sm_90a.
// The same kernel, templated on the element type, serves sgemm.wgmma_bf16 (BF16 in: the .bf16
// form of each wgmma, TMA maps of BFLOAT16; its descriptor is in sgemm_wgmma_bf16.cpp).
//
// Why a new kernel rather than a tuned stage 8: mma.sync issues one m16n8k16 per warp and needs
// every operand fragment in registers (ldmatrix), so a Hopper SM tops out near 60% of the tensor
// cores' rate. wgmma (m64nNk16, one instruction per warpgroup of 4 warps) reads both operands
// from shared memory through 64-bit matrix descriptors, asynchronously, and the bulk tensor copy
// engine (TMA) fills shared memory without any thread computing an address.
//
// Block tile 128×BN (BN = 256, or 192 / 128 / 64 / 48, or the 64-row tiles below, as the shape's
// wave model and split-K choose: see sgemm_wgmma_choice.h), K slice 64, three warpgroups (384
// threads); described here for BN = 256:
//   warpgroup 0 — producer: one thread issues the TMA copies of each K slice (A: one box of
//     64 k × 128 rows; B: four boxes of 64 n × 64 k) into a 4-stage ring, each stage guarded by
//     a "full" mbarrier (TMA completes it by transaction bytes) and an "empty" one (consumers
//     arrive when their wgmmas no longer read the stage). It gives up registers (setmaxnreg 40).
//   warpgroups 1, 2 — consumers: rows 0–63 and 64–127 of the tile, each with all 256 columns:
//     four wgmma.m64n256k16 per K slice, 128 FP32 accumulators per thread (setmaxnreg 232).
// 4 stages × 48 KB = 192 KB of shared memory (narrower tiles more: detail/wgmma_ring.cuh), one
// block per SM; the grid is persistent (one block per SM walking tiles blockIdx.x, + gridDim.x, …
// in grouped order), so the producer loads the next tile's first slices during the epilogue.
//   Epilogue (beta = 0): alpha·acc goes through 32 KB of swizzled shared memory (each warp its own
//     16 rows for tiles up to 128 wide, in boxes of 8 rows on the 128-row tiles and of 16 on the
//     64-row ones, detail/wgmma_epilogue.cuh) to TMA bulk stores, which run on while the
//     consumers start the next tile (storeTileTma); beta ≠ 0 stores from registers, reading C.
//   Split-K (grids that leave SMs idle, e.g. 512³): S CTAs take whole 64-wide k blocks of one
//     tile each. Across a cluster (the default's choice, its own kernel in
//     sgemm_wgmma_cluster_split.cu over the same ring, detail/wgmma_ring.cuh) they sum their
//     partials through distributed shared memory; through a global workspace (tune cells only:
//     measured slower) each consumer warp parks its FP32 partial there and the last to arrive
//     sums them in split order and stores with alpha and beta (detail/wgmma_splitk.cuh).
//   Clusters (from 8 tiles per SM, e.g. 8192³): two CTAs on vertically adjacent tiles share B
//     by TMA multicast; off the 128-byte line pairs side by side share A, or 2x2 both, or (1000³)
//     pairs of the 64x128 tile share B.
//   The 64-row tiles (small grids): one consumer warpgroup (256 threads), 5 stages, 16 KB of C
//     boxes; 64×64 two CTAs an SM (97 KB each), 64×96 one (117 KB), 64×128 one (137 KB, in pairs
//     sharing B); 128×192 (B in three slabs) and 128×48 (one slab, 48 of its columns read; C
//     stored from registers) run unsplit and without clusters.
//
// Shared layouts and the wgmma descriptors that read them: detail/wgmma_ring.cuh. The kernel
// itself: sgemm_wgmma_kernel.cuh; this file holds its launchers and the plan each shape runs.
//
// Edges: TMA zero-fills a box past M, N and K; the epilogue guards rows and columns. TMA needs
// 16-byte row strides, so where K or N is not a multiple of 8 the launcher first copies A or B to
// padded rows (detail/half_restride.h; inside the timed launch): every shape runs on the tensor
// cores (alignment 1). Off compute capability 9.0 the launcher runs sgemm.mma_multistage.
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "detail/element16.h"
#include "detail/gemm_tile_io.cuh"
#include "detail/half_restride.h"
#include "detail/multiprocessors.h"
#include "detail/stream_k.h"
#include "detail/tensor_map.h"
#include "detail/wgmma_epilogue.cuh"
#include "detail/wgmma_ptx.cuh"  // defines KWB_WGMMA_TARGET
#include "detail/wgmma_ring.cuh"
#include "detail/wgmma_splitk.cuh"
#include "detail/wgmma_trace.cuh"
#include "detail/workspace.h"
#include "kwb/cuda/check.h"
#include "kwb/kernel_descriptor.h"
#include "descriptors.h"
#include "sgemm_wgmma_choice.h"
#include "sgemm_wgmma_cluster_split.h"
#include "sgemm_wgmma_kernel.cuh"
#include "tile_grid.h"

namespace kwb::kernels {
namespace {

using wgmma::clusterUnits;
using wgmma::hgemmWgmmaKernel;
using wgmma::kSmemBytes;
using wgmma::kThreads;
using wgmma::SplitK;

// The kernel: sgemm_wgmma_kernel.cuh. Its launchers follow.
// Compute capability 9.0, the only device the sm_90a code runs on.
bool isHopper() { return detail::computeCapability() == 90; }

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

// Units (tiles, or a cluster's pair of tiles) per group column of the grouped order: 8 rows
// of 128x256 tiles at 4096^3 keep about one wave's A and B panels (40 MB) in L2; with clusters
// the group is 16 tile rows high (measured best at 8192^3 among 4, 8 and 16).
int tileGroup() {
#ifdef KWB_PERF_EXPERIMENT  // measurement builds only: another group height
  if (const char* e = std::getenv("KWB_WGMMA_GROUP")) return std::max(1, std::atoi(e));
#endif
  return 8;
}

// The TMA epilogue writes C without reading it, so it serves beta = 0 (every benchmark); a
// beta != 0 call, or a C the tensor map cannot address (not 16-byte aligned), stores from
// registers.
bool tmaEpilogue(const GemmArgs& g) {
#ifdef KWB_PERF_EXPERIMENT  // measurement builds only: force the epilogue from registers
  if (const char* e = std::getenv("KWB_WGMMA_EPILOGUE"); e && std::string(e) == "direct")
    return false;
#endif
  return g.beta == 0.f && aligned16(g.c) && g.shape.n % 4 == 0;  // C's rows: 16-byte strides
}

// How many clusters of CM × CN CTAs of this kernel the device runs at once: one CTA per SM, but
// a cluster's CTAs must share a GPC, so this can be fewer than SMs / (CM · CN). A persistent grid
// larger than that would leave its last clusters waiting for a whole block's tiles to finish
// (queried once per device).
template <class E, int BM, int BN, int CM, int CN>
int activeClusters(std::size_t smemBytes) {
  static std::atomic<int> cache[detail::kMaxCachedDevices];
  return detail::cachedPerDevice(cache, [smemBytes](int) {
    cudaLaunchAttribute attr{};
    const cudaLaunchConfig_t cfg = wgmma::clusterLaunch<BM>(
        unsigned(CM * CN * detail::multiprocessors()), CM * CN, smemBytes, nullptr, attr);
    int clusters = 0;
    KWB_CUDA_CHECK(cudaOccupancyMaxActiveClusters(
        &clusters, &hgemmWgmmaKernel<E, BM, BN, CM, false, CN>, &cfg));
    return std::max(clusters, 1);
  });
}

// CTAs of this unclustered kernel an SM holds at once, as the driver computes it from registers,
// threads and shared memory (asked once per device, after the shared-memory size is set): the
// persistent grid's CTAs per SM for the 64-row tile, built for two (kMinCtasPerSm).
template <class E, int BM, int BN>
int residentCtasPerSm(std::size_t smemBytes) {
  static std::atomic<int> cache[detail::kMaxCachedDevices];
  return detail::cachedPerDevice(cache, [smemBytes](int) {
    int ctas = 0;
    KWB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &ctas, &hgemmWgmmaKernel<E, BM, BN, 1>, kThreads<BM>, smemBytes));
    return std::max(ctas, 1);
  });
}

// Dynamic shared memory with which one CTA of `smem`, and never two, fits an SM: half the SM's
// (two would also need the 1 KiB per block the system reserves).
inline std::size_t oneCtaPerSmBytes(std::size_t smem) {
  return std::max(smem, std::size_t(detail::sharedMemoryPerMultiprocessor()) / 2);
}

// Whether a 64-row grid with no more CTAs than SMs launches one CTA per SM. Two share an SM as
// built, and then a grid of more than a quarter of the SMs' slots cannot launch as a dependent
// (wgmma::dependentLaunch); one per SM can, and a grid that fits the SMs loses no wave by it.
bool spreadSmallGrid(std::int64_t units) {
#ifdef KWB_PERF_EXPERIMENT  // measurement builds only: KWB_WGMMA_SPREAD=0 keeps two per SM
  if (const char* e = std::getenv("KWB_WGMMA_SPREAD"); e && std::string(e) == "0") return false;
#endif
  return units <= detail::multiprocessors();
}

template <class E, int BM, int BN, int CM, bool SK = false, int CN = 1, bool STREAM = false>
void launchTiles(const GemmArgs& g, const detail::HalfOperands& ops, const SplitK& split) {
  constexpr std::size_t kSmem = kSmemBytes<BM, BN>;
  auto* kernel = &hgemmWgmmaKernel<E, BM, BN, CM, SK, CN, STREAM>;
  const TileGrid grid = tileGrid(g.shape, BM, BN);
  const int tilesM = int((g.shape.m + BM - 1) / BM);

  KWB_WGMMA_TRACE_ON();  // measurement builds with KWB_WGMMA_TRACE only (detail/wgmma_trace.cuh)
  const wgmma::OperandMaps maps =
      wgmma::operandMaps<BM, BN, CM, CN>(Element16<E>::kTmaType, g.shape, ops);
  // Split-K: each warp stores its rows itself; so does a width of part of a C box (48).
  const bool tmaStore = (!SK || STREAM) && BN % wgmma::kCBoxCols == 0 && tmaEpilogue(g);
  const CUtensorMap mapC =
      tmaStore ? detail::tensorMap(g.c, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, g.shape.m, g.shape.n,
                                   wgmma::kCBoxCols, wgmma::kCBoxRows<BM, BN>, "C")
               : CUtensorMap{};
  KWB_CUDA_CHECK(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmem)));
  const int m = int(g.shape.m), n = int(g.shape.n), k = int(g.shape.k);
  // Grouped order; measurement builds: KWB_WGMMA_ORDER=hilbert (detail/wgmma_unit_order.cuh).
  const int group =
      wgmma::unitOrder((tilesM + CM - 1) / CM, (grid.tilesN + CN - 1) / CN, tileGroup());
  if constexpr (CM * CN == 1) {
    // A CTA per SM for the 128-row tile (its shared memory fills the SM); for the 64-row tile,
    // as many as the driver says fit (two as built), or one where the grid fits the SMs.
    int perSm = 1;
    std::size_t smem = kSmem;
    const std::int64_t units = std::int64_t(grid.blocks) * split.splits;
    if constexpr (BM == 64) perSm = residentCtasPerSm<E, BM, BN>(kSmem);
    if (perSm > 1 && spreadSmallGrid(units)) {
      perSm = 1;
      smem = oneCtaPerSmBytes(kSmem);
      KWB_CUDA_CHECK(
          cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
    }
    const std::int64_t slots = std::int64_t(detail::multiprocessors()) * perSm;
    // Measurement builds: fewer with KWB_WGMMA_CTAS, and say how many CTAs share an SM.
    const unsigned blocks = wgmma::forcedCtas(unsigned(std::min<std::int64_t>(units, slots)));
#ifdef KWB_PERF_EXPERIMENT
    if (BM == 64 && std::getenv("KWB_WGMMA_DEBUG"))
      std::fprintf(stderr, "sgemm.wgmma 64x%d tile: %d CTAs per SM, launching %u for %lld tiles\n",
                   BN, perSm, blocks, static_cast<long long>(units));
#endif
    cudaLaunchAttribute attr{};
    const cudaLaunchConfig_t cfg = wgmma::dependentLaunch<BM>(blocks, perSm, smem, g.stream, attr);
    KWB_CUDA_CHECK(cudaLaunchKernelEx(&cfg, kernel, maps.a, maps.b, mapC, m, n, k, g.alpha, g.beta,
                                      g.c, tilesM, grid.tilesN, group, tmaStore, split));
  } else {
    const std::int64_t units = clusterUnits<CM, CN>(tilesM, grid.tilesN);
    std::int64_t clusters = std::min<std::int64_t>(units, activeClusters<E, BM, BN, CM, CN>(kSmem));
#ifdef KWB_PERF_EXPERIMENT  // measurement builds only: another cluster count, and say it
    if (const char* e = std::getenv("KWB_WGMMA_CLUSTERS")) clusters = std::max(1, std::atoi(e));
    if (std::getenv("KWB_WGMMA_DEBUG"))
      std::fprintf(stderr, "sgemm.wgmma: %d active clusters of %d, launching %lld\n",
                   activeClusters<E, BM, BN, CM, CN>(kSmem), CM * CN,
                   static_cast<long long>(clusters));
#endif
    cudaLaunchAttribute attrs[2]{};
    const cudaLaunchConfig_t cfg = wgmma::dependentClusterLaunch<BM>(
        unsigned(clusters * CM * CN), CM * CN, kSmem, g.stream, attrs);
    KWB_CUDA_CHECK(cudaLaunchKernelEx(&cfg, kernel, maps.a, maps.b, mapC, m, n, k, g.alpha, g.beta,
                                      g.c, tilesM, grid.tilesN, group, tmaStore, split));
  }
}

// The plan for a launch: the shape's choice (sgemm_wgmma_choice.h); in measurement builds only,
// the tile height and width, split count or clusters the environment forces.
WgmmaPlan planFor(const Shape& s) {
  const int sms = detail::multiprocessors();
  WgmmaPlan p = chooseWgmmaPlan(s, sms);
#ifdef KWB_PERF_EXPERIMENT
  const char* bn = std::getenv("KWB_WGMMA_BN");
  const char* splits = std::getenv("KWB_WGMMA_SPLITS");
  const char* clusterSplits = std::getenv("KWB_WGMMA_CLUSTER_SPLITS");  // across a cluster
  if (bn || splits || clusterSplits)
    p = forcedWgmmaPlan(s, bn ? std::atoi(bn) : p.tileN,
                        std::atoi(clusterSplits ? clusterSplits
                                  : splits      ? splits
                                                : "1"),
                        sms, clusterSplits != nullptr);
  if (const char* e = std::getenv("KWB_WGMMA_CLUSTER"))
    p.clusters = p.tileN == 256 && p.splits == 1 && std::atoi(e) == 2;
  // KWB_WGMMA_BM=64: the 64-row tile, 96 wide with KWB_WGMMA_BN=96, 128 (in pairs sharing B)
  // with KWB_WGMMA_BN=128, else 64, whatever the other switches say.
  if (const char* e = std::getenv("KWB_WGMMA_BM"); e && std::atoi(e) == kWgmmaShortTileM) {
    const int w = bn ? std::atoi(bn) : 64;
    p = forcedWgmmaPlan(s, w == 96 || w == 128 ? w : 64, 1, sms, false, kWgmmaShortTileM);
  }
#endif
  return p;
}

// The FP16 copies re-laid for TMA (kernels/detail/half_restride.h), kept between launches.
detail::WorkspaceCache& relayWorkspace() {
  static detail::WorkspaceCache cache;
  return cache;
}

// Split-K's partial tiles, and its arrival counters: a cache of their own, since the counters
// must be 0 at every launch (zero-filled when allocated, reset by the kernel), which a buffer
// shared with partial tiles of another shape would break.
detail::WorkspaceCache& splitPartials() {
  static detail::WorkspaceCache cache;
  return cache;
}
detail::WorkspaceCache& splitCounters() {
  static detail::WorkspaceCache cache;
  return cache;
}

// One split launch's scratch, leased from those caches until the launch is enqueued: `bytes` of
// partial tiles and `counterBytes` of counters. ok() is false where either has no buffer.
struct SplitScratch {
  detail::WorkspaceCache::Lease partial, counters;
  SplitScratch(std::size_t bytes, std::size_t counterBytes, cudaStream_t stream)
      : partial(splitPartials().acquire(bytes, stream)),
        counters(splitCounters().acquire(counterBytes, stream)) {}
  bool ok() const { return partial.data() != nullptr && counters.data() != nullptr; }
  // K in `splits` ranges of `kBlocksPerSplit` k blocks over this scratch.
  SplitK split(int splits, int kBlocksPerSplit) const {
    SplitK s;
    s.partial = static_cast<float*>(partial.data());
    s.counters = static_cast<int*>(counters.data());
    s.splits = splits;
    s.kBlocksPerSplit = kBlocksPerSplit;
    return s;
  }
};

#ifdef KWB_PERF_EXPERIMENT
// Measurement builds only: the 64-row tile (64, 96 or 128 wide) in clusters of CM x CN CTAs
// (KWB_WGMMA_SHORT_CLUSTER=CMxCN, with KWB_WGMMA_BM=64 and KWB_WGMMA_BN; 1x1 runs the tile
// unclustered, the only way to run 64x128 without its pair), FP16 only. False where the switch is
// not set.
template <int BN, int CM, int CN, class E>
void launchShortIn(const GemmArgs& g, const detail::HalfOperands& ops, const SplitK& split) {
  launchTiles<E, 64, BN, CM, false, CN>(g, ops, split);
}
template <int BN, class E>
bool launchShortClusters(const GemmArgs& g, const detail::HalfOperands& ops, const SplitK& split,
                         const std::string& c) {
  if (c == "1x1") return launchShortIn<BN, 1, 1, E>(g, ops, split), true;
  if (c == "2x1") return launchShortIn<BN, 2, 1, E>(g, ops, split), true;
  if (c == "1x2") return launchShortIn<BN, 1, 2, E>(g, ops, split), true;
  if (c == "2x2") return launchShortIn<BN, 2, 2, E>(g, ops, split), true;
  if (c == "4x1") return launchShortIn<BN, 4, 1, E>(g, ops, split), true;
  if (c == "4x2") return launchShortIn<BN, 4, 2, E>(g, ops, split), true;
  if (c == "2x4") return launchShortIn<BN, 2, 4, E>(g, ops, split), true;
  return false;
}
template <class E>
bool shortTileInClusters(const GemmArgs& g, const detail::HalfOperands& ops, const SplitK& split,
                         int tileN) {
  if constexpr (!std::is_same_v<E, __half>) {  // no BF16 instances of these cluster shapes
    return false;
  } else {
    const char* e = std::getenv("KWB_WGMMA_SHORT_CLUSTER");
    if (e == nullptr) return false;
    const std::string c(e);
    if (std::getenv("KWB_WGMMA_DEBUG"))
      std::fprintf(stderr, "sgemm.wgmma: 64x%d tile in clusters %s\n", tileN, e);
    return tileN == 128  ? launchShortClusters<128, E>(g, ops, split, c)
           : tileN == 96 ? launchShortClusters<96, E>(g, ops, split, c)
                         : launchShortClusters<64, E>(g, ops, split, c);
  }
}
#endif

// The kernel instance for the plan: split-K has its own (SK = true), so the unsplit kernels keep
// their code (a run-time branch to the split path cost the 128x256 kernel 1.6 KB of spills).
template <class E>
LaunchInfo launchTilesOf(const GemmArgs& g, const detail::HalfOperands& ops, const WgmmaPlan& p,
                         const SplitK& split) {
  const bool sk = split.splits > 1;
#ifdef KWB_PERF_EXPERIMENT
  if (p.tileM == kWgmmaShortTileM && shortTileInClusters<E>(g, ops, split, p.tileN))
    return {false, "sgemm.wgmma (64-row tile in clusters: a measurement build)"};
#endif
  if (p.sharesA && p.clusters)  // 128 rows, unsplit, in 2x2 clusters sharing A and B
    p.tileN == 64 ? launchTiles<E, 128, 64, 2, false, 2>(g, ops, split)
                  : launchTiles<E, 128, 128, 2, false, 2>(g, ops, split);
  else if (p.sharesA)  // 128 rows, unsplit, in 2-CTA clusters along N sharing A
    p.tileN == 48   ? launchTiles<E, 128, 48, 1, false, 2>(g, ops, split)
    : p.tileN == 64 ? launchTiles<E, 128, 64, 1, false, 2>(g, ops, split)
                    : launchTiles<E, 128, 128, 1, false, 2>(g, ops, split);
  else if (p.tileM == kWgmmaShortTileM)  // unsplit: 64x64 or 64x96, or 64x128 in pairs sharing B
    p.tileN == 128  ? launchTiles<E, 64, 128, 2>(g, ops, split)
    : p.tileN == 96 ? launchTiles<E, 64, 96, 1>(g, ops, split)
                    : launchTiles<E, 64, 64, 1>(g, ops, split);
  else if (p.tileN == 192)  // unsplit, unclustered, as the 64-row tiles
    launchTiles<E, 128, 192, 1>(g, ops, split);
  else if (p.tileN == 48)  // likewise
    launchTiles<E, 128, 48, 1>(g, ops, split);
  else if (p.tileN == 64)
    sk ? launchTiles<E, 128, 64, 1, true>(g, ops, split)
       : launchTiles<E, 128, 64, 1>(g, ops, split);
  else if (p.tileN == 128)
    sk ? launchTiles<E, 128, 128, 1, true>(g, ops, split)
       : launchTiles<E, 128, 128, 1>(g, ops, split);
  else if (sk)
    launchTiles<E, 128, 256, 1, true>(g, ops, split);
  else if (p.clusters)
    launchTiles<E, 128, 256, 2>(g, ops, split);
  else
    launchTiles<E, 128, 256, 1>(g, ops, split);
  return {false, wgmmaRanName(p, ops.relaid, std::is_same_v<E, __nv_bfloat16>)};
}

#ifdef KWB_PERF_EXPERIMENT
// Measurement builds only (KWB_WGMMA_STREAMK=1): the plan's unclustered, unsplit 128-row tile
// (64, 128 or 256 wide) with its last partial wave in stream-K segments (detail/stream_k.h).
// False where the switch is off, the plan is another, or there is no partial wave.
template <class E>
bool launchStreamK(const GemmArgs& g, const detail::HalfOperands& ops, const WgmmaPlan& p) {
  const char* e = std::getenv("KWB_WGMMA_STREAMK");
  if (e == nullptr || std::atoi(e) != 1) return false;
  if (p.tileM != kWgmmaTileM || p.splits > 1 || p.clusters || p.sharesA ||
      (p.tileN != 64 && p.tileN != 128 && p.tileN != 256))
    return false;
  const int tiles = int(wgmmaTiles(g.shape, p.tileN));
  // launchTiles' grid: one CTA an SM, at most one a tile
  const detail::StreamKSchedule sched{tiles, std::min(tiles, detail::multiprocessors()),
                                      int(wgmmaKBlocks(g.shape))};
  if (!sched.runs()) return false;
  const std::size_t slots = std::size_t(sched.segmentedTiles());
  const SplitScratch scratch(slots * std::size_t(sched.segmentStride()) * kWgmmaTileM *
                                 std::size_t(p.tileN) * sizeof(float),
                             slots * kWgmmaWarpSlots * sizeof(int), g.stream);
  if (!scratch.ok()) return false;
  const SplitK split = scratch.split(1, sched.kBlocks);  // the whole waves' tiles: whole K
  if (std::getenv("KWB_WGMMA_DEBUG"))
    std::fprintf(stderr, "sgemm.wgmma 128x%d stream-K: %d whole tiles, %d in segments on %d CTAs\n",
                 p.tileN, sched.wholeTiles(), sched.segmentedTiles(), sched.ctas);
  p.tileN == 64    ? launchTiles<E, 128, 64, 1, true, 1, true>(g, ops, split)
  : p.tileN == 128 ? launchTiles<E, 128, 128, 1, true, 1, true>(g, ops, split)
                   : launchTiles<E, 128, 256, 1, true, 1, true>(g, ops, split);
  return true;
}
#endif

template <class E>
LaunchInfo launchOn(const GemmArgs& g, const detail::HalfOperands& ops, const WgmmaPlan& p) {
#ifdef KWB_PERF_EXPERIMENT
  if (launchStreamK<E>(g, ops, p))
    return {false, "sgemm.wgmma (stream-K on the last wave: a measurement build)"};
#endif
  if (p.clusterSplit && p.splits > 1) {  // its own kernel: sgemm_wgmma_cluster_split.cu
    launchWgmmaClusterSplit<E>(g, ops, p.tileN, p.splits);
    return {false, wgmmaRanName(p, ops.relaid, std::is_same_v<E, __nv_bfloat16>)};
  }
  SplitK whole;
  whole.kBlocksPerSplit = int(wgmmaKBlocks(g.shape));
  if (p.splits <= 1 || p.clusters)
    return launchTilesOf<E>(g, ops, {p.tileN, 1, p.clusters, false, p.tileM, p.sharesA}, whole);
  const SplitScratch scratch(wgmmaPartialBytes(g.shape, p), wgmmaCounterBytes(g.shape, p),
                             g.stream);
  if (!scratch.ok())  // no scratch: whole K, said so
    return launchTilesOf<E>(g, ops, {p.tileN, 1, false}, whole);
  return launchTilesOf<E>(g, ops, p,
                          scratch.split(p.splits, int(wgmmaKBlocksPerSplit(g.shape, p.splits))));
}

// `forced`: the plan to run (launchSgemmWgmmaPlan); null: the shape's own (planFor).
template <class E>
LaunchInfo launchWith(const GemmArgs& g, const WgmmaPlan* forced) {
  using In = Element16<E>;
  if (!isHopper()) {
    LaunchInfo ran = g.shape.multipleOf(8) ? In::launchMmaMultistage(g) : launchSgemmWarpTiled(g);
    ran.fallback = true;
    return ran;
  }
  const void *a16 = In::a(g), *b16 = In::b(g);
  if (!a16 || !b16 || !aligned16(a16) || !aligned16(b16))
    throw std::invalid_argument(std::string(In::kWgmmaId) + " needs 16-byte aligned " +
                                std::string(In::kName) + " copies of A and B");
  const Shape& s = g.shape;
  const WgmmaPlan p = forced != nullptr ? *forced : planFor(s);
  const std::size_t bytes = detail::relayBytes(s.m, s.n, s.k);
  if (bytes == 0) return launchOn<E>(g, {{a16, s.k}, {b16, s.n}, false}, p);
  const detail::WorkspaceCache::Lease ws = relayWorkspace().acquire(bytes, g.stream);
  if (ws.data() == nullptr) {  // no scratch on this device index: the FP32 stage, said so
    LaunchInfo ran = launchSgemmWarpTiled(g);
    ran.fallback = true;
    return ran;
  }
  return launchOn<E>(g, detail::relayHalves(a16, b16, s.m, s.n, s.k, ws.data(), g.stream), p);
}

template <class E>
LaunchInfo launch(const GemmArgs& g) {
  return launchWith<E>(g, nullptr);
}

}  // namespace

LaunchInfo launchSgemmWgmmaPlan(const GemmArgs& g, int tileN, int splits, bool clusterSplit,
                                int tileM) {
  requireWgmmaTile(tileM, tileN);
  const WgmmaPlan p =
      forcedWgmmaPlan(g.shape, tileN, splits, detail::multiprocessors(), clusterSplit, tileM);
  return launchWith<__half>(g, &p);
}

LaunchInfo launchSgemmWgmmaSharedA(const GemmArgs& g, int tileN, bool alsoB) {
  const WgmmaPlan p = sharedAWgmmaPlan(tileN, alsoB);
  return launchWith<__half>(g, &p);
}

LaunchInfo launchSgemmWgmmaBf16(const GemmArgs& g) { return launch<__nv_bfloat16>(g); }

KernelDescriptor sgemmWgmma() {
  KernelDescriptor d;
  d.id = std::string(kWgmmaId);
  d.displayName = "wgmma + TMA (Hopper)";
  d.family = "sgemm";
  d.precision = Precision::kFp16Fp32Acc;
  d.alignment = 1;  // every shape runs on the tensor cores (a ragged K or N re-lays A or B)
  d.description =
      "Hopper wgmma FP16 in / FP32 accumulate from swizzled shared memory, TMA + mbarrier ring "
      "(4-8 stages) fed by a producer warpgroup; 128x256x64 tile with two consumer warpgroups "
      "(or 128x192, 128x128, 128x64, 64x64 two per SM, or 64x96, as a wave model, or off the "
      "128-byte line a rule, puts fastest for the shape), persistent grid launched as a "
      "programmatic dependent; small shapes split K across 2-8 CTA clusters summed through "
      "distributed shared memory in split order (a deterministic in-kernel reduction), epilogue "
      "through TMA bulk stores (beta = 0), 2-CTA clusters sharing B by TMA multicast from 8 tiles "
      "per SM, off the 128-byte line pairs sharing A, 64x128 pairs sharing B or 2x2 clusters "
      "sharing A and B; A (K) or "
      "B (N) not a multiple of 8, or both where K and N are 8 mod 16 on a large "
      "product, first copied to rows of 64 elements, inside the timed launch; needs sm_90a "
      "(others run sgemm.mma_multistage, or sgemm.warp_tiled off multiples of 8)";
  d.launch = &launch<__half>;
  return d;
}

}  // namespace kwb::kernels
