// SPDX-License-Identifier: Apache-2.0
// The Hilbert-curve unit order of sgemm.wgmma's measurement builds
// (kernels/detail/hilbert_order.h): every unit of the grid exactly once; on a power-of-two square
// each unit beside the one before it, and a wave-sized run of units in a compact block. Host code.
// No GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <vector>

#include "detail/hilbert_order.h"

namespace {

using kwb::kernels::detail::hilbertCell;
using kwb::kernels::detail::hilbertOrder;

int rowOf(std::uint32_t v) { return int(v >> 16); }
int colOf(std::uint32_t v) { return int(v & 0xFFFFu); }

void expectEveryUnitOnce(int rows, int cols) {
  SCOPED_TRACE(std::to_string(rows) + "x" + std::to_string(cols));
  const std::vector<std::uint32_t> order = hilbertOrder(rows, cols);
  ASSERT_EQ(order.size(), std::size_t(rows) * std::size_t(cols));
  std::set<std::uint32_t> seen;
  for (const std::uint32_t v : order) {
    EXPECT_LT(rowOf(v), rows);
    EXPECT_LT(colOf(v), cols);
    EXPECT_TRUE(seen.insert(v).second) << "unit " << rowOf(v) << "," << colOf(v) << " twice";
  }
}

TEST(HilbertOrder, TheSmallestSquareIsAU) {
  const std::pair<int, int> want[] = {{0, 0}, {0, 1}, {1, 1}, {1, 0}};
  for (int d = 0; d < 4; ++d) EXPECT_EQ(hilbertCell(2, d), want[d]) << "d = " << d;
}

TEST(HilbertOrder, OnASquareEachUnitNeighboursTheLast) {
  for (const int side : {2, 4, 16, 64}) {
    const std::vector<std::uint32_t> order = hilbertOrder(side, side);
    ASSERT_EQ(order.size(), std::size_t(side) * side);
    for (std::size_t i = 1; i < order.size(); ++i) {
      const int step = std::abs(rowOf(order[i]) - rowOf(order[i - 1])) +
                       std::abs(colOf(order[i]) - colOf(order[i - 1]));
      ASSERT_EQ(step, 1) << "side " << side << ", units " << i - 1 << " and " << i;
    }
  }
}

TEST(HilbertOrder, EveryUnitOfARectangleOnce) {
  expectEveryUnitOnce(32, 16);  // 4096^3 in 128x256 tiles
  expectEveryUnitOnce(32, 32);  // 8192^3 in pairs of them
  expectEveryUnitOnce(7, 5);
  expectEveryUnitOnce(1, 9);
  expectEveryUnitOnce(24, 47);
}

// The tile rows and columns (A's and B's panels) that `wave` consecutive units touch, at worst
// over every start along the walk.
std::size_t worstPanels(const std::vector<std::uint32_t>& order, std::size_t wave) {
  std::size_t worst = 0;
  for (std::size_t start = 0; start + wave <= order.size(); ++start) {
    std::set<int> rows, cols;
    for (std::size_t i = start; i < start + wave; ++i) {
      rows.insert(rowOf(order[i]));
      cols.insert(colOf(order[i]));
    }
    worst = std::max(worst, rows.size() + cols.size());
  }
  return worst;
}

// A wave (132 CTAs of an H200, or its 66 clusters) anywhere along the walk holds a compact block
// of units: about 2·sqrt(wave) panels, where row-major order holds 68 panels of a 64x64 grid
// (three rows and all 64 columns) and 36 of a 32x32 one.
TEST(HilbertOrder, AWaveStaysInACompactBlock) {
  EXPECT_LE(worstPanels(hilbertOrder(64, 64), 132), 32u);
  EXPECT_LE(worstPanels(hilbertOrder(32, 32), 66), 24u);  // 8192^3: pairs of 128x256 tiles
  // Row-major order, as a control for the measure itself.
  std::vector<std::uint32_t> rowMajor;
  for (int r = 0; r < 64; ++r)
    for (int c = 0; c < 64; ++c) rowMajor.push_back(std::uint32_t(r) << 16 | std::uint32_t(c));
  EXPECT_EQ(worstPanels(rowMajor, 132), 68u);
}

TEST(HilbertOrder, AnEmptyOrOversizedGridHasNoOrder) {
  EXPECT_TRUE(hilbertOrder(0, 4).empty());
  EXPECT_TRUE(hilbertOrder(4, -1).empty());
  EXPECT_TRUE(hilbertOrder(70000, 1).empty());
}

}  // namespace
