// SPDX-License-Identifier: Apache-2.0
#pragma once
// The host half of the device comparison: per-cell summaries (kwb/cell_summary.h) merged into
// the CompareReport the rest of kwb reads. Pure functions, tested on the CPU.
#include <span>
#include <vector>

#include "kwb/cell_summary.h"
#include "kwb/compare.h"

namespace kwb {

// The largest double ≥ 0 that `bits` (a CellSummary max field) stands for.
double summaryDouble(std::uint64_t bits);
std::uint64_t summaryBits(double nonNegative);

// Two summaries of disjoint parts of one cell (or of one matrix) as one: sums, maxima, the
// earlier first mismatch.
CellSummary mergeCells(const CellSummary& a, const CellSummary& b);

// A report from the summaries of a gridRows × gridCols error grid (row-major) over a
// rows × cols matrix. firstMismatch gets its row and column; its got/expected values are the
// caller's to fill (they live on the device). Throws std::invalid_argument on a size mismatch.
CompareReport reportFromCells(std::span<const CellSummary> cells, int gridRows, int gridCols,
                              std::int64_t rows, std::int64_t cols);

// Total of the unwritten (canary) counts.
std::int64_t unwrittenIn(std::span<const CellSummary> cells);

// The host twin of the device kernel: per-cell summaries of `got` against `expected` with
// the same rules as compareMatrices. Tests use it to check the merge against the oracle.
std::vector<CellSummary> cellSummaries(std::span<const float> got, std::span<const float> expected,
                                       std::int64_t rows, std::int64_t cols, const Tolerance& tol);

// Cells of the error grid along an extent (kErrorGridCells at most, never more than it).
inline int gridCellsFor(std::int64_t extent) {
  return int(extent < kErrorGridCells ? extent : kErrorGridCells);
}

}  // namespace kwb
