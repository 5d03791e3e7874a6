// SPDX-License-Identifier: Apache-2.0
#pragma once
// A Hilbert-curve order of a rows × cols grid of work units, for sgemm.wgmma's persistent grid
// (measurement builds, KWB_WGMMA_ORDER=hilbert; the default walks tiles in grouped order,
// gemm_tile_io.cuh). The curve fills the smallest power-of-two square that covers the grid and
// the units are taken in the order it visits them, those outside the grid skipped; consecutive
// units are neighbours, so the tiles a wave's CTAs hold at once form a compact block at every
// point of the walk, not only at the start of a group. Host code: the launcher uploads the order.
#include <cstdint>
#include <utility>
#include <vector>

namespace kwb::kernels::detail {

// The cell (row, col) at distance d along the Hilbert curve of a side × side square (side a power
// of two): two bits of d per level, from the finest quadrant up, each level's quadrant rotated or
// reflected so that the curve enters and leaves it at the corners its neighbours meet.
inline std::pair<int, int> hilbertCell(int side, std::int64_t d) {
  int row = 0, col = 0;
  for (int s = 1; s < side; s *= 2, d /= 4) {
    const int right = int((d / 2) & 1);
    const int up = int((d ^ right) & 1);
    if (up == 0) {  // the quadrant is the curve's lower half: turn it
      if (right == 1) {
        row = s - 1 - row;
        col = s - 1 - col;
      }
      std::swap(row, col);
    }
    row += s * right;
    col += s * up;
  }
  return {row, col};
}

// Entry u: the u-th unit of a rows × cols grid along the curve, as (row << 16) | col. Empty where
// the grid is empty or a side exceeds 65535 (the packing's limit).
inline std::vector<std::uint32_t> hilbertOrder(int rows, int cols) {
  std::vector<std::uint32_t> order;
  if (rows < 1 || cols < 1 || rows > 0xFFFF || cols > 0xFFFF) return order;
  int side = 1;
  while (side < rows || side < cols) side *= 2;
  order.reserve(std::size_t(rows) * std::size_t(cols));
  const std::int64_t cells = std::int64_t(side) * side;
  for (std::int64_t d = 0; d < cells; ++d) {
    const auto [r, c] = hilbertCell(side, d);
    if (r < rows && c < cols) order.push_back(std::uint32_t(r) << 16 | std::uint32_t(c));
  }
  return order;
}

}  // namespace kwb::kernels::detail
