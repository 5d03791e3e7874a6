// SPDX-License-Identifier: Apache-2.0
// sgemm.wgmma's choice of block tile width and split-K count (kernels/sgemm_wgmma_choice.h), as
// host data: by shape and multiprocessor count, the split count a shape's K allows, the workspace
// it needs, and the name each launch reports. No GPU. Rows off the 128-byte line:
// wgmma_choice_line_test.cpp.
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>

#include "sgemm_wgmma_choice.h"

namespace {

using kwb::Shape;
using kwb::kernels::WgmmaPlan;
namespace k = kwb::kernels;

constexpr int kH100 = 132;

TEST(WgmmaChoice, LargeShapesKeepTheWideTileUnsplit) {
  EXPECT_EQ(k::chooseWgmmaPlan({2048, 2048, 2048}, kH100), (WgmmaPlan{256, 1, false}));
  EXPECT_EQ(k::chooseWgmmaPlan({4096, 4096, 4096}, kH100), (WgmmaPlan{256, 1, false}));
  // From 8 tiles of 128x256 per SM: clusters of two sharing B (64 x 32 tiles here).
  EXPECT_EQ(k::chooseWgmmaPlan({8192, 8192, 8192}, kH100), (WgmmaPlan{256, 1, true}));
  // The same 1024^3 fills a GPU of 16 SMs with 32 tiles of 128x256.
  EXPECT_EQ(k::chooseWgmmaPlan({1024, 1024, 1024}, 16), (WgmmaPlan{256, 1, false}));
}

// Rows on the line: the unsplit tile of least wave-model time. Measured on an H200 (kwb tune
// --kernel sgemm.wgmma, 2026-11-27), each shape here ran fastest on the tile the model picks;
// the width rule had 512^3 and 256x384x640 on 128x64 (the 64x64 tile 20% faster), 2304^3 and
// 3072^3 on 128x256 (128x128 29% and 16% faster) and 1152^3-1792^3 in cluster splits of two
// waves (the whole tile 1.4-2.4x faster). The 128x192 tile, measured the same way (2026-12-02):
// 1536^3 23% faster than 128x256, 3072^3 9% faster than 128x128, 2304^3 as fast.
TEST(WgmmaChoice, OnTheLineTheWaveModelPicksTheMeasuredFastestTile) {
  const WgmmaPlan t64x64{64, 1, false, false, k::kWgmmaShortTileM};
  for (const Shape& s : {Shape{256, 256, 256}, Shape{384, 384, 384}, Shape{512, 512, 512},
                         Shape{640, 640, 640}, Shape{256, 384, 640}})
    EXPECT_EQ(k::chooseWgmmaPlan(s, kH100), t64x64) << toString(s);
  for (const Shape& s : {Shape{768, 768, 768}, Shape{896, 896, 896}, Shape{1024, 1024, 1024}})
    EXPECT_EQ(k::chooseWgmmaPlan(s, kH100), (WgmmaPlan{64, 1, false})) << toString(s);
  for (const Shape& s : {Shape{1152, 1152, 1152}, Shape{1280, 1280, 1280}, Shape{1408, 1408, 1408}})
    EXPECT_EQ(k::chooseWgmmaPlan(s, kH100), (WgmmaPlan{128, 1, false})) << toString(s);
  for (const Shape& s : {Shape{1536, 1536, 1536}, Shape{2304, 2304, 2304}, Shape{3072, 3072, 3072},
                         Shape{1536, 1536, 4096}})
    EXPECT_EQ(k::chooseWgmmaPlan(s, kH100), (WgmmaPlan{192, 1, false})) << toString(s);
  for (const Shape& s : {Shape{2560, 2560, 2560}, Shape{2816, 2816, 2816}, Shape{3584, 3584, 3584},
                         Shape{4096, 4096, 4096}})
    EXPECT_EQ(k::chooseWgmmaPlan(s, kH100), (WgmmaPlan{256, 1, false})) << toString(s);
}

// Known answers of the wave model, worked by hand from its constants (ns).
TEST(WgmmaChoice, TheWaveModelCountsTheBusiestSmsTiles) {
  // 1152^3 on 128x128: 81 tiles, one each, 18 k blocks: 2640 + 18·383 = 9534; on 128x64: 162
  // tiles, two on the busiest SM: 2170 + 36·269 = 11854.
  EXPECT_DOUBLE_EQ(k::wgmmaWaveNs({1152, 1152, 1152}, 128, 128, kH100), 9534);
  EXPECT_DOUBLE_EQ(k::wgmmaWaveNs({1152, 1152, 1152}, 128, 64, kH100), 11854);
  // 512^3 on 64x64: 64 tiles, 8 k blocks: 2220 + 8·155 = 3460.
  EXPECT_DOUBLE_EQ(k::wgmmaWaveNs({512, 512, 512}, 64, 64, kH100), 3460);
  // 1536^3 on 128x192: 96 tiles, one each, 24 k blocks: 2350 + 24·522 = 14878.
  EXPECT_DOUBLE_EQ(k::wgmmaWaveNs({1536, 1536, 1536}, 128, 192, kH100), 14878);
  EXPECT_THROW((void)k::wgmmaWaveNs({512, 512, 512}, 64, 128, kH100), std::invalid_argument);
}

// A split grid runs in one wave: past the SMs a cluster split measured up to 2.4x slower than the
// whole tile (1152^3 in clusters of 3 on 81 tiles of 128x128: 21.1 against 8.9 us on an H200).
TEST(WgmmaChoice, ASplitGridFitsOneWave) {
  for (int sms : {8, 78, 132})
    for (int n : {64, 128, 255, 511, 1000, 1024, 1152})
      for (int kk : {256, 1025, 4096, 20000}) {
        const Shape s{n, n, kk};
        const WgmmaPlan p = k::chooseWgmmaPlan(s, sms);
        if (p.splits > 1) {
          EXPECT_LE(k::wgmmaTiles(s, p.tileN, p.tileM) * p.splits, sms)
              << toString(s) << " on " << sms << " SMs";
        }
      }
  // Small grids of long K still split: one 128x64 tile of K = 65536 in 8 (below).
  EXPECT_GT(k::chooseWgmmaPlan({128, 64, 65536}, kH100).splits, 1);
  // On the line too, a split the measured rule makes is kept over the wave model's whole tile:
  // 1024x1024x4096, 64 tiles of 128x128 in cluster splits of 2 (128 CTAs, one wave), as the
  // measured rule chooses it (not re-measured beside the wave model).
  EXPECT_EQ(k::chooseWgmmaPlan({1024, 1024, 4096}, kH100), (WgmmaPlan{128, 2, false, true}));
}

// Known answers of the cost model, worked by hand from its constants (ns; sgemm_wgmma_choice.cpp).
TEST(WgmmaChoice, AtTheMeasuredPartialCostTheGlobalWorkspaceNeverPays) {
  // 512^3: 32 tiles of 128x64, 8 k blocks: unsplit 1000 + 8·360 = 3880; 4 splits through the
  // workspace (128 units, one wave, 2 blocks each) 1000 + 2·360 + 4·2500 = 11720. Measured on an
  // H200: 4.4 against 10.5 µs.
  EXPECT_DOUBLE_EQ(k::wgmmaEstimateNs({512, 512, 512}, 64, 1, kH100), 3880);
  EXPECT_DOUBLE_EQ(k::wgmmaEstimateNs({512, 512, 512}, 64, 4, kH100), 11720);
  // 1024^3: 128x128 in 2 splits 2400 + 8·360 + 2·4100 = 13480 against 128x64 unsplit 6760.
  EXPECT_DOUBLE_EQ(k::wgmmaEstimateNs({1024, 1024, 1024}, 128, 2, kH100), 13480);
  for (const Shape& s : {Shape{512, 512, 512}, Shape{768, 768, 768}, Shape{1024, 1024, 1024},
                         Shape{1000, 1000, 1000}, Shape{256, 384, 640}, Shape{511, 513, 1025}})
    EXPECT_TRUE(k::chooseWgmmaPlan(s, kH100).splits == 1 ||
                k::chooseWgmmaPlan(s, kH100).clusterSplit)
        << toString(s);
}

// Split-K across a cluster costs one reduction through distributed shared memory and a cluster
// launch, measured on an H200 (kwb tune, PERF_NOTES.md "Split-K across a cluster: measured"):
// about 2.5 us for 128x64, 3.5 for 128x128, 5 for 128x256, and at most 3 CTAs a cluster (4 and
// more took a second wave). At those costs the model keeps whole K where the sweep measured
// whole K fastest and splits where it measured the split fastest.
TEST(WgmmaChoice, ClusterSplitsGoWhereTheSweepMeasuredThemFaster) {
  // 512^3: 128x64 in 3 (96 CTAs, 3 k blocks each): 1000 + 3·360 + 2500 = 4580 against 3880
  // whole (measured 4.9 against 4.4 us).
  EXPECT_DOUBLE_EQ(k::wgmmaEstimateNs({512, 512, 512}, 64, 3, kH100, true), 4580);
  EXPECT_EQ(k::chooseWgmmaPlan({512, 512, 512}, kH100).splits, 1);
  // 768^3, 1024^3, 1000^3, 256x384x640: whole K, as measured (5.3, 6.6, 11.1, 4.8 us against
  // the best cluster cell's 7.3, 8.5, 11.2, 4.7: within noise at 256x384x640, where the model's
  // 5% margin keeps whole K).
  for (const Shape& s : {Shape{768, 768, 768}, Shape{1024, 1024, 1024}, Shape{1000, 1000, 1000},
                         Shape{256, 384, 640}})
    EXPECT_EQ(k::chooseWgmmaPlan(s, kH100).splits, 1) << toString(s);
  // 511x513x1025: 36 tiles of 128x64, 17 k blocks: 3 splits (108 CTAs, at most 6 blocks each),
  // 1000 + 6·360 + 2500 = 5660 against 7120 whole (measured 17.5 against 20.2 us).
  EXPECT_DOUBLE_EQ(k::wgmmaEstimateNs({511, 513, 1025}, 64, 3, kH100, true), 5660);
  EXPECT_EQ(k::chooseWgmmaPlan({511, 513, 1025}, kH100), (WgmmaPlan{64, 3, false, true}));
  // 2048^3 fills the GPU with 128x256 tiles: whole K, as measured.
  EXPECT_EQ(k::chooseWgmmaPlan({2048, 2048, 2048}, kH100), (WgmmaPlan{256, 1, false}));
  // The default never asks for a cluster of more than 3, however long K: one 128x64 tile with
  // K = 65536 takes 8 splits through the workspace (1000 + 128·360 + 8·2500 = 67080) before a
  // cluster of 3 (1000 + 342·360 + 2500 = 126620).
  EXPECT_EQ(k::chooseWgmmaPlan({128, 64, 65536}, kH100), (WgmmaPlan{64, 8, false, false}));
  for (int n = 64; n <= 1024; n *= 2)
    for (int k = 256; k <= 8192; k *= 2) {
      const WgmmaPlan p = k::chooseWgmmaPlan({n, n, k}, kH100);
      EXPECT_TRUE(!p.clusterSplit || p.splits <= 3) << n << "x" << n << "x" << k;
    }
}

// Where the cluster's reduction would cost as much as the k blocks it saves, whole K stays: the
// 5% margin (1024x1024x256: 128 tiles of 128x64 fill the GPU, 4 k blocks each).
TEST(WgmmaChoice, AClusterSplitThatDoesNotWinByTheMarginIsNotChosen) {
  const Shape s{1024, 1024, 256};
  EXPECT_EQ(k::chooseWgmmaPlan(s, kH100), (WgmmaPlan{64, 1, false}));
  // 64 tiles of 128x128 in 2: 2400 + 2·360 + 3500 = 6620 against 1000 + 4·360 = 2440.
  EXPECT_DOUBLE_EQ(k::wgmmaEstimateNs(s, 128, 2, kH100, true), 6620);
}

// The compute-sanitizer tests (tests/gpu/sanitizer_test.cpp) run the registered kernels' default
// plans: at 144x80x1024 (memcheck, racecheck, initcheck) and 65x33x1029 (memcheck) that is the
// cluster split, so its distributed shared memory is checked on H100 and H200 (132 SMs).
TEST(WgmmaChoice, TheSanitizerShapesReachTheClusterSplit) {
  for (const Shape& s : {Shape{144, 80, 1024}, Shape{65, 33, 1029}}) {
    const WgmmaPlan p = k::chooseWgmmaPlan(s, kH100);
    EXPECT_TRUE(p.clusterSplit && p.splits > 1) << toString(s);
  }
}

TEST(WgmmaChoice, ShortKNeverSplits) {
  for (const Shape& s : {Shape{17, 19, 23}, Shape{64, 6, 3}, Shape{1, 1, 1}, Shape{512, 512, 64},
                         Shape{128, 1, 128}, Shape{1000, 1000, 100}}) {
    const WgmmaPlan p = k::chooseWgmmaPlan(s, kH100);
    EXPECT_LE(p.splits * 2, std::max<std::int64_t>(2, k::wgmmaKBlocks(s))) << toString(s);
  }
  EXPECT_EQ(k::chooseWgmmaPlan({17, 19, 23}, kH100).splits, 1);
}

// Over a grid of shapes and GPUs: a chosen plan is one its K can run as chosen (every split at
// least one k block, no more than 8), clusters only unsplit (128x256 pairs sharing B; pairs
// sharing A or 2x2 of 128x64 and 128x128, never wholly past M or N), and a split plan only where
// the model puts it 5% ahead of the whole-K width rule's tile.
TEST(WgmmaChoice, EveryChoiceIsRunnableAsChosen) {
  const int dims[] = {1, 17, 64, 128, 255, 511, 768, 1000, 1024, 3000};
  const int ks[] = {1, 23, 64, 65, 128, 200, 640, 1025, 4096, 20000};
  for (int sms : {1, 8, 78, 114, 132, 144})
    for (int m : dims)
      for (int n : dims)
        for (int kk : ks) {
          const Shape s{m, n, kk};
          const WgmmaPlan p = k::chooseWgmmaPlan(s, sms);
          SCOPED_TRACE(toString(s) + " on " + std::to_string(sms) + " SMs");
          EXPECT_NO_THROW(k::requireWgmmaTile(p.tileM, p.tileN));
          if (p.tileM != k::kWgmmaTileM) {  // a 64-row tile: unsplit, clusters only 128 wide
            EXPECT_TRUE(p.tileM == k::kWgmmaShortTileM && p.splits == 1 && !p.clusterSplit &&
                        !p.sharesA && p.clusters == (p.tileN == 128));
          }
          EXPECT_GE(p.splits, 1);
          EXPECT_LE(p.splits, k::kWgmmaMaxSplits);
          EXPECT_LE(p.splits, k::wgmmaKBlocks(s));
          if (p.clusterSplit) {  // balanced ranges: none empty while S <= k blocks
            EXPECT_GT(p.splits, 1);
            EXPECT_EQ(k::wgmmaEffectiveClusterSplits(s, p.splits), p.splits);
            EXPECT_FALSE(p.clusters);  // the split's cluster is its own, not the 2-CTA B share
            EXPECT_EQ(k::wgmmaPartialBytes(s, p), 0u);
          } else {
            EXPECT_EQ(k::wgmmaEffectiveSplits(s, p.splits), p.splits);
            EXPECT_LT((p.splits - 1) * k::wgmmaKBlocksPerSplit(s, p.splits), k::wgmmaKBlocks(s));
          }
          if (p.clusters) {  // 128x256 or 64x128 pairs sharing B, or 2x2 of 128x64 or 128x128
            EXPECT_TRUE((p.tileN == 256 && p.tileM == k::kWgmmaTileM) ||
                        (p.tileN == 128 && p.tileM == k::kWgmmaShortTileM) ||
                        (p.sharesA && (p.tileN == 64 || p.tileN == 128)));
            EXPECT_EQ(p.splits, 1);
          }
          if (p.sharesA) {  // pairs sharing A (or 2x2): 128 rows, unsplit, at least two tiles
            EXPECT_EQ(p.tileM, k::kWgmmaTileM);
            EXPECT_TRUE(p.tileN == 64 || p.tileN == 128);
            EXPECT_EQ(p.splits, 1);
            EXPECT_FALSE(p.clusterSplit);
            EXPECT_GT(s.n, p.tileN);
            if (p.clusters) {
              EXPECT_GT(s.m, k::kWgmmaTileM);
            }
          }
          if (p.splits > 1) {
            // One k block never splits: the choice at K = 64 is the whole-K width rule's.
            const WgmmaPlan whole = k::chooseWgmmaPlan({m, n, 64}, sms);
            EXPECT_EQ(whole.splits, 1);
            EXPECT_LT(k::wgmmaEstimateNs(s, p.tileN, p.splits, sms, p.clusterSplit),
                      0.95 * k::wgmmaEstimateNs(s, whole.tileN, 1, sms));
          }
        }
}

TEST(WgmmaChoice, SplitsAreWholeKBlocksAndNeverEmpty) {
  EXPECT_EQ(k::wgmmaKBlocks({8, 8, 1025}), 17);
  EXPECT_EQ(k::wgmmaEffectiveSplits({8, 8, 23}, 8), 1);    // K < 64: one block
  EXPECT_EQ(k::wgmmaEffectiveSplits({8, 8, 128}, 8), 2);   // 2 blocks: 2 splits of one
  EXPECT_EQ(k::wgmmaEffectiveSplits({8, 8, 1025}, 8), 6);  // 3 blocks each: 6 ranges
  EXPECT_EQ(k::wgmmaEffectiveSplits({8, 8, 1025}, 7), 6);  // the same ranges as 8
  EXPECT_EQ(k::wgmmaEffectiveSplits({8, 8, 1025}, 5), 5);  // 4, 4, 4, 4, 1
  EXPECT_EQ(k::wgmmaEffectiveSplits({8, 8, 1025}, 0), 1);
  EXPECT_EQ(k::wgmmaEffectiveSplits({8, 8, 4096}, 12), 8);  // at most 8
  for (int kk = 1; kk <= 1200; ++kk)
    for (int sp = 1; sp <= 8; ++sp) {
      const Shape s{8, 8, kk};
      const int eff = k::wgmmaEffectiveSplits(s, sp);
      const std::int64_t per = k::wgmmaKBlocksPerSplit(s, eff);
      ASSERT_LE(eff, sp) << kk;
      ASSERT_GE(eff * per, k::wgmmaKBlocks(s)) << kk << " " << sp;        // K covered
      ASSERT_LT((eff - 1) * per, k::wgmmaKBlocks(s)) << kk << " " << sp;  // last range not empty
    }
}

TEST(WgmmaChoice, ForcedPlansRunWhatTheShapeAllows) {
  EXPECT_EQ(k::forcedWgmmaPlan({512, 512, 512}, 128, 4, kH100), (WgmmaPlan{128, 4, false}));
  EXPECT_EQ(k::forcedWgmmaPlan({17, 19, 23}, 64, 8, kH100), (WgmmaPlan{64, 1, false}));
  EXPECT_EQ(k::forcedWgmmaPlan({8192, 8192, 8192}, 256, 1, kH100), (WgmmaPlan{256, 1, true}));
  EXPECT_EQ(k::forcedWgmmaPlan({8192, 8192, 8192}, 256, 2, kH100), (WgmmaPlan{256, 2, false}));
  // 8192^3 in 8 splits of 128x64 tiles would need 2 GiB of partial tiles: it runs unsplit.
  EXPECT_EQ(k::forcedWgmmaPlan({8192, 8192, 8192}, 64, 8, kH100), (WgmmaPlan{64, 1, false}));
  // Across a cluster: no workspace, so no size limit; S at most the k blocks, balanced ranges.
  EXPECT_EQ(k::forcedWgmmaPlan({8192, 8192, 8192}, 64, 8, kH100, true),
            (WgmmaPlan{64, 8, false, true}));
  EXPECT_EQ(k::forcedWgmmaPlan({300, 200, 130}, 128, 4, kH100, true),  // 3 k blocks
            (WgmmaPlan{128, 3, false, true}));
  EXPECT_EQ(k::forcedWgmmaPlan({17, 19, 23}, 64, 4, kH100, true), (WgmmaPlan{64, 1, false}));
  EXPECT_EQ(k::forcedWgmmaPlan({512, 512, 512}, 256, 1, kH100, true), (WgmmaPlan{256, 1, false}));
}

TEST(WgmmaChoice, ClusterSplitsAreBalancedAndNeverEmpty) {
  EXPECT_EQ(k::wgmmaEffectiveClusterSplits({8, 8, 23}, 4), 1);     // one k block
  EXPECT_EQ(k::wgmmaEffectiveClusterSplits({8, 8, 130}, 4), 3);    // 3 blocks: 3 ranges of one
  EXPECT_EQ(k::wgmmaEffectiveClusterSplits({8, 8, 320}, 4), 4);    // 5 blocks: 1, 1, 1, 2
  EXPECT_EQ(k::wgmmaEffectiveClusterSplits({8, 8, 4096}, 12), 8);  // at most 8
  EXPECT_EQ(k::wgmmaEffectiveClusterSplits({8, 8, 4096}, 0), 1);
  for (int kk = 1; kk <= 1200; ++kk)
    for (int sp = 1; sp <= 8; ++sp) {
      const Shape s{8, 8, kk};
      const int eff = k::wgmmaEffectiveClusterSplits(s, sp);
      const std::int64_t kb = k::wgmmaKBlocks(s);
      ASSERT_LE(eff, sp) << kk;
      for (int z = 0; z < eff; ++z)  // the kernel's ranges: [z·kb / S, (z+1)·kb / S)
        ASSERT_LT(z * kb / eff, (z + 1) * kb / eff) << kk << " " << sp << " split " << z;
    }
}

TEST(WgmmaChoice, WorkspaceHoldsEverySplitsPartialTiles) {
  const Shape s{511, 513, 1025};  // 4 x 9 tiles of 128x64
  EXPECT_EQ(k::wgmmaPartialBytes(s, {64, 1, false}), 0u);
  EXPECT_EQ(k::wgmmaCounterBytes(s, {64, 1, false}), 0u);
  EXPECT_EQ(k::wgmmaPartialBytes(s, {64, 3, false}), 36u * 3 * 128 * 64 * 4);
  EXPECT_EQ(k::wgmmaCounterBytes(s, {64, 3, false}), 36u * 8 * 4);
  EXPECT_EQ(k::wgmmaPartialBytes(s, {64, 3, false, true}), 0u);  // across a cluster: none
  EXPECT_EQ(k::wgmmaCounterBytes(s, {64, 3, false, true}), 0u);
}

TEST(WgmmaChoice, EveryPlanNamesWhatRan) {
  // The names launches reported before split-K, unchanged.
  EXPECT_EQ(k::wgmmaRanName({256, 1, false}, false), "sgemm.wgmma");
  EXPECT_EQ(k::wgmmaRanName({256, 1, false}, true), "sgemm.wgmma (A/B re-laid for TMA)");
  EXPECT_EQ(k::wgmmaRanName({256, 1, true}, false),
            "sgemm.wgmma (128x256 tile, clusters of 2 sharing B)");
  EXPECT_EQ(k::wgmmaRanName({64, 1, false}, false), "sgemm.wgmma (128x64 tile)");
  // The BF16 stage's launches carry its own id.
  EXPECT_EQ(k::wgmmaRanName({256, 1, false}, false, true), "sgemm.wgmma_bf16");
  EXPECT_EQ(k::wgmmaRanName({64, 1, false}, true, true),
            "sgemm.wgmma_bf16 (128x64 tile, A/B re-laid for TMA)");
  EXPECT_EQ(k::wgmmaRanName({128, 1, false}, true),
            "sgemm.wgmma (128x128 tile, A/B re-laid for TMA)");
  // Clusters sharing A, and 2x2 sharing A and B, say so (sharedAWgmmaPlan's plans).
  EXPECT_EQ(k::wgmmaRanName(k::sharedAWgmmaPlan(64), false),
            "sgemm.wgmma (128x64 tile, clusters of 2 sharing A)");
  EXPECT_EQ(k::wgmmaRanName(k::sharedAWgmmaPlan(48), true, true),
            "sgemm.wgmma_bf16 (128x48 tile, clusters of 2 sharing A, A/B re-laid for TMA)");
  EXPECT_EQ(k::wgmmaRanName(k::sharedAWgmmaPlan(128, true), false),
            "sgemm.wgmma (128x128 tile, 2x2 clusters sharing A and B)");
  EXPECT_THROW((void)k::sharedAWgmmaPlan(192), std::invalid_argument);
  EXPECT_THROW((void)k::sharedAWgmmaPlan(48, true), std::invalid_argument);
  // Split-K says its count.
  EXPECT_EQ(k::wgmmaRanName({64, 4, false}, false), "sgemm.wgmma (128x64 tile, split-K 4)");
  EXPECT_EQ(k::wgmmaRanName({256, 2, false}, true),
            "sgemm.wgmma (128x256 tile, split-K 2, A/B re-laid for TMA)");
  EXPECT_EQ(k::wgmmaRanName({64, 4, false, true}, false),
            "sgemm.wgmma (128x64 tile, cluster split-K 4)");
  EXPECT_EQ(k::wgmmaRanName({128, 3, false, true}, true, true),
            "sgemm.wgmma_bf16 (128x128 tile, cluster split-K 3, A/B re-laid for TMA)");
  // The 64-row tile names its height.
  EXPECT_EQ(k::wgmmaRanName({64, 1, false, false, 64}, false), "sgemm.wgmma (64x64 tile)");
  EXPECT_EQ(k::wgmmaRanName({64, 1, false, false, 64}, true),
            "sgemm.wgmma (64x64 tile, A/B re-laid for TMA)");
  EXPECT_EQ(k::wgmmaRanName({64, 1, false, false, 64}, false, true),
            "sgemm.wgmma_bf16 (64x64 tile)");
  EXPECT_EQ(k::wgmmaRanName({96, 1, false, false, 64}, false), "sgemm.wgmma (64x96 tile)");
  EXPECT_EQ(k::wgmmaRanName({96, 1, false, false, 64}, true, true),
            "sgemm.wgmma_bf16 (64x96 tile, A/B re-laid for TMA)");
  // The 128-row tile's unsplit-only width names its tile.
  EXPECT_EQ(k::wgmmaRanName({192, 1, false}, false), "sgemm.wgmma (128x192 tile)");
  EXPECT_EQ(k::wgmmaRanName({192, 1, false}, true, true),
            "sgemm.wgmma_bf16 (128x192 tile, A/B re-laid for TMA)");
  std::set<std::string> names;
  int plans = 0;
  for (int w : {64, 128, 256})
    for (int sp = 1; sp <= k::kWgmmaMaxSplits; ++sp)
      for (bool cluster : {false, true})
        for (bool relaid : {false, true}) {
          if (cluster && sp == 1) continue;  // an unsplit plan has no cluster split
          names.emplace(k::wgmmaRanName({w, sp, false, cluster}, relaid));
          ++plans;
        }
  for (int w : {64, 96})
    for (bool relaid : {false, true}) {
      names.emplace(k::wgmmaRanName({w, 1, false, false, 64}, relaid));
      ++plans;
    }
  for (int w : {192, 48})
    for (bool relaid : {false, true}) {
      names.emplace(k::wgmmaRanName({w, 1, false}, relaid));
      ++plans;
    }
  EXPECT_EQ(names.size(), std::size_t(plans)) << "two plans report the same name";
  for (const std::string& n : names) EXPECT_EQ(n.rfind("sgemm.wgmma", 0), 0u) << n;
}

// The 64-row tile (64x64, one consumer warpgroup, two CTAs per SM) is an option of the forced
// plans: whole K, no clusters, whatever splits are asked for; the 128-row plans are unchanged. The
// 64x128 tile runs whole K in pairs sharing B, and is named so.
TEST(WgmmaChoice, The64RowTileIsForcedUnsplitAndUnclustered) {
  const WgmmaPlan pairs{128, 1, true, false, 64};
  for (int splits : {1, 4})
    for (bool clusterSplit : {false, true})
      EXPECT_EQ(k::forcedWgmmaPlan({1000, 1000, 1000}, 128, splits, kH100, clusterSplit, 64),
                pairs);
  EXPECT_EQ(k::wgmmaRanName(pairs, false), "sgemm.wgmma (64x128 tile, clusters of 2 sharing B)");
  EXPECT_EQ(k::wgmmaRanName(pairs, false, true),
            "sgemm.wgmma_bf16 (64x128 tile, clusters of 2 sharing B)");
  EXPECT_EQ(WgmmaPlan{}.tileM, 128);
  EXPECT_EQ(k::forcedWgmmaPlan({512, 512, 512}, 64, 1, kH100).tileM, 128);  // the default height
  const WgmmaPlan short64{64, 1, false, false, 64};
  for (const Shape& s : {Shape{17, 19, 23}, Shape{512, 512, 512}, Shape{511, 513, 1025},
                         Shape{2048, 2048, 512}, Shape{8192, 8192, 8192}}) {
    for (int splits : {1, 2, 4, 8})
      for (bool clusterSplit : {false, true})
        EXPECT_EQ(k::forcedWgmmaPlan(s, 64, splits, kH100, clusterSplit, 64), short64)
            << toString(s) << " in " << splits << (clusterSplit ? " cluster" : "") << " splits";
    EXPECT_EQ(k::wgmmaPartialBytes(s, short64), 0u);
    EXPECT_EQ(k::wgmmaCounterBytes(s, short64), 0u);
  }
}

// The 128x192 and 128x48 tiles (B in three slabs, or part of one) run whole K and unclustered,
// whatever is asked, even where the 128x256 tile would run in clusters (8192^3); 64, 128 and 256
// still split.
TEST(WgmmaChoice, The192And48WideTilesAreForcedUnsplitAndUnclustered) {
  for (int w : {192, 48})
    for (const Shape& s : {Shape{17, 19, 23}, Shape{1000, 1000, 1000}, Shape{8192, 8192, 8192}})
      for (int splits : {1, 2, 8})
        for (bool clusterSplit : {false, true}) {
          const WgmmaPlan p = k::forcedWgmmaPlan(s, w, splits, kH100, clusterSplit);
          EXPECT_EQ(p, (WgmmaPlan{w, 1, false, false, 128}))
              << w << " wide, " << toString(s) << " in " << splits << " splits";
          EXPECT_EQ(k::wgmmaPartialBytes(s, p), 0u);
        }
  EXPECT_EQ(k::forcedWgmmaPlan({1000, 1000, 1000}, 128, 2, kH100).splits, 2);
  EXPECT_EQ(k::wgmmaTiles({3000, 3000, 3000}, 192), 24 * 16);
}

TEST(WgmmaChoice, TileHeightIsPartOfThePlan) {
  const WgmmaPlan tall{64, 1, false}, short64{64, 1, false, false, 64};
  EXPECT_NE(tall, short64);
  EXPECT_EQ(short64, (WgmmaPlan{64, 1, false, false, 64}));
  EXPECT_NE(k::wgmmaRanName(tall, false), k::wgmmaRanName(short64, false));
  // Tiles of 64 rows: twice the 128-row grid's where M is a multiple of 128.
  EXPECT_EQ(k::wgmmaTiles({2048, 2048, 512}, 64, 64), 1024);
  EXPECT_EQ(k::wgmmaTiles({2048, 2048, 512}, 64), 512);
  EXPECT_EQ(k::wgmmaTiles({17, 19, 23}, 64, 64), 1);
  EXPECT_EQ(k::wgmmaTiles({1000, 1001, 1000}, 64, 64), 16 * 16);
}

// The tiles the kernel has: 128 x 48, 64, 128, 192, 256 and 64 x 64, 96, 128; any other is refused
// by name.
TEST(WgmmaChoice, OnlyTheKernelsTilesAreAccepted) {
  for (int n : {48, 64, 128, 192, 256}) EXPECT_NO_THROW(k::requireWgmmaTile(128, n)) << n;
  EXPECT_NO_THROW(k::requireWgmmaTile(64, 64));
  EXPECT_NO_THROW(k::requireWgmmaTile(64, 96));
  EXPECT_NO_THROW(k::requireWgmmaTile(64, 128));
  auto message = [](int m, int n) {
    try {
      k::requireWgmmaTile(m, n);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no exception");
  };
  EXPECT_EQ(message(96, 64), "sgemm.wgmma: no 96x64 tile (block tiles are 128 or 64 rows high)");
  EXPECT_EQ(message(256, 64), "sgemm.wgmma: no 256x64 tile (block tiles are 128 or 64 rows high)");
  EXPECT_EQ(message(0, 64), "sgemm.wgmma: no 0x64 tile (block tiles are 128 or 64 rows high)");
  EXPECT_EQ(message(64, 48), "sgemm.wgmma: no 64x48 tile (the 64-row tile is 64, 96 or 128 wide)");
  EXPECT_EQ(message(64, 256),
            "sgemm.wgmma: no 64x256 tile (the 64-row tile is 64, 96 or 128 wide)");
  EXPECT_EQ(message(128, 96), "sgemm.wgmma: no 128x96 tile (48, 64, 128, 192 or 256)");
  EXPECT_EQ(message(128, 32), "sgemm.wgmma: no 128x32 tile (48, 64, 128, 192 or 256)");
}

// The launcher refuses a tile it does not have before any GPU work (so no GPU is needed here).
TEST(WgmmaChoice, TheLauncherRefusesBadTileHeights) {
#ifndef KWB_HAVE_WGMMA
  GTEST_SKIP() << "launchSgemmWgmmaPlan is built only for sm_90a (CMAKE_CUDA_ARCHITECTURES naming "
                  "90a)";
#else
  const kwb::GemmArgs g{};
  EXPECT_THROW(k::launchSgemmWgmmaPlan(g, 64, 1, false, 96), std::invalid_argument);
  EXPECT_THROW(k::launchSgemmWgmmaPlan(g, 64, 1, false, 256), std::invalid_argument);
  EXPECT_THROW(k::launchSgemmWgmmaPlan(g, 128, 1, false, 64), std::invalid_argument);
  EXPECT_THROW(k::launchSgemmWgmmaPlan(g, 32, 1), std::invalid_argument);
#endif
}

}  // namespace
