// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "kwb/compare.h"

using kwb::compareMatrices;
using kwb::Tolerance;

namespace {
const Tolerance kFp32{1e-3, 1e-4};
const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

// A comparator that accepts anything: the negative control must expose it.
kwb::CompareReport acceptsAnything(std::span<const float>, std::span<const float>, std::int64_t r,
                                   std::int64_t c, const Tolerance&) {
  kwb::CompareReport rep;
  rep.elements = r * c;
  return rep;
}
}  // namespace

TEST(Compare, WithinToleranceMatches) {
  EXPECT_TRUE(kwb::elementMatches(1.0005f, 1.0f, kFp32));  // 5e-4 ≤ 1e-4 + 1e-3
  EXPECT_FALSE(kwb::elementMatches(1.002f, 1.0f, kFp32));  // 2e-3 > 1.1e-3
  EXPECT_TRUE(kwb::elementMatches(5e-5f, 0.0f, kFp32));    // atol governs near zero
  EXPECT_FALSE(kwb::elementMatches(2e-4f, 0.0f, kFp32));
}

TEST(Compare, NaNAndInfAreMismatches) {
  EXPECT_FALSE(kwb::elementMatches(kNaN, 1.0f, kFp32));
  EXPECT_FALSE(kwb::elementMatches(1.0f, kNaN, kFp32));
  EXPECT_FALSE(kwb::elementMatches(kNaN, kNaN, kFp32));
  EXPECT_FALSE(kwb::elementMatches(kInf, 1.0f, kFp32));
  EXPECT_FALSE(kwb::elementMatches(kInf, -kInf, kFp32));
  EXPECT_TRUE(kwb::elementMatches(kInf, kInf, kFp32));
  EXPECT_TRUE(kwb::elementMatches(-kInf, -kInf, kFp32));
}

TEST(Compare, ReportsFirstMismatchAndMaxima) {
  // 2 × 3, row-major.
  const std::vector<float> ref{1, 2, 3, 4, 5, 6};
  std::vector<float> got = ref;
  got[4] = 5.5f;  // row 1, col 1
  got[5] = 6.001f;
  const auto rep = compareMatrices(got, ref, 2, 3, kFp32);
  EXPECT_FALSE(rep.passed());
  EXPECT_EQ(rep.mismatches, 1);
  ASSERT_TRUE(rep.firstMismatch);
  EXPECT_EQ(rep.firstMismatch->row, 1);
  EXPECT_EQ(rep.firstMismatch->col, 1);
  EXPECT_FLOAT_EQ(float(rep.firstMismatch->got), 5.5f);
  EXPECT_FLOAT_EQ(float(rep.firstMismatch->expected), 5.0f);
  EXPECT_NEAR(rep.maxAbsError, 0.5, 1e-6);
  EXPECT_NEAR(rep.maxRelError, 0.1, 1e-6);
}

TEST(Compare, NaNIsCaught) {
  std::vector<float> ref(16, 1.0f);
  std::vector<float> got = ref;
  got[9] = kNaN;
  const auto rep = compareMatrices(got, ref, 4, 4, kFp32);
  EXPECT_EQ(rep.mismatches, 1);
  EXPECT_EQ(rep.nonFinite, 1);
  ASSERT_TRUE(rep.firstMismatch);
  EXPECT_EQ(rep.firstMismatch->row, 2);
  EXPECT_EQ(rep.firstMismatch->col, 1);
  EXPECT_TRUE(std::isnan(rep.firstMismatch->got));
}

TEST(Compare, ShortBufferIsNeverAPass) {
  const std::vector<float> ref(6, 1.0f);
  const std::vector<float> got(4, 1.0f);
  EXPECT_EQ(compareMatrices(got, ref, 2, 3, kFp32).mismatches, 2);
}

TEST(Compare, CanaryCatchesUnwrittenElement) {
  std::vector<float> c(100, kwb::canaryValue());
  std::uint32_t bits;
  std::memcpy(&bits, &c[0], 4);
  EXPECT_EQ(bits, 0xAAAAAAAAu);
  EXPECT_EQ(kwb::countCanary(c), 100);
  for (std::size_t i = 0; i < c.size(); ++i)
    if (i != 57) c[i] = float(i);
  EXPECT_EQ(kwb::countCanary(c), 1);
}

TEST(Compare, MangledCopyDiffersEverySeventhAndLast) {
  std::vector<float> ref(20);
  for (std::size_t i = 0; i < ref.size(); ++i) ref[i] = -0.5f + float(i) * 0.1f;
  const auto bad = kwb::mangledCopy(ref);
  for (std::size_t i = 0; i < ref.size(); ++i) {
    const bool touched = i % 7 == 0 || i + 1 == ref.size();
    EXPECT_EQ(bad[i] != ref[i], touched) << "at " << i;
    if (touched) {
      EXPECT_FALSE(kwb::elementMatches(bad[i], ref[i], Tolerance{5e-2, 1e-2}));
    }
  }
  EXPECT_EQ(kwb::mangledCopy(ref), bad);  // deterministic
}

// The device's negative control damages each element once; the host copy must match it where
// the last element is also a 7th (sizes 1, 8, 1961 = 37x53) — it was damaged twice before.
TEST(Compare, MangledCopyDamagesTheLastElementOnceWhenItIsASeventh) {
  for (const std::size_t n : {std::size_t{1}, std::size_t{8}, std::size_t{1961}, std::size_t{9}}) {
    std::vector<float> ref(n);
    for (std::size_t i = 0; i < n; ++i) ref[i] = 0.25f - float(i % 5) * 0.125f;
    const auto bad = kwb::mangledCopy(ref);
    for (std::size_t i = 0; i < n; ++i) {
      const bool touched = i % 7 == 0 || i + 1 == n;
      EXPECT_EQ(bad[i], touched ? kwb::mangledValue(ref[i]) : ref[i]) << n << " at " << i;
    }
  }
}

TEST(Compare, NegativeControlAcceptsRealComparator) {
  std::vector<float> ref(64);
  for (std::size_t i = 0; i < ref.size(); ++i) ref[i] = std::sin(float(i));
  EXPECT_TRUE(kwb::negativeControlRejects(&compareMatrices, ref, 8, 8, kFp32));
}

TEST(Compare, NegativeControlCatchesComparatorThatAcceptsAnything) {
  std::vector<float> ref(64, 2.0f);
  EXPECT_FALSE(kwb::negativeControlRejects(&acceptsAnything, ref, 8, 8, kFp32));
}

TEST(Compare, DepthScaledToleranceGrowsWithKBeyondSpecDepth) {
  const Tolerance spec{1e-3, 1e-4};
  for (std::int64_t k : {1, 16, 2048}) {
    EXPECT_EQ(kwb::depthScaledTolerance(spec, k).atol, 1e-4) << k;
    EXPECT_EQ(kwb::depthScaledTolerance(spec, k).rtol, 1e-3) << k;
  }
  EXPECT_NEAR(kwb::depthScaledTolerance(spec, 8192).atol, 4e-4, 1e-12);
  EXPECT_NEAR(kwb::depthScaledTolerance(spec, 32768).atol, 16e-4, 1e-12);
  EXPECT_EQ(kwb::depthScaledTolerance(spec, 8192).rtol, 1e-3);
}

TEST(Compare, ErrorGridLocatesTheErrors) {
  // 64 × 40: 16 × 16 cells of 4 rows × 2.5 columns.
  const std::int64_t rows = 64, cols = 40;
  std::vector<float> ref(std::size_t(rows * cols), 1.0f);
  std::vector<float> got = ref;
  got[std::size_t(63 * cols + 39)] = 1.5f;    // last cell
  got[std::size_t(5 * cols + 3)] = 1.00005f;  // within tolerance, cell (1, 1)
  got[std::size_t(0 * cols + 10)] = kNaN;     // cell (0, 4)
  const auto rep = compareMatrices(got, ref, rows, cols, kFp32);
  const auto& g = rep.grid;
  ASSERT_EQ(g.rows, 16);
  ASSERT_EQ(g.cols, 16);
  EXPECT_EQ(g.mismatches[15 * 16 + 15], 1);
  EXPECT_NEAR(g.maxAbs[15 * 16 + 15], 0.5, 1e-9);
  EXPECT_EQ(g.mismatches[1 * 16 + 1], 0);
  EXPECT_NEAR(g.maxAbs[1 * 16 + 1], 5e-5, 1e-6);
  EXPECT_EQ(g.mismatches[0 * 16 + 4], 1);
  EXPECT_TRUE(std::isnan(g.maxAbs[0 * 16 + 4]));
  EXPECT_EQ(g.maxAbs[8 * 16 + 8], 0.0);
}

TEST(Compare, ErrorGridOfASmallMatrixHasOneCellPerElement) {
  const std::vector<float> ref{1, 2, 3};
  const auto rep = compareMatrices(ref, ref, 1, 3, kFp32);
  EXPECT_EQ(rep.grid.rows, 1);
  EXPECT_EQ(rep.grid.cols, 3);
  EXPECT_EQ(rep.grid.maxAbs.size(), 3u);
}

TEST(Compare, ListsTheFirstFewMismatchesInRowMajorOrder) {
  const std::vector<float> ref(30, 1.0f);
  std::vector<float> got = ref;
  for (const std::size_t i : {29u, 3u, 17u, 4u, 11u, 22u}) got[i] = 2.0f;
  const auto rep = compareMatrices(got, ref, 5, 6, kFp32);
  EXPECT_EQ(rep.mismatches, 6);
  ASSERT_EQ(rep.firstMismatches.size(), kwb::kReportedMismatches);
  const std::vector<std::pair<std::int64_t, std::int64_t>> want{{0, 3}, {0, 4}, {1, 5}, {2, 5}};
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(rep.firstMismatches[i].row, want[i].first) << i;
    EXPECT_EQ(rep.firstMismatches[i].col, want[i].second) << i;
    EXPECT_EQ(rep.firstMismatches[i].got, 2.0);
  }
  EXPECT_EQ(rep.firstMismatch->col, rep.firstMismatches[0].col);
  EXPECT_TRUE(compareMatrices(ref, ref, 5, 6, kFp32).firstMismatches.empty());
}
