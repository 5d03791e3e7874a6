// SPDX-License-Identifier: Apache-2.0
// The stream-K walk of sgemm.wgmma's measurement builds (kernels/detail/stream_k.h): every k block
// of every tile computed exactly once, by one CTA; the whole waves' tiles whole; a segmented
// tile's segments numbered 0 … segments − 1 by consecutive CTAs that agree on the count, within
// the workspace's stride. Host code. No GPU.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <vector>

#include "detail/stream_k.h"

namespace {

using kwb::kernels::detail::StreamKCursor;
using kwb::kernels::detail::StreamKSchedule;
using kwb::kernels::detail::StreamKWork;

struct Seen {
  std::vector<int> blocks;  // how many times each k block was computed
  int segments = -1;
  std::set<int> indices, ctas;
  int slot = -1;
};

void expectCovered(const StreamKSchedule& s) {
  SCOPED_TRACE(std::to_string(s.tiles) + " tiles on " + std::to_string(s.ctas) + " CTAs, " +
               std::to_string(s.kBlocks) + " k blocks");
  std::map<int, Seen> tiles;
  for (int cta = 0; cta < s.ctas; ++cta) {
    StreamKCursor cursor(s, cta);
    int items = 0, segmentedItems = 0;
    for (StreamKWork w; cursor.next(w);) {
      ++items;
      Seen& t = tiles[w.tile];
      t.blocks.resize(std::size_t(s.kBlocks));
      ASSERT_LE(0, w.kBegin);
      ASSERT_LT(w.kBegin, w.kEnd);
      ASSERT_LE(w.kEnd, s.kBlocks);
      for (int kb = w.kBegin; kb < w.kEnd; ++kb) ++t.blocks[std::size_t(kb)];
      if (w.tile < s.wholeTiles()) {
        EXPECT_EQ(w.segments, 1);
        EXPECT_EQ(w.kBegin, 0);
        EXPECT_EQ(w.kEnd, s.kBlocks);
        EXPECT_EQ(segmentedItems, 0) << "a whole tile after a segment";
        continue;
      }
      ++segmentedItems;
      if (t.segments < 0) t.segments = w.segments;
      EXPECT_EQ(t.segments, w.segments) << "CTAs disagree on tile " << w.tile << "'s segments";
      EXPECT_LE(w.segments, s.segmentStride());
      EXPECT_TRUE(t.indices.insert(w.segment).second) << "segment " << w.segment << " twice";
      t.ctas.insert(cta);
      EXPECT_EQ(w.slot, w.tile - s.wholeTiles());
    }
    EXPECT_GT(items, 0) << "CTA " << cta << " has no work";
    // Besides its whole tiles, a CTA computes at most two partial tiles and the whole ones between.
  }
  ASSERT_EQ(int(tiles.size()), s.tiles);
  for (const auto& [tile, t] : tiles) {
    for (int kb = 0; kb < s.kBlocks; ++kb)
      ASSERT_EQ(t.blocks[std::size_t(kb)], 1) << "tile " << tile << " k block " << kb;
    if (tile < s.wholeTiles()) continue;
    EXPECT_EQ(int(t.indices.size()), t.segments) << "tile " << tile;
    EXPECT_EQ(*t.indices.rbegin(), t.segments - 1) << "tile " << tile;
    EXPECT_EQ(*t.ctas.rbegin() - *t.ctas.begin() + 1, t.segments) << "not consecutive CTAs";
  }
}

TEST(StreamK, EveryKBlockOfEveryTileOnceInSegmentsTheCtasAgreeOn) {
  // 4096^3 in 128x256 tiles on an H200 or H100 (512 tiles, 64 k blocks: 3 waves and 116 tiles),
  // 8192^3 (2048 tiles, 128 k blocks), fewer tiles than CTAs (every tile segmented), a partial
  // wave of one tile, short and long K.
  const StreamKSchedule cases[] = {{512, 132, 64},  {2048, 132, 128}, {128, 132, 32},
                                   {133, 132, 256}, {300, 114, 3},    {7, 5, 100},
                                   {1000, 132, 16}};
  for (const StreamKSchedule& s : cases) {
    ASSERT_TRUE(s.runs());
    expectCovered(s);
  }
  EXPECT_EQ((StreamKSchedule{512, 132, 64}.wholeTiles()), 396);
  EXPECT_EQ((StreamKSchedule{512, 132, 64}.segmentedTiles()), 116);
  EXPECT_EQ((StreamKSchedule{512, 132, 64}.segmentStride()), 3);  // ranges of 56 or 57 blocks
}

// No partial wave (tiles a multiple of the CTAs), or fewer k blocks in it than CTAs: stream-K does
// not run (the launcher takes the plan's own kernel).
TEST(StreamK, RunsOnlyWithAPartialWaveOfEnoughBlocks) {
  EXPECT_FALSE((StreamKSchedule{264, 132, 64}.runs()));
  EXPECT_FALSE((StreamKSchedule{133, 132, 1}.runs()));  // one tile of one k block, 132 CTAs
  EXPECT_TRUE((StreamKSchedule{133, 132, 132}.runs()));
  expectCovered({133, 132, 132});  // one tile over every CTA, a k block each
}

}  // namespace
