// SPDX-License-Identifier: Apache-2.0
// sgemm.warp_tiled — stage 7: the default configuration of the warp-tiled kernel
// (sgemm_warp_tiled.cuh holds the kernel; kernels/tune instantiates the other configurations).
//
// Default: 128×128 block tile, BK = 16, four warps of 64×64 each, every thread 8×16 outputs
// (TM = 8 rows, WNITER = 4 sub-tiles of TN = 4 columns). 128 accumulators per thread and few
// threads per block: latency is hidden by instruction-level parallelism (128 independent
// FMAs per k) rather than by many warps, as in siboehm's tuned kernel 10.
//
// Split-K for grids smaller than the GPU (1024³: 64 tiles of 128×128 for 132 SMs): the K
// dimension is cut into S ranges, block (tile, z) writes the raw sums of range z into slice z
// of an FP32 workspace, and splitKReduce writes C = alpha·Σz + beta·C, summing the slices in
// z order (deterministic: the same bits on every run; beta = 0 never reads C). planSplitK
// picks the tile and S: the largest tile whose blocks can fill the SMs, and the S that
// minimises ⌈blocks / resident slots⌉ · (k tiles per range), a proxy for the busiest SM's
// work, over 2 ≤ S ≤ 8 with at least 8 k tiles (128 of K) per range so the pipeline prologue
// stays amortised.
//
// Workspace: one cached buffer per device (detail/workspace.h), bounded: split-K runs only
// when the default tiles are fewer than 3/4 of the SMs, at most 99 tiles of 128×128 in 8
// slices, 52 MB on an H100.
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <type_traits>

#include "detail/multiprocessors.h"
#include "detail/workspace.h"
#include "descriptors.h"
#include "sgemm_warp_tiled.cuh"

namespace kwb::kernels {

namespace {
using DefaultConfig = WarpTiledConfig<128, 128, 16, 64, 64, 4, 8, 4>;
// Smaller tiles for shapes that would leave multiprocessors idle with the default one
// (1024^3 makes only 64 tiles of 128x128 for 132 SMs on an H100): same kernel, less reuse.
using MediumConfig = WarpTiledConfig<64, 128, 16, 32, 64, 4, 4, 4>;
using SmallConfig = WarpTiledConfig<64, 64, 16, 32, 32, 2, 4, 4>;
constexpr std::string_view kId = "sgemm.warp_tiled";
constexpr int kMaxSplits = 8;
constexpr int kMinKTilesPerSplit = 8;

std::int64_t tiles(const Shape& s, int bm, int bn) {
  return ((s.m + bm - 1) / bm) * ((s.n + bn - 1) / bn);
}

__global__ void splitKReduce(std::int64_t mn, int splits, const float* __restrict__ partial,
                             float alpha, float beta, float* __restrict__ c) {
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < mn;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    float sum = partial[i];
    for (int z = 1; z < splits; ++z) sum += partial[std::int64_t(z) * mn + i];
    // With beta = 0, C is not read (BLAS semantics; it may hold the canary).
    c[i] = beta == 0.0f ? alpha * sum : fmaf(alpha, sum, beta * c[i]);
  }
}

// A block tile and split count: the plan for a shape too small to fill the GPU with whole-K
// tiles of the default configuration.
struct SplitPlan {
  int config = 0;  // 0 default, 1 medium, 2 small
  int splits = 1;
};

// Blocks of each configuration one multiprocessor holds at once (registers and shared memory;
// PERF_NOTES.md, ptxas table): the slots a wave of blocks fills.
constexpr int kResident[3] = {2, 3, 5};

// The element-wise path (K or N not a multiple of 4) is latency-bound: its larger tiles lose
// more to the scalar loads than they gain in reuse. It keeps the small tile and the split
// count S minimising ⌈tiles·S / SMs⌉ · (k tiles per range), one split against S (measured on
// an H100 at 511x513x1025: the small tile in 5 splits 30.6 µs; the medium tile at best 37.3
// (6 splits), the default at best 49.6 (6 splits), the slot model's choice of 8 splits of the
// default tile 53.6).
SplitPlan planScalarSplitK(const Shape& s, int sms) {
  constexpr int bk = SmallConfig::BK;
  const std::int64_t kTiles = (s.k + bk - 1) / bk;
  const std::int64_t tileCount = tiles(s, SmallConfig::BM, SmallConfig::BN);
  SplitPlan best{2, 1};
  std::int64_t bestCost = (tileCount + sms - 1) / sms * kTiles;  // whole K
  for (int splits = 2; splits <= kMaxSplits; ++splits) {
    const std::int64_t perSplit = (kTiles + splits - 1) / splits;
    if (perSplit < kMinKTilesPerSplit) break;
    const std::int64_t cost = (tileCount * splits + sms - 1) / sms * perSplit;
    if (cost < bestCost) best = {2, splits}, bestCost = cost;
  }
  return best;
}

// For each configuration from the largest tile down, the split count S (2 ≤ S ≤ 8, at least 8
// k tiles per range) whose blocks fill at least 3/4 of the SMs at the least cost, the cost
// being ⌈tiles·S / slots⌉ waves times the k tiles of one range: the busiest SM's work. The
// first configuration that can fill the SMs wins, since the larger tile reuses each loaded
// value more (measured on an H100: 1024³ runs the default tile in 4 splits at 59.7 µs, where
// the medium tile unsplit took 69.6 and the small one in 4 splits 73.4; 512³ the medium tile in
// 4 splits, 13.0 µs, against 14.8 for the small tile in 2).
SplitPlan planSplitK(const Shape& s, int sms, bool vectorized) {
  if (!vectorized) return planScalarSplitK(s, sms);
  const std::int64_t enough = std::int64_t(sms) * 3 / 4;
  const std::int64_t tileCounts[3] = {tiles(s, DefaultConfig::BM, DefaultConfig::BN),
                                      tiles(s, MediumConfig::BM, MediumConfig::BN),
                                      tiles(s, SmallConfig::BM, SmallConfig::BN)};
  static_assert(DefaultConfig::BK == MediumConfig::BK && MediumConfig::BK == SmallConfig::BK);
  const std::int64_t kTiles = (s.k + SmallConfig::BK - 1) / SmallConfig::BK;
  for (int c = 0; c < 3; ++c) {
    const std::int64_t slots = std::int64_t(sms) * kResident[c];
    SplitPlan best{c, 1};
    std::int64_t bestCost = 0;
    for (int splits = 2; splits <= kMaxSplits; ++splits) {
      const std::int64_t perSplit = (kTiles + splits - 1) / splits;
      if (perSplit < kMinKTilesPerSplit) break;
      const std::int64_t blocks = tileCounts[c] * splits;
      if (blocks < enough) continue;
      const std::int64_t cost = (blocks + slots - 1) / slots * perSplit;
      if (best.splits == 1 || cost < bestCost) best = {c, splits}, bestCost = cost;
    }
    if (best.splits > 1) return best;
  }
  return {2, 1};  // K too short to split: the small tile, whole K
}

// What a launch reports it ran (LaunchInfo::ranKernel): the id alone for the default tile on
// whole K, else the tile and split count, "sgemm.warp_tiled (64x128 tile, split-K 4)".
template <class Cfg>
std::string_view ranName(int splits) {
  static const std::array<std::string, kMaxSplits + 1> names = [] {
    std::array<std::string, kMaxSplits + 1> n;
    for (int sp = 1; sp <= kMaxSplits; ++sp)
      n[std::size_t(sp)] = std::string(kId) + " (" + std::to_string(Cfg::BM) + "x" +
                           std::to_string(Cfg::BN) + " tile" +
                           (sp > 1 ? ", split-K " + std::to_string(sp) : std::string()) + ")";
    return n;
  }();
  if (std::is_same_v<Cfg, DefaultConfig> && splits == 1) return kId;
  return names[std::size_t(splits)];
}

// The partial sums of every split-K launch, whatever its tile.
detail::WorkspaceCache& splitKWorkspace() {
  static detail::WorkspaceCache cache;
  return cache;
}

template <class Cfg = SmallConfig>
LaunchInfo launchSplitK(const GemmArgs& g, int splits) {
  const Shape& s = g.shape;
  constexpr int bk = Cfg::BK;
  const std::int64_t kTiles = (s.k + bk - 1) / bk;
  const int kChunk = int((kTiles + splits - 1) / splits * bk);
  splits = int((s.k + kChunk - 1) / kChunk);  // every range holds at least one k
  const std::int64_t mn = s.m * s.n;
  const std::size_t bytes = std::size_t(splits) * std::size_t(mn) * sizeof(float);

  const detail::WorkspaceCache::Lease ws = splitKWorkspace().acquire(bytes, g.stream);
  if (ws.data() == nullptr) return launchWarpTiled<Cfg, true>(g, ranName<Cfg>(1));
  auto* partial = static_cast<float*>(ws.data());
  const bool vec = warpTiledVectorizable(g);
  if (vec && s.m % Cfg::BM == 0 && s.n % Cfg::BN == 0 && s.k % bk == 0)
    launchWarpTiledKernel<Cfg, detail::Edge::kFull, true>(g, splits, kChunk, partial);
  else if (vec)
    launchWarpTiledKernel<Cfg, detail::Edge::kVec, true>(g, splits, kChunk, partial);
  else
    launchWarpTiledKernel<Cfg, detail::Edge::kScalar, true>(g, splits, kChunk, partial);

  constexpr int kReduceThreads = 256;
  const std::int64_t blocks = std::min<std::int64_t>((mn + kReduceThreads - 1) / kReduceThreads,
                                                     std::int64_t(detail::multiprocessors()) * 16);
  splitKReduce<<<unsigned(blocks), kReduceThreads, 0, g.stream>>>(mn, splits, partial, g.alpha,
                                                                  g.beta, g.c);
  KWB_CHECK_LAUNCH();
  return {false, ranName<Cfg>(splits)};
}

// The default tile when it gives about one block per multiprocessor (3/4 of them), as a cuBLAS
// heuristic would; below that, split-K (planSplitK).
LaunchInfo launch(const GemmArgs& g) {
#ifdef KWB_PERF_EXPERIMENT  // measurement builds only: force a tile and a split count
  if (const char* cfg = std::getenv("KWB_WT_CFG")) {
    const char* sp = std::getenv("KWB_WT_SPLITS");
    const int splits = sp ? std::atoi(sp) : 1;
    const std::string c = cfg;
    if (c == "default")
      return splits > 1 ? launchSplitK<DefaultConfig>(g, splits)
                        : launchWarpTiled<DefaultConfig, true>(g, kId);
    using Wide8Config = WarpTiledConfig<128, 128, 16, 64, 32, 2, 8, 4>;
    if (c == "wide8")
      return splits > 1 ? launchSplitK<Wide8Config>(g, splits)
                        : launchWarpTiled<Wide8Config, true>(g, kId);
    if (c == "medium")
      return splits > 1 ? launchSplitK<MediumConfig>(g, splits)
                        : launchWarpTiled<MediumConfig, true>(g, kId);
    return splits > 1 ? launchSplitK<SmallConfig>(g, splits)
                      : launchWarpTiled<SmallConfig, true>(g, kId);
  }
#endif
  const int sms = detail::multiprocessors();
  if (tiles(g.shape, DefaultConfig::BM, DefaultConfig::BN) >= std::int64_t(sms) * 3 / 4)
    return launchWarpTiled<DefaultConfig, true>(g, kId);
  const SplitPlan plan = planSplitK(g.shape, sms, warpTiledVectorizable(g));
  if (plan.splits == 1) return launchWarpTiled<SmallConfig, true>(g, ranName<SmallConfig>(1));
  switch (plan.config) {
    case 0:
      return launchSplitK<DefaultConfig>(g, plan.splits);
    case 1:
      return launchSplitK<MediumConfig>(g, plan.splits);
    default:
      return launchSplitK<SmallConfig>(g, plan.splits);
  }
}
}  // namespace

LaunchInfo launchSgemmWarpTiled(const GemmArgs& g) { return launch(g); }

KernelDescriptor sgemmWarpTiled() {
  KernelDescriptor d;
  d.id = std::string(kId);
  d.displayName = "Warp tiled";
  d.family = "sgemm";
  d.precision = Precision::kFp32;
  d.alignment = 1;  // every shape runs this kernel; only its edge guards change
  d.description =
      "128x128x16 block tile (when that leaves SMs idle: split-K with a deterministic "
      "reduction, on the largest of 128x128, 64x128 and 64x64 whose blocks fill the SMs), "
      "4 warps of 64x64, "
      "8x16 outputs per thread, double-buffered "
      "shared memory with register prefetch, grouped tile order for L2; K or N not a multiple "
      "of 4 takes element-wise loads";
  d.launch = &launch;
  return d;
}

}  // namespace kwb::kernels
