// SPDX-License-Identifier: Apache-2.0
// sgemm.wgmma's split-K, through the global workspace (kernels/detail/wgmma_splitk.cuh) and across
// a cluster (kernels/sgemm_wgmma_cluster_split.cu), with the split count forced from 1 to 8 on
// each block tile width, through the whole verification pipeline (canary, cuBLAS reference,
// negative control, C full of NaN at beta = 0, alpha and beta != 0): ragged shapes, K shorter
// than splits × 64 (fewer splits run, and the name says how many), and the same bits on every
// launch whichever split arrives last. Also the optional 64x64 tile (one consumer warpgroup, two
// CTAs per SM), which runs unsplit, through the same pipeline.
#include <cuda_runtime_api.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "sgemm_support.h"
#include "wgmma_forced.h"

using kwb::KernelDescriptor;
using kwb::Shape;
using kwb::test::kSeed;
using kwb::test::session;
#ifdef KWB_HAVE_WGMMA
using kwb::test::forcedKernel;
using kwb::test::launchBits;
using kwb::test::sharedAKernel;
using kwb::test::shortTileKernel;
using kwb::test::wholeTileKernel;
#endif

namespace {

class WgmmaSplitK : public kwb::test::WgmmaTest {};

#ifdef KWB_HAVE_WGMMA

int multiprocessors() {
  int sms = 0;
  EXPECT_EQ(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), cudaSuccess);
  return sms;
}

// What ran, as the case's name says: "split-K S" (across a cluster: "cluster split-K S") exactly
// when S > 1 splits ran, and the name the plan gives.
void expectRanPlan(const kwb::CaseResult& c, const kwb::kernels::WgmmaPlan& plan, bool cluster) {
  if (plan.splits > 1) {
    const std::string want =
        (cluster ? "cluster split-K " : "split-K ") + std::to_string(plan.splits);
    EXPECT_NE(c.ranKernel.find(want), std::string::npos) << c.ranKernel;
  } else {
    EXPECT_EQ(c.ranKernel.find("split-K"), std::string::npos) << c.ranKernel;
  }
  EXPECT_TRUE(c.ranKernel == kwb::kernels::wgmmaRanName(plan, false) ||
              c.ranKernel == kwb::kernels::wgmmaRanName(plan, true))
      << c.ranKernel;
}
#endif

TEST_F(WgmmaSplitK, ForcedSplitsVerifyOnRaggedAndShortKShapes) {
#ifdef KWB_HAVE_WGMMA
  namespace k = kwb::kernels;
  const int sms = multiprocessors();
  const Shape shapes[] = {
      {511, 513, 1025},  // ragged everywhere, 17 k blocks (the last one partial)
      {1000, 1001, 1000}, {256, 384, 640},
      {512, 512, 512},    {300, 200, 130},  // 3 k blocks: 4-8 splits run as 3
      {129, 65, 200},                       // 4 k blocks, one row past a tile
      {17, 19, 23},                         // K < 64: every split count runs unsplit
      {64, 6, 3},
  };
  for (const Shape& s : shapes)
    for (int tileN : {64, 128, 256})
      for (int splits = 1; splits <= 8; ++splits) {
        const KernelDescriptor kernel = forcedKernel(tileN, splits);
        const kwb::CaseResult c = session().verifyCase(kernel, s, kSeed);
        kwb::test::expectVerified(c, kernel, kSeed);
        EXPECT_FALSE(c.fallback);
        const k::WgmmaPlan plan = k::forcedWgmmaPlan(s, tileN, splits, sms);
        EXPECT_EQ(plan.splits, k::wgmmaEffectiveSplits(s, splits));
        expectRanPlan(c, plan, false);
      }
#endif
}

// Large shapes, where the persistent grid gives each CTA many (tile, split) units one after the
// other, each split cell the first launch on a workspace grown for its shape: `kwb tune` found
// the 128x64 cells in 2 and 4 splits leaving tiles unwritten or wrong at 3072^3-8192^3 on their
// first launch, while the workspace's zero fill still waited on the legacy stream
// (kernels/detail/workspace.cpp; Workspace.* test the fill itself).
TEST_F(WgmmaSplitK, ForcedSplitsVerifyWhereEachCtaRunsManyUnits) {
#ifdef KWB_HAVE_WGMMA
  namespace k = kwb::kernels;
  const int sms = multiprocessors();
  for (const Shape& s : {Shape{3072, 3072, 3072}, Shape{4096, 4096, 1024}})
    for (int tileN : {64, 128, 256})
      for (int splits : {2, 4}) {
        const KernelDescriptor kernel = forcedKernel(tileN, splits);
        const kwb::CaseResult c = session().verifyCase(kernel, s, kSeed);
        kwb::test::expectVerified(c, kernel, kSeed);
        expectRanPlan(c, k::forcedWgmmaPlan(s, tileN, splits, sms), false);
      }
#endif
}

// Split-K across a cluster: every (width, S) the tune cells offer, on the shapes, ragged
// edges in every dimension, K < 64 (unsplit, said so) and K shorter than S × 64 (fewer splits,
// every range non-empty); the verification pipeline runs beta = 0 on a C of NaN and alpha,
// beta != 0, and the name says how many splits ran.
TEST_F(WgmmaSplitK, ClusterSplitsVerifyOnRaggedAndShortKShapes) {
#ifdef KWB_HAVE_WGMMA
  namespace k = kwb::kernels;
  const int sms = multiprocessors();
  const Shape shapes[] = {
      {512, 512, 512}, {256, 384, 640},    {511, 513, 1025},
      {768, 768, 768}, {300, 200, 130},  // 3 k blocks: 4-8 splits run as 3
      {129, 65, 200},                    // 4 k blocks, one row past a tile
      {17, 19, 23},                      // K < 64: unsplit
      {64, 6, 3},      {1000, 1001, 1000},
  };
  for (const Shape& s : shapes)
    for (int tileN : {64, 128, 256})
      for (int splits : {2, 3, 4, 5, 6, 8}) {
        const KernelDescriptor kernel = forcedKernel(tileN, splits, true);
        const kwb::CaseResult c = session().verifyCase(kernel, s, kSeed);
        kwb::test::expectVerified(c, kernel, kSeed);
        ASSERT_TRUE(c.verification.has_value());
        EXPECT_EQ(c.verification->nanFromOutput.value_or(-1), 0) << kernel.id << " " << toString(s);
        EXPECT_FALSE(c.fallback);
        const k::WgmmaPlan plan = k::forcedWgmmaPlan(s, tileN, splits, sms, true);
        EXPECT_EQ(plan.splits, k::wgmmaEffectiveClusterSplits(s, splits));
        expectRanPlan(c, plan, true);
      }
#endif
}

// beta = 0 never reads C: on a C whose every element is a NaN the cluster's sum comes out with
// the same bits as on a C of zeros, and finite.
TEST_F(WgmmaSplitK, ClusterSplitAtBetaZeroNeverReadsC) {
#ifdef KWB_HAVE_WGMMA
  for (const Shape& s : {Shape{511, 513, 1025}, Shape{512, 512, 512}, Shape{17, 19, 130}}) {
    const KernelDescriptor kernel = forcedKernel(64, 4, true);
    const auto p = session().prepare(kernel, s, kSeed);
    const std::vector<std::uint32_t> zeros = launchBits(kernel, *p, s, 0);
    const std::vector<std::uint32_t> nans = launchBits(kernel, *p, s, 0xFF);
    std::size_t nonFinite = 0, differ = 0;
    for (std::size_t i = 0; i < nans.size(); ++i) {
      float x = 0;
      std::memcpy(&x, &nans[i], sizeof x);
      nonFinite += std::isfinite(x) ? 0 : 1;
      differ += nans[i] != zeros[i] ? 1 : 0;
    }
    EXPECT_EQ(nonFinite, 0u) << toString(s);
    EXPECT_EQ(differ, 0u) << toString(s);
  }
#endif
}

// The cluster's partials are summed in split order by whichever CTA owns the rows, so the
// output is the same bits on every launch however the CTAs are timed.
TEST_F(WgmmaSplitK, ClusterSplitSumsAreTheSameBitsOnEveryLaunch) {
#ifdef KWB_HAVE_WGMMA
  const Shape s{511, 513, 4096};  // 64 k blocks
  for (const auto& [tileN, splits] : {std::pair{64, 8}, std::pair{128, 3}, std::pair{256, 2}}) {
    const KernelDescriptor kernel = forcedKernel(tileN, splits, true);
    const auto p = session().prepare(kernel, s, kSeed);
    const std::vector<std::uint32_t> first = launchBits(kernel, *p, s);
    for (int run = 1; run < 5; ++run) {
      const std::vector<std::uint32_t> again = launchBits(kernel, *p, s);
      std::size_t differ = 0;
      for (std::size_t i = 0; i < first.size(); ++i) differ += first[i] != again[i] ? 1 : 0;
      EXPECT_EQ(differ, 0u) << kernel.id << ": elements whose bits changed at launch " << run;
    }
  }
#endif
}

// The partial tiles are summed in split order by whichever warp arrives last, so the output is
// the same bits on every launch even though the arrival order is not.
TEST_F(WgmmaSplitK, SplitSumsAreTheSameBitsOnEveryLaunch) {
#ifdef KWB_HAVE_WGMMA
  const Shape s{511, 513, 4096};  // 64 k blocks: 8 splits of 8
  const KernelDescriptor kernel = forcedKernel(64, 8);
  const auto p = session().prepare(kernel, s, kSeed);
  const std::size_t n = std::size_t(s.m * s.n);
  std::vector<std::uint32_t> first(n), again(n);  // C's bits
  for (int run = 0; run < 5; ++run) {
    std::vector<std::uint32_t>& out = run == 0 ? first : again;
    const kwb::LaunchInfo ran = kernel.launch(p->args(1.0f, 0.0f));
    EXPECT_NE(std::string(ran.ranKernel).find("split-K 8"), std::string::npos) << ran.ranKernel;
    ASSERT_EQ(cudaMemcpyAsync(out.data(), p->c(), n * sizeof(float), cudaMemcpyDeviceToHost,
                              session().stream()),
              cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(session().stream()), cudaSuccess);
    std::size_t differ = 0;
    for (std::size_t i = 0; i < n; ++i) differ += first[i] != again[i] ? 1 : 0;
    if (run > 0) {
      EXPECT_EQ(differ, 0u) << "elements whose bits changed at launch " << run;
    }
  }
#endif
}

// The default choice says what it ran at small shapes (512^3 and 256x384x640 on an H100 or H200:
// the 64x64 tile; 511x513x1025: a cluster split). The BF16 stage runs the same plans.
TEST_F(WgmmaSplitK, TheDefaultNamesThePlanItRanAtSmallShapes) {
#ifdef KWB_HAVE_WGMMA
  const KernelDescriptor& kernel = kwb::kernels::registry().find("sgemm.wgmma");
  for (const Shape& s : {Shape{512, 512, 512}, Shape{768, 768, 768}, Shape{256, 384, 640},
                         Shape{511, 513, 1025}, Shape{2048, 2048, 2048}}) {
    const kwb::CaseResult c = session().verifyCase(kernel, s, kSeed);
    kwb::test::expectVerified(c, kernel, kSeed);
    const kwb::kernels::WgmmaPlan plan = kwb::kernels::chooseWgmmaPlan(s, multiprocessors());
    EXPECT_TRUE(c.ranKernel == kwb::kernels::wgmmaRanName(plan, false) ||
                c.ranKernel == kwb::kernels::wgmmaRanName(plan, true))
        << c.ranKernel;
    if (s.m == 2048) {
      EXPECT_EQ(c.ranKernel, "sgemm.wgmma");  // large shapes: the wide tile, unsplit, as before
    }
  }
  const KernelDescriptor& bf16 = kwb::kernels::registry().find("sgemm.wgmma_bf16");
  for (const Shape& s : {Shape{512, 512, 512}, Shape{511, 513, 1025}}) {
    const kwb::CaseResult c = session().verifyCase(bf16, s, kSeed);
    kwb::test::expectVerified(c, bf16, kSeed);
    const kwb::kernels::WgmmaPlan plan = kwb::kernels::chooseWgmmaPlan(s, multiprocessors());
    EXPECT_TRUE(c.ranKernel == kwb::kernels::wgmmaRanName(plan, false, true) ||
                c.ranKernel == kwb::kernels::wgmmaRanName(plan, true, true))
        << c.ranKernel;
  }
#endif
}

// The tiles that run only whole K (kernels/sgemm_wgmma.cu): the 64-row tiles (256 threads, a
// 5-stage ring; 64x64 two CTAs per SM, 64x96 one, its B in three 64-byte-swizzled slabs of 32
// columns) and the 128-row tile 192 wide (B in three 128-byte-swizzled slabs of 64 columns, a
// 4-stage ring) and 48 wide (one slab, 48 of its columns read, C always stored from registers),
// through the verification pipeline, every element against the reference: C of NaN
// at beta = 0 (the TMA epilogue where N % 4 == 0, else the register one), alpha and beta != 0 (the
// register epilogue); ragged edges in every dimension, K < 64, re-laid operands (K or N not a
// multiple of 8), and a persistent grid of more tiles than the CTAs an SM holds at once
// (2048x2048x512: 1024, 704, 176 and 688 tiles), so each CTA walks several tiles with its ring
// running on across them. 768^3 (96 tiles of 64x96, one wave) and N of 65 and 160 (the last
// tile's slabs partly or wholly past N).
TEST_F(WgmmaSplitK, TheWholeKTilesVerifyOnRaggedAndPersistentShapes) {
#ifdef KWB_HAVE_WGMMA
  namespace k = kwb::kernels;
  const int sms = multiprocessors();
  const Shape persistent{2048, 2048, 512};
  ASSERT_GT(k::wgmmaTiles(persistent, 96, k::kWgmmaShortTileM), 2 * std::int64_t(sms));
  ASSERT_GT(k::wgmmaTiles(persistent, 192), std::int64_t(sms));
  const std::pair<int, int> tiles[] = {{64, 64}, {64, 96}, {128, 192}, {128, 48}};
  for (const auto& [tileM, tileN] : tiles) {
    const KernelDescriptor kernel = wholeTileKernel(tileM, tileN);
    const Shape shapes[] = {
        {17, 19, 23},  // one tile, K < 64, A and B re-laid
        {511, 513, 1025}, {1000, 1001, 1000},
        {256, 384, 640},  {129, 65, 200},  // one row past two tile rows, one column past a tile
        {64, 6, 3},       persistent,
        {768, 768, 768},  {200, 160, 136},
    };
    for (const Shape& s : shapes) {
      const kwb::CaseResult c = session().verifyCase(kernel, s, kSeed);
      kwb::test::expectVerified(c, kernel, kSeed);
      ASSERT_TRUE(c.verification.has_value());
      EXPECT_EQ(c.verification->nanFromOutput.value_or(-1), 0) << toString(s);
      EXPECT_FALSE(c.fallback) << toString(s);
      const k::WgmmaPlan plan = k::forcedWgmmaPlan(s, tileN, 1, sms, false, tileM);
      EXPECT_EQ(plan, (k::WgmmaPlan{tileN, 1, false, false, tileM}));
      EXPECT_TRUE(c.ranKernel == k::wgmmaRanName(plan, false) ||
                  c.ranKernel == k::wgmmaRanName(plan, true))
          << c.ranKernel;
      const std::string tile = std::to_string(tileM) + "x" + std::to_string(tileN) + " tile";
      EXPECT_TRUE(c.ranKernel.starts_with("sgemm.wgmma (" + tile)) << c.ranKernel;
    }
  }
#endif
}

// The 64x64 tile issues the same wgmma (m64n64k16) on the same 64-row slices of A and the same B
// in the same k order as the 128x64 tile's consumers, and scales by alpha alike, so at beta = 0 C
// comes out with the same bits as from the unsplit 128x64 tile.
TEST_F(WgmmaSplitK, The64RowTileGivesThe128x64TilesBits) {
#ifdef KWB_HAVE_WGMMA
  const KernelDescriptor shortTile = shortTileKernel(), tall = forcedKernel(64, 1);
  for (const Shape& s : {Shape{511, 513, 1025}, Shape{2048, 2048, 512}, Shape{17, 19, 23}}) {
    const auto p = session().prepare(tall, s, kSeed);
    const std::vector<std::uint32_t> want = launchBits(tall, *p, s);
    const std::vector<std::uint32_t> got = launchBits(shortTile, *p, s);
    std::size_t differ = 0;
    for (std::size_t i = 0; i < want.size(); ++i) differ += want[i] != got[i] ? 1 : 0;
    EXPECT_EQ(differ, 0u) << toString(s) << ": elements whose bits differ from the 128x64 tile's";
  }
#endif
}

// Clusters of two CTAs side by side sharing A (each loads half of A's rows into both by TMA
// multicast), and 2x2 clusters sharing A and B (B split by k rows where it is one slab): every
// element against the reference on ragged shapes (odd counts of tile rows and columns, so a
// cluster's tiles lie wholly past M or N and still load A or B for their peers; K < 64; re-laid
// operands), at alpha and beta != 0, and on a persistent grid (2048x2048x512: 256 to 688 tiles,
// each cluster walking several); and C with the same bits as the unclustered tile of the same
// width, whose consumers issue the same wgmmas on the same A and B.
TEST_F(WgmmaSplitK, SharedAClustersVerifyAndGiveTheUnclusteredTilesBits) {
#ifdef KWB_HAVE_WGMMA
  namespace k = kwb::kernels;
  EXPECT_THROW((void)k::sharedAWgmmaPlan(256), std::invalid_argument);
  EXPECT_THROW((void)k::sharedAWgmmaPlan(48, true), std::invalid_argument);
  const std::pair<int, bool> plans[] = {
      {48, false}, {64, false}, {128, false}, {64, true}, {128, true}};
  for (const auto& [tileN, alsoB] : plans) {
    const KernelDescriptor kernel = sharedAKernel(tileN, alsoB);
    const KernelDescriptor alone = tileN == 48 ? wholeTileKernel(128, 48) : forcedKernel(tileN, 1);
    const Shape shapes[] = {{17, 19, 23},    {511, 513, 1025}, {1000, 1001, 1000}, {129, 65, 200},
                            {300, 176, 128}, {768, 768, 768},  {2048, 2048, 512}};
    for (const Shape& s : shapes) {
      const kwb::CaseResult c = session().verifyCase(kernel, s, kSeed);
      kwb::test::expectVerified(c, kernel, kSeed);
      EXPECT_FALSE(c.fallback) << toString(s);
      const std::string tile = "sgemm.wgmma (128x" + std::to_string(tileN) + " tile, " +
                               (alsoB ? "2x2 clusters sharing A and B" : "clusters of 2 sharing A");
      EXPECT_TRUE(c.ranKernel.starts_with(tile)) << c.ranKernel;
      const auto p = session().prepare(kernel, s, kSeed);
      const std::vector<std::uint32_t> want = launchBits(alone, *p, s);
      const std::vector<std::uint32_t> got = launchBits(kernel, *p, s, 0xFF);
      std::size_t differ = 0;
      for (std::size_t i = 0; i < want.size(); ++i) differ += want[i] != got[i] ? 1 : 0;
      EXPECT_EQ(differ, 0u) << toString(s) << ": 128x" << tileN << " elements whose bits differ";
    }
  }
#endif
}

// The 64x128 tile in pairs of CTAs along M sharing B (each loads one of B's two slabs into both by
// TMA multicast): every element against the reference on the shapes above, including tiles wholly
// past M that still load B for their peer, alpha and beta != 0, and a persistent grid; and C with
// the bits of the unclustered 128x128 tile, whose two consumers issue the same m64n128k16 on the
// same 64-row slices of A and the same B in the same k order.
TEST_F(WgmmaSplitK, PairsSharingBOf64x128VerifyAndGiveThe128x128TilesBits) {
#ifdef KWB_HAVE_WGMMA
  const KernelDescriptor kernel = kwb::test::pairsSharingBKernel(), alone = forcedKernel(128, 1);
  const Shape shapes[] = {{17, 19, 23},    {511, 513, 1025},   {1000, 1001, 1000}, {129, 65, 200},
                          {300, 176, 128}, {1000, 1000, 1000}, {2048, 2048, 512},  {64, 6, 3}};
  for (const Shape& s : shapes) {
    const kwb::CaseResult c = session().verifyCase(kernel, s, kSeed);
    kwb::test::expectVerified(c, kernel, kSeed);
    EXPECT_FALSE(c.fallback) << toString(s);
    EXPECT_TRUE(c.ranKernel.starts_with("sgemm.wgmma (64x128 tile, clusters of 2 sharing B"))
        << c.ranKernel;
    const auto p = session().prepare(kernel, s, kSeed);
    const std::vector<std::uint32_t> want = launchBits(alone, *p, s);
    const std::vector<std::uint32_t> got = launchBits(kernel, *p, s, 0xFF);
    std::size_t differ = 0;
    for (std::size_t i = 0; i < want.size(); ++i) differ += want[i] != got[i] ? 1 : 0;
    EXPECT_EQ(differ, 0u) << toString(s) << ": 64x128 elements whose bits differ from 128x128's";
  }
#endif
}

}  // namespace
