// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "kwb/compare_summary.h"
#include "kwb/seeded.h"

using kwb::CellSummary;

TEST(CompareSummary, MergeSumsCountsAndKeepsMaximaAndTheEarlierFirst) {
  CellSummary a, b;
  a.mismatches = 3;
  a.nonFinite = 1;
  a.unwritten = 2;
  a.maxAbsBits = kwb::summaryBits(0.5);
  a.maxRelBits = kwb::summaryBits(2.0);
  a.firstNot = ~std::uint64_t{40};
  b.mismatches = 4;
  b.maxAbsBits = kwb::summaryBits(0.75);
  b.maxRelBits = kwb::summaryBits(0.1);
  b.firstNot = ~std::uint64_t{12};
  b.nanMarked = 1;
  const CellSummary m = kwb::mergeCells(a, b);
  EXPECT_EQ(m.mismatches, 7u);
  EXPECT_EQ(m.nonFinite, 1u);
  EXPECT_EQ(m.unwritten, 2u);
  EXPECT_EQ(kwb::summaryDouble(m.maxAbsBits), 0.75);
  EXPECT_EQ(kwb::summaryDouble(m.maxRelBits), 2.0);
  EXPECT_EQ(~m.firstNot, 12u);
  EXPECT_EQ(m.nanMarked, 1u);
  // An empty summary is the identity, in either order.
  EXPECT_EQ(kwb::mergeCells(CellSummary{}, a).firstNot, a.firstNot);
  EXPECT_EQ(kwb::mergeCells(a, CellSummary{}).maxAbsBits, a.maxAbsBits);
}

// The merged per-cell summaries equal the host comparison (the oracle) on planted errors.
TEST(CompareSummary, MergedCellsEqualCompareMatrices) {
  const kwb::Tolerance tol{1e-3, 1e-4};
  for (const auto& [rows, cols] : {std::pair{37, 53}, std::pair{5, 3}, std::pair{1, 40}}) {
    const std::int64_t n = std::int64_t(rows) * cols;
    const std::vector<float> expected = kwb::seededMatrix(5, kwb::SeedStream::kA, n);
    std::vector<float> got = expected;
    got[std::size_t(n / 2)] = std::numeric_limits<float>::quiet_NaN();
    got[std::size_t(n - 1)] += 1.0f;
    got[std::size_t(cols - 1)] -= 0.5f;
    got[0] = kwb::canaryValue();
    const auto cells = kwb::cellSummaries(got, expected, rows, cols, tol);
    const auto merged =
        kwb::reportFromCells(cells, kwb::gridCellsFor(rows), kwb::gridCellsFor(cols), rows, cols);
    const auto host = kwb::compareMatrices(got, expected, rows, cols, tol);
    EXPECT_EQ(merged.mismatches, host.mismatches);
    EXPECT_EQ(merged.nonFinite, host.nonFinite);
    EXPECT_EQ(merged.maxAbsError, host.maxAbsError);
    EXPECT_EQ(merged.maxRelError, host.maxRelError);
    ASSERT_TRUE(merged.firstMismatch && host.firstMismatch);
    EXPECT_EQ(merged.firstMismatch->row, host.firstMismatch->row);
    EXPECT_EQ(merged.firstMismatch->col, host.firstMismatch->col);
    EXPECT_EQ(merged.grid.mismatches, host.grid.mismatches);
    ASSERT_EQ(merged.grid.maxAbs.size(), host.grid.maxAbs.size());
    for (std::size_t i = 0; i < host.grid.maxAbs.size(); ++i)
      EXPECT_TRUE(merged.grid.maxAbs[i] == host.grid.maxAbs[i] ||
                  (std::isnan(merged.grid.maxAbs[i]) && std::isnan(host.grid.maxAbs[i])));
    EXPECT_EQ(kwb::unwrittenIn(cells), kwb::countCanary(got));
  }
}

TEST(CompareSummary, NoMismatchNoFirstAndWrongCellCountRefused) {
  std::vector<CellSummary> cells(4);
  const auto r = kwb::reportFromCells(cells, 2, 2, 2, 2);
  EXPECT_TRUE(r.passed());
  EXPECT_FALSE(r.firstMismatch);
  EXPECT_THROW(kwb::reportFromCells(cells, 3, 2, 3, 2), std::invalid_argument);
}
