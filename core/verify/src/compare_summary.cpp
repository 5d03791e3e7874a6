// SPDX-License-Identifier: Apache-2.0
#include "kwb/compare_summary.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace kwb {

double summaryDouble(std::uint64_t bits) { return std::bit_cast<double>(bits); }
std::uint64_t summaryBits(double nonNegative) { return std::bit_cast<std::uint64_t>(nonNegative); }

CellSummary mergeCells(const CellSummary& a, const CellSummary& b) {
  CellSummary m;
  m.mismatches = a.mismatches + b.mismatches;
  m.nonFinite = a.nonFinite + b.nonFinite;
  m.unwritten = a.unwritten + b.unwritten;
  // Non-negative doubles order like their bits: the device reduces them with integer max.
  m.maxAbsBits = std::max(a.maxAbsBits, b.maxAbsBits);
  m.maxRelBits = std::max(a.maxRelBits, b.maxRelBits);
  m.firstNot = std::max(a.firstNot, b.firstNot);  // ~index: the larger is the earlier
  m.nanMarked = a.nanMarked | b.nanMarked;
  return m;
}

CompareReport reportFromCells(std::span<const CellSummary> cells, int gridRows, int gridCols,
                              std::int64_t rows, std::int64_t cols) {
  if (gridRows < 0 || gridCols < 0 || cells.size() != std::size_t(gridRows) * std::size_t(gridCols))
    throw std::invalid_argument("reportFromCells: " + std::to_string(cells.size()) +
                                " cells for a " + std::to_string(gridRows) + " x " +
                                std::to_string(gridCols) + " grid");
  CompareReport rep;
  rep.elements = rows * cols;
  rep.grid.rows = gridRows;
  rep.grid.cols = gridCols;
  rep.grid.maxAbs.assign(cells.size(), 0.0);
  rep.grid.mismatches.assign(cells.size(), 0);
  CellSummary all;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const CellSummary& c = cells[i];
    all = mergeCells(all, c);
    rep.grid.mismatches[i] = std::int64_t(c.mismatches);
    rep.grid.maxAbs[i] =
        c.nanMarked ? std::numeric_limits<double>::quiet_NaN() : summaryDouble(c.maxAbsBits);
  }
  rep.mismatches = std::int64_t(all.mismatches);
  rep.nonFinite = std::int64_t(all.nonFinite);
  rep.maxAbsError = summaryDouble(all.maxAbsBits);
  rep.maxRelError = summaryDouble(all.maxRelBits);
  if (all.firstNot != 0 && cols > 0) {
    const auto index = std::int64_t(~all.firstNot);
    rep.firstMismatch = Mismatch{index / cols, index % cols, 0.0, 0.0};
  }
  return rep;
}

std::int64_t unwrittenIn(std::span<const CellSummary> cells) {
  std::int64_t n = 0;
  for (const auto& c : cells) n += std::int64_t(c.unwritten);
  return n;
}

std::vector<CellSummary> cellSummaries(std::span<const float> got, std::span<const float> expected,
                                       std::int64_t rows, std::int64_t cols, const Tolerance& tol) {
  const int gr = gridCellsFor(rows), gc = gridCellsFor(cols);
  std::vector<CellSummary> cells(std::size_t(gr) * std::size_t(gc));
  const std::int64_t n =
      std::min<std::int64_t>(rows * cols, std::int64_t(std::min(got.size(), expected.size())));
  for (std::int64_t i = 0; i < n; ++i) {
    const float x = got[std::size_t(i)], r = expected[std::size_t(i)];
    CellSummary& c = cells[std::size_t(ErrorGrid::cellOf(i / cols, rows, gr)) * std::size_t(gc) +
                           std::size_t(ErrorGrid::cellOf(i % cols, cols, gc))];
    c.unwritten += std::bit_cast<std::uint32_t>(x) == kCanaryBits;
    const bool ok = elementMatches(x, r, tol);
    if (std::isfinite(x) && std::isfinite(r)) {
      const double abs = std::fabs(double(x) - double(r));
      c.maxAbsBits = std::max(c.maxAbsBits, summaryBits(abs));
      if (r != 0.0f) c.maxRelBits = std::max(c.maxRelBits, summaryBits(abs / std::fabs(double(r))));
    } else if (!ok) {
      ++c.nonFinite;
      c.nanMarked = 1;
    }
    if (!ok) {
      ++c.mismatches;
      c.firstNot = std::max(c.firstNot, ~std::uint64_t(i));
    }
  }
  return cells;
}

}  // namespace kwb
