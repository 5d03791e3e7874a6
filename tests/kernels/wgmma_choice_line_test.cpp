// SPDX-License-Identifier: Apache-2.0
// sgemm.wgmma's choice where rows of A or B start off the 128-byte line as they lie
// (kernels/sgemm_wgmma_choice.h): the clusters that share operands, the widest tile covering
// half the SMs, the 64-row tiles, when a split is kept, and which operands are copied to rows
// on the line first (detail/half_restride.h). Host data by shape and SM count. No GPU.
#include <gtest/gtest.h>

#include "detail/half_restride.h"
#include "sgemm_wgmma_choice.h"

namespace {

using kwb::Shape;
using kwb::kernels::WgmmaPlan;
namespace k = kwb::kernels;

constexpr int kH100 = 132;

// Rows off the 128-byte line (N or K not a multiple of 64, loaded as they lie): 128x64 or 128x128
// in clusters of two sharing A where that grid is one wave of at least 7/8 of the SMs (116 to
// 132 tiles); else 2x2 clusters sharing A and B of 128x128, or of 128x64 where rows also start
// off the 32-byte sectors, whose grid in whole clusters gives half the SMs (66 of 132) a CTA in
// one wave; else the widest of 128x256 and 128x128 whose grid gives 15/32 of the SMs (62 of 132)
// a tile, else a 64-row tile (64x96 where only its grid fits the SMs, else 64x64). Measured on an
// H100 (kwb tune --kernel sgemm.wgmma, 2026-11-28), each unclustered choice ran fastest (or within
// 1%) among the unsplit tiles; 128x64 was 15-55% slower. On an H200 (2026-12-02) the clusters
// ran 1000^3 15% faster than 128x128 (pairs), 1400^3 13% faster than 128x256 (pairs), 1032^3
// 26% and 840^3 29% faster than the unclustered choice (2x2). Where 128x64 would run in either,
// the 64x128 tile runs in pairs sharing B if its grid in whole pairs fits the SMs: on an H200
// (2026-12-03) 1000^3 6.4%, 900x1000x1000 15% and 800x800x1000 16% faster.
TEST(WgmmaChoice, OffTheLineTheWidestTileCoveringHalfTheSms) {
  const WgmmaPlan t64x64{64, 1, false, false, k::kWgmmaShortTileM};
  const WgmmaPlan pairsB{128, 1, true, false, k::kWgmmaShortTileM};
  WgmmaPlan pairs64{64, 1, false}, pairs128{128, 1, false};
  pairs64.sharesA = pairs128.sharesA = true;
  WgmmaPlan quads128 = pairs128;  // 2x2 of 128x64 gives way to 64x128's pairs, whose grid fits
  quads128.clusters = true;
  for (const Shape& s : {Shape{1000, 1000, 1000}, Shape{1024, 1024, 1000}, Shape{1024, 1000, 1000},
                         Shape{1000, 1000, 200}, Shape{1000, 1000, 64}, Shape{1000, 1000, 2000},
                         Shape{1000, 960, 1000}, Shape{904, 904, 904}, Shape{900, 1000, 1000}})
    EXPECT_EQ(k::chooseWgmmaPlan(s, kH100), pairsB) << toString(s);
  // 128 CTAs of 64x128: more than an H100 PCIe's 114 SMs, so the pairs of 128x64 sharing A
  // (its 128 tiles are not 7/8 of 114 either: 2x2 of 128x128, 64 CTAs).
  EXPECT_EQ(k::chooseWgmmaPlan({1000, 1000, 1000}, 114), quads128);
  // On 124 SMs 1000x960x1000's 120 tiles of 128x64 are 7/8 of them, its 128 CTAs of 64x128 too
  // many: the pairs of 128x64 sharing A.
  EXPECT_EQ(k::chooseWgmmaPlan({1000, 960, 1000}, 124), pairs64);
  for (const Shape& s : {Shape{1400, 1400, 1400}, Shape{1352, 1352, 1352}, Shape{2000, 1000, 1000}})
    EXPECT_EQ(k::chooseWgmmaPlan(s, kH100), pairs128) << toString(s);
  // 7/8 of the SMs: 1000^3's 128 tiles of 128x64 and 1400^3's 121 of 128x128 are enough; 1200^3's
  // 100 of 128x128 and 840^3's 98 of 128x64 are not, nor are 2000^3's 256 of 128x128 one wave.
  EXPECT_EQ(k::wgmmaTiles({1000, 1000, 1000}, 64), 128);
  EXPECT_EQ(k::wgmmaTiles({1400, 1400, 1400}, 128), 121);
  EXPECT_EQ(k::wgmmaTiles({1200, 1200, 1200}, 128), 100);
  EXPECT_EQ(k::wgmmaTiles({840, 840, 840}, 64), 98);
  // 2x2: 128x128 on or off the sectors (1200^3's 100 CTAs, 1200x1000x1000's 80, 1032^3's 100);
  // where 2x2 of 128x64 would run off them (840^3: 8 x 14 CTAs; 768x768x1000, K = 1000: 6 x 12),
  // the pairs of 64x128 (98 and 72 CTAs).
  for (const Shape& s : {Shape{1200, 1200, 1200}, Shape{1200, 1000, 1000}, Shape{1032, 1032, 1032}})
    EXPECT_EQ(k::chooseWgmmaPlan(s, kH100), quads128) << toString(s);
  for (const Shape& s : {Shape{840, 840, 840}, Shape{768, 768, 1000}, Shape{800, 800, 1000}})
    EXPECT_EQ(k::chooseWgmmaPlan(s, kH100), pairsB) << toString(s);
  // On the sectors 128x64 in 2x2 lost (800^3, 880^3). 2x2 grids past 7/8 of the SMs risk a
  // second wave (30 clusters of four fit an H200 at once): 1400x1200x1000's 120 CTAs run its 110
  // tiles of 128x128 unclustered.
  EXPECT_FALSE(k::chooseWgmmaPlan({880, 880, 880}, kH100).sharesA);
  EXPECT_EQ(k::chooseWgmmaPlan({1400, 1200, 1000}, kH100), (WgmmaPlan{128, 1, false}));
  EXPECT_EQ(k::wgmmaTiles({1400, 1200, 1000}, 128), 110);
  for (const Shape& s : {Shape{1536, 1536, 1000}, Shape{2000, 2000, 2000}, Shape{4000, 4000, 1000}})
    EXPECT_EQ(k::chooseWgmmaPlan(s, kH100), (WgmmaPlan{256, 1, false})) << toString(s);
  const WgmmaPlan t64x96{96, 1, false, false, k::kWgmmaShortTileM};
  EXPECT_EQ(k::chooseWgmmaPlan({640, 640, 1000}, kH100), t64x64);  // 100 tiles fit the SMs
  // More than one 64x64 CTA per SM (169 tiles), and one 64x96 CTA (117): 64x96, measured faster on
  // an H200. On 114 SMs (an H100 PCIe) 800^3's 64 CTAs of 128x128 in 2x2 are more than half.
  EXPECT_EQ(k::chooseWgmmaPlan({800, 800, 800}, kH100), t64x96);
  EXPECT_EQ(k::chooseWgmmaPlan({800, 800, 800}, 114), quads128);
  EXPECT_EQ(k::wgmmaTiles({800, 800, 800}, 64, k::kWgmmaShortTileM), 169);
  EXPECT_EQ(k::wgmmaTiles({800, 800, 800}, 96, k::kWgmmaShortTileM), 117);
  // The edge of 15/32: 128x256's 66 tiles at 1400^3 would be enough (pairs of 128x128 come
  // first), its 50 at 1200^3 are not; 1536x1536x1000's 72 (one wave of 144 CTAs in 2x2 or in
  // pairs would not fit) run unclustered.
  EXPECT_EQ(k::wgmmaTiles({1400, 1400, 1400}, 256), 66);
  EXPECT_EQ(k::wgmmaTiles({1200, 1200, 1200}, 256), 50);
  EXPECT_EQ(k::wgmmaTiles({1536, 1536, 1000}, 256), 72);
}

// Off the line, the split rule's split is kept only where the whole tile leaves half the SMs
// without a tile: 640x640x1000's 100 tiles of 64x64 do not (the split 35% slower), nor do
// 1000x1000x4000's 128 CTAs of 64x128 in pairs sharing B.
TEST(WgmmaChoice, OffTheLineASplitNeedsIdleSms) {
  EXPECT_EQ(k::chooseWgmmaPlan({1000, 1000, 4000}, kH100).tileM, k::kWgmmaShortTileM);
  EXPECT_TRUE(k::chooseWgmmaPlan({1000, 1000, 4000}, kH100).clusters);
  EXPECT_EQ(k::chooseWgmmaPlan({1000, 1000, 4000}, kH100).splits, 1);
  EXPECT_EQ(k::chooseWgmmaPlan({640, 640, 1000}, kH100).splits, 1);
  // A long K over few tiles still splits: 16 tiles of 64x64.
  EXPECT_GT(k::chooseWgmmaPlan({256, 256, 8000}, kH100).splits, 1);
}

// Operands copied to 64-element rows (K or N not a multiple of 8) are on the line as loaded: the
// wave model chooses. 1000x1001x1000 and 500^3 measured fastest unsplit on the tile it picks
// (128x64 and 64x64); 511x513x1025 keeps its cluster split; 1500^3 makes 1536^3's grids (96 tiles
// of 128x192 in one wave, where 128x192 measured 23% faster than 128x256).
TEST(WgmmaChoice, CopiedOperandsAreOnTheLine) {
  EXPECT_EQ(k::chooseWgmmaPlan({1000, 1001, 1000}, kH100), (WgmmaPlan{64, 1, false}));
  EXPECT_EQ(k::chooseWgmmaPlan({500, 500, 500}, kH100),
            (WgmmaPlan{64, 1, false, false, k::kWgmmaShortTileM}));
  EXPECT_EQ(k::chooseWgmmaPlan({1500, 1500, 1500}, kH100), (WgmmaPlan{192, 1, false}));
  EXPECT_EQ(k::chooseWgmmaPlan({511, 513, 1025}, kH100), (WgmmaPlan{64, 3, false, true}));
}

// Large products whose A and B rows both start off the 32-byte sectors (K and N ≡ 8 mod 16) are
// loaded as they lie, in 2x2 clusters of 128x128 however many waves: on an H200 faster than the
// copy to 64-element rows they replace at 8 of 10 such shapes (3000^3 4.6%, 5000^3 9.7%,
// 1000x1000x5000 19%, ahead of its split too), 1.1% slower at 2000x3000x3000. Where the pairs
// sharing A or a one-wave 2x2 fit, those come first (2000x1000x3000: pairs, 18% faster than the
// copy). Below the product, or on the sectors, the rules before run (2000^3: 2x2 27% slower).
TEST(WgmmaChoice, LargeProductsOffTheSectorsRunIn2x2AsTheyLie) {
  namespace d = kwb::kernels::detail;
  EXPECT_EQ(d::relayMultiple(3000, 3000), 8);  // loaded as they lie
  EXPECT_EQ(d::relayMultiple(1000, 1000), 8);
  EXPECT_EQ(d::relayMultiple(1001, 1000), 64);  // TMA cannot load B as it lies
  EXPECT_EQ(d::relayMultiple(1000, 1025), 64);  // nor A
  const WgmmaPlan quads128 = k::sharedAWgmmaPlan(128, true);
  for (const Shape& s : {Shape{3000, 3000, 3000}, Shape{3000, 3000, 1000}, Shape{4000, 1000, 3000},
                         Shape{5000, 5000, 5000}, Shape{5000, 1000, 1000}, Shape{8000, 1000, 1000},
                         Shape{1000, 3000, 3000}, Shape{1000, 1000, 5000}, Shape{2000, 3000, 3000}})
    EXPECT_EQ(k::chooseWgmmaPlan(s, kH100), quads128) << toString(s);
  WgmmaPlan pairs128{128, 1, false};
  pairs128.sharesA = true;
  EXPECT_EQ(k::chooseWgmmaPlan({2000, 1000, 3000}, kH100), pairs128);
  // Below 4e9, on the sectors in K or N, or on the line: not this rule.
  EXPECT_FALSE(k::chooseWgmmaPlan({1000, 1000, 3000}, kH100) == quads128);
  EXPECT_EQ(k::chooseWgmmaPlan({4000, 4000, 1000}, kH100), (WgmmaPlan{256, 1, false}));
  EXPECT_EQ(k::chooseWgmmaPlan({3000, 4000, 3000}, kH100).sharesA, false);
  EXPECT_EQ(k::chooseWgmmaPlan({2000, 2000, 2000}, kH100), (WgmmaPlan{256, 1, false}));
  EXPECT_EQ(k::chooseWgmmaPlan({3072, 3072, 3072}, kH100).sharesA, false);
}

}  // namespace
