// SPDX-License-Identifier: Apache-2.0
#pragma once
// What sgemm.wgmma runs for a shape: the block tile's width and how many CTAs share a tile's K
// (split-K), chosen from the shape and the multiprocessor count, and the name a launch reports
// for it (LaunchInfo::ranKernel), so every case says what ran. Host code only, built in every
// configuration so its tests run without a Hopper build; the kernel is sgemm_wgmma.cu.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "kwb/kernel_descriptor.h"
#include "kwb/shape.h"

namespace kwb::kernels {

inline constexpr int kWgmmaTileM = 128;  // rows of the stage's block tile (two consumer warpgroups)
// Rows of the short tiles: one consumer warpgroup. 64x64 (two CTAs per SM), chosen by the wave
// model where it is fastest (small grids: 256^3-640^3 on an H200), and 64x96 (one CTA per SM,
// larger shared-memory stages); kwb tune's 64x64x64_split1 and 64x96x64_split1.
inline constexpr int kWgmmaShortTileM = 64;
inline constexpr int kWgmmaKBlock = 64;  // K of one pipeline stage: a split's range is whole blocks
inline constexpr int kWgmmaMaxSplits = 8;
inline constexpr int kWgmmaWarpSlots = 8;  // consumer warps per CTA: a split-K counter each

struct WgmmaPlan {
  int tileN = 256;  // 48 or 192 (unsplit; 48 in pairs sharing A at most), 64, 128 or 256
  int splits = 1;   // CTAs that share one tile's K, each a range of whole k blocks
  // 2-CTA clusters along M sharing B (128x256 and 64x128 tiles, unsplit; with sharesA, 2x2
  // clusters of 128x64 or 128x128 tiles sharing both)
  bool clusters = false;
  // With splits > 1: the tile's CTAs form a cluster and sum their partials through distributed
  // shared memory (sgemm_wgmma_cluster_split.cu), rather than through a global workspace.
  bool clusterSplit = false;
  // 128, or kWgmmaShortTileM (unsplit: 64x64 or 64x96 without clusters, 64x128 in pairs sharing B)
  int tileM = kWgmmaTileM;
  // 2-CTA clusters along N sharing A by TMA multicast, each CTA loading half of its rows (128 rows,
  // 48, 64 or 128 wide, unsplit): the narrow tiles' A is most of what a k block loads.
  bool sharesA = false;
  bool operator==(const WgmmaPlan&) const = default;
};

// Output tiles of tileM x tileN, and 64-wide k blocks (the last may be partial).
std::int64_t wgmmaTiles(const Shape& s, int tileN, int tileM = kWgmmaTileM);
std::int64_t wgmmaKBlocks(const Shape& s);
// k blocks of each split's range: ⌈kBlocks / splits⌉ (the last range may hold fewer).
std::int64_t wgmmaKBlocksPerSplit(const Shape& s, int splits);
// The splits that run when `splits` are asked for: every range holds at least one k block, so
// K shorter than splits × 64 runs fewer splits (1 for K ≤ 64), and the count is at most
// kWgmmaMaxSplits.
int wgmmaEffectiveSplits(const Shape& s, int splits);
// The same for split-K across a cluster, whose S ranges are balanced (split z takes k blocks
// ⌊z·kBlocks / S⌋ … ⌊(z+1)·kBlocks / S⌋ − 1, none empty while S ≤ kBlocks): min(splits, kBlocks,
// kWgmmaMaxSplits), and 1 for splits ≤ 1.
int wgmmaEffectiveClusterSplits(const Shape& s, int splits);

// The choice for a shape on `sms` multiprocessors.
// - Split K where the rule measured before the wave model (PERF_NOTES.md) splits: below 3/4 of the
//   SMs' worth of 128x256 tiles, the (tile width, splits) of least estimated time
//   (wgmmaEstimateNs) in one wave where the estimate is at least 5% less than whole K: split-K
//   through a global workspace, or across a cluster through distributed shared memory. Off the
//   line (below), only where the whole tile there leaves half the SMs without a tile.
// - Else, rows on 128-byte lines as loaded (K and N multiples of 64, or copied to such rows): the
//   unsplit tile of least wave-model time (wgmmaWaveNs: 64x64, 128x64, 128x128 or 128x256, the
//   last in clusters of two from 8 tiles per SM).
// - Else (rows off the line, loaded as they lie): clusters sharing operands where their grid is
//   about one wave (pairs of 128x64 or 128x128 sharing A, 2x2 of 128x64 or 128x128 sharing both;
//   for 128x64 the 64x128 tile in pairs sharing B where its grid fits the SMs), else the widest of
//   128x256 and 128x128 whose grid gives 15/32 of the SMs a tile, else 64x96 where its grid fits
//   the SMs and 64x64's does not, else 64x64.
WgmmaPlan chooseWgmmaPlan(const Shape& s, int sms);
// The wave model of an unsplit tile, in nanoseconds: a fixed cost plus, per k block, a cost for
// each of the busiest SM's ⌈tiles / SMs⌉ tiles; constants fitted to measured tile times in
// sgemm_wgmma_choice.cpp. Throws std::invalid_argument for a tile the kernel does not have.
double wgmmaWaveNs(const Shape& s, int tileM, int tileN, int sms);
// A forced tile width and split count (kwb tune's configurations, tests), made runnable: the
// splits as wgmmaEffectiveSplits (or, across a cluster, wgmmaEffectiveClusterSplits) allows;
// clusters as the default would use them for the unsplit tile. tileM = kWgmmaShortTileM, and the
// 128-row tile's widths 192 and 48: always unsplit and without clusters, but for 64x128, always in
// pairs sharing B (tileN as given: requireWgmmaTile says which widths run).
WgmmaPlan forcedWgmmaPlan(const Shape& s, int tileN, int splits, int sms, bool clusterSplit = false,
                          int tileM = kWgmmaTileM);
// Throws std::invalid_argument naming the tile unless tileM x tileN is a block tile the kernel
// has: 128 x 48, 64, 128, 192 or 256, or 64 x 64, 96 or 128.
void requireWgmmaTile(int tileM, int tileN);
// The cost model behind chooseWgmmaPlan, in nanoseconds: a fixed cost per tile width, the busiest
// SM's k blocks (⌈tiles·splits / SMs⌉ units of ⌈kBlocks / splits⌉ blocks each), and with
// split-K the partial tiles written and summed: S partials through L2 for the global workspace,
// one reduction through distributed shared memory (the CTAs of a cluster reduce their row bands
// at once) for clusterSplit. Constants in sgemm_wgmma_choice.cpp.
double wgmmaEstimateNs(const Shape& s, int tileN, int splits, int sms, bool clusterSplit = false);

// Bytes of FP32 partial tiles a split launch needs (tiles × splits × tileM × tileN floats), and
// of its per-tile arrival counters (kWgmmaWarpSlots ints per tile); 0 for an unsplit plan and
// for split-K across a cluster (its partials stay in shared memory).
std::size_t wgmmaPartialBytes(const Shape& s, const WgmmaPlan& p);
std::size_t wgmmaCounterBytes(const Shape& s, const WgmmaPlan& p);

// The ids of the two wgmma stages: FP16 inputs, and BF16 (the same kernel on __nv_bfloat16).
inline constexpr std::string_view kWgmmaId = "sgemm.wgmma";
inline constexpr std::string_view kWgmmaBf16Id = "sgemm.wgmma_bf16";

// What a launch of `p` reports it ran, "sgemm.wgmma (128x64 tile, split-K 4)" or "sgemm.wgmma
// (128x64 tile, cluster split-K 4)" across a cluster, "sgemm.wgmma (64x64 tile)" for the 64-row
// tile (under kWgmmaBf16Id for the BF16 stage); the unclustered, unsplit 128x256 tile on
// operands as given is the id alone. The view outlives the launch.
std::string_view wgmmaRanName(const WgmmaPlan& p, bool relaid, bool bf16 = false);

// sgemm.wgmma with a forced tile width (48, 64, 128, 192, 256) and split count (1-8), through the
// global workspace or (clusterSplit) across a cluster, as forcedWgmmaPlan makes them runnable: kwb
// tune's configurations and the GPU tests. tileM = kWgmmaShortTileM runs the 64-row tile (tileN
// must be 64, 96 or 128); it and the widths 192 and 48 ignore splits and clusterSplit. A tile
// the kernel does not have throws std::invalid_argument (requireWgmmaTile) before any GPU work.
// Defined in sgemm_wgmma.cu, so only in sm_90a builds (KWB_HAVE_WGMMA). Same contract as a stage's
// launcher: off Hopper it runs the stage's fallback and says so.
LaunchInfo launchSgemmWgmmaPlan(const GemmArgs& g, int tileN, int splits, bool clusterSplit = false,
                                int tileM = kWgmmaTileM);
// The plan of a 128-row tile tileN wide (48, 64 or 128) in clusters sharing A (WgmmaPlan::sharesA),
// unsplit; alsoB: 2x2 clusters sharing B too (64 or 128 wide). Another width throws
// std::invalid_argument naming it.
WgmmaPlan sharedAWgmmaPlan(int tileN, bool alsoB = false);
// sgemm.wgmma on that plan (kwb tune's configurations, the GPU tests); same contract as
// launchSgemmWgmmaPlan.
LaunchInfo launchSgemmWgmmaSharedA(const GemmArgs& g, int tileN, bool alsoB = false);

}  // namespace kwb::kernels
