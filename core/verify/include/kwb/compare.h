// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace kwb {

struct Tolerance {
  double rtol = 1e-3;
  double atol = 1e-4;
};

struct Mismatch {
  std::int64_t row = 0;
  std::int64_t col = 0;
  double got = 0.0;
  double expected = 0.0;
};

// Where the errors are: C split into at most kErrorGridCells × kErrorGridCells blocks of rows
// and columns, each with its largest |x − r| (NaN when a non-finite value mismatched) and
// its mismatch count. The GUI draws it as the heat map of |C − C_ref|.
inline constexpr int kErrorGridCells = 16;
inline constexpr std::size_t kReportedMismatches = 4;
struct ErrorGrid {
  int rows = 0;                          // cells down
  int cols = 0;                          // cells across
  std::vector<double> maxAbs;            // rows × cols, row-major
  std::vector<std::int64_t> mismatches;  // rows × cols, row-major
  // Cell of matrix element (r, c) for a matrix of `m` rows and `n` columns.
  static int cellOf(std::int64_t index, std::int64_t extent, int cells) {
    return int(index * cells / extent);
  }
};

struct CompareReport {
  std::int64_t elements = 0;
  std::int64_t mismatches = 0;
  std::int64_t nonFinite = 0;  // NaN or Inf in `got` where the reference is not that same Inf
  double maxAbsError = 0.0;    // over finite pairs
  double maxRelError = 0.0;    // |x−r| / |r| over finite pairs with r ≠ 0
  std::optional<Mismatch> firstMismatch;  // in row-major order
  // 1-D problems: the index of the first mismatching element (firstMismatch has row 0).
  std::optional<std::int64_t> firstMismatchIndex;
  // The first kReportedMismatches mismatches in row-major order (the first is firstMismatch).
  // Named in the case's message; not a field of the results document.
  std::vector<Mismatch> firstMismatches;
  ErrorGrid grid;
  bool passed() const { return mismatches == 0; }
};

// The tolerance for checking a cuBLAS reference against the double-precision reference:
// the stages' tolerance was set for depths up to K = 2048 (the property test's range), and
// the rounding error bound of an FP32 sum of K products grows linearly with K (Higham's
// γ_K = K·u), so atol grows by K / 2048 beyond that. (√K, the typical growth, was not enough:
// cublas.sgemm 8192³ had 2 of 67M elements past 2e-4 on an H200.) Stages are always held to
// their own tolerance against cuBLAS.
Tolerance depthScaledTolerance(const Tolerance& spec, std::int64_t k);

// One element: |x − r| ≤ atol + rtol·|r|. NaN or Inf on either side is a mismatch
// unless both are the same Inf.
bool elementMatches(float got, float expected, const Tolerance& tol);

// Row-major `rows × cols` matrices of equal size.
CompareReport compareMatrices(std::span<const float> got, std::span<const float> expected,
                              std::int64_t rows, std::int64_t cols, const Tolerance& tol);

// The canary: C is filled with the byte 0xAA before a beta = 0 launch.
inline constexpr std::uint32_t kCanaryBits = 0xAAAAAAAAu;
float canaryValue();
std::int64_t countCanary(std::span<const float> c);

// Negative control: a copy of the reference with deterministic damage
// (every 7th element, and the last, changed far beyond any tolerance) the comparator must reject.
std::vector<float> mangledCopy(std::span<const float> reference);
// The damage to one element: v + 1 + |v|, 0 for a non-finite v (each damaged element once).
float mangledValue(float v);

// A comparator under test: the pipeline runs its own, tests plug broken ones in.
using Comparator = CompareReport (*)(std::span<const float>, std::span<const float>, std::int64_t,
                                     std::int64_t, const Tolerance&);
// True when `cmp` reports mismatches against a mangled copy of `reference`.
bool negativeControlRejects(Comparator cmp, std::span<const float> reference, std::int64_t rows,
                            std::int64_t cols, const Tolerance& tol);

}  // namespace kwb
