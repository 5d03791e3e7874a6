// SPDX-License-Identifier: Apache-2.0
#include "kwb/compare.h"

#include <bit>
#include <algorithm>
#include <cmath>
#include <limits>

namespace kwb {

Tolerance depthScaledTolerance(const Tolerance& spec, std::int64_t k) {
  constexpr double kSpecDepth = 2048.0;
  const double depth = double(k);
  const double scale = depth > kSpecDepth ? depth / kSpecDepth : 1.0;
  return Tolerance{spec.rtol, spec.atol * scale};
}

bool elementMatches(float got, float expected, const Tolerance& tol) {
  const bool gotFinite = std::isfinite(got);
  const bool expFinite = std::isfinite(expected);
  if (!gotFinite || !expFinite) return std::isinf(got) && std::isinf(expected) && got == expected;
  const double x = got, r = expected;
  return std::fabs(x - r) <= tol.atol + tol.rtol * std::fabs(r);
}

CompareReport compareMatrices(std::span<const float> got, std::span<const float> expected,
                              std::int64_t rows, std::int64_t cols, const Tolerance& tol) {
  CompareReport rep;
  rep.elements = rows * cols;
  const std::int64_t n =
      std::min<std::int64_t>(rep.elements, std::int64_t(std::min(got.size(), expected.size())));
  // Elements missing from either side count as mismatches: a short buffer is never a pass.
  rep.mismatches = rep.elements - n;
  auto& g = rep.grid;
  g.rows = int(std::min<std::int64_t>(rows, kErrorGridCells));
  g.cols = int(std::min<std::int64_t>(cols, kErrorGridCells));
  g.maxAbs.assign(std::size_t(g.rows) * std::size_t(g.cols), 0.0);
  g.mismatches.assign(g.maxAbs.size(), 0);
  for (std::int64_t i = 0; i < n; ++i) {
    const float x = got[std::size_t(i)];
    const float r = expected[std::size_t(i)];
    const bool ok = elementMatches(x, r, tol);
    const std::size_t cell =
        std::size_t(ErrorGrid::cellOf(i / cols, rows, g.rows)) * std::size_t(g.cols) +
        std::size_t(ErrorGrid::cellOf(i % cols, cols, g.cols));
    if (std::isfinite(x) && std::isfinite(r)) {
      const double abs = std::fabs(double(x) - double(r));
      rep.maxAbsError = std::max(rep.maxAbsError, abs);
      if (r != 0.0f) rep.maxRelError = std::max(rep.maxRelError, abs / std::fabs(double(r)));
      if (!std::isnan(g.maxAbs[cell])) g.maxAbs[cell] = std::max(g.maxAbs[cell], abs);
    } else if (!ok) {
      ++rep.nonFinite;
      g.maxAbs[cell] = std::numeric_limits<double>::quiet_NaN();
    }
    if (!ok) {
      ++g.mismatches[cell];
      ++rep.mismatches;
      if (!rep.firstMismatch) rep.firstMismatch = Mismatch{i / cols, i % cols, x, r};
      if (rep.firstMismatches.size() < kReportedMismatches)
        rep.firstMismatches.push_back(Mismatch{i / cols, i % cols, x, r});
    }
  }
  return rep;
}

float canaryValue() { return std::bit_cast<float>(kCanaryBits); }

std::int64_t countCanary(std::span<const float> c) {
  std::int64_t n = 0;
  for (float v : c) n += std::bit_cast<std::uint32_t>(v) == kCanaryBits;
  return n;
}

// Shifts by 1 + |v|: beyond atol + rtol·|v| for every tolerance below 1.
float mangledValue(float v) { return std::isfinite(v) ? v + 1.0f + std::fabs(v) : 0.0f; }

std::vector<float> mangledCopy(std::span<const float> reference) {
  std::vector<float> out(reference.begin(), reference.end());
  for (std::size_t i = 0; i < out.size(); i += 7) out[i] = mangledValue(out[i]);
  // The last element too, unless it was one of the 7th (damaged once, as on the device).
  if (!out.empty() && (out.size() - 1) % 7 != 0) out.back() = mangledValue(out.back());
  return out;
}

bool negativeControlRejects(Comparator cmp, std::span<const float> reference, std::int64_t rows,
                            std::int64_t cols, const Tolerance& tol) {
  const std::vector<float> bad = mangledCopy(reference);
  return !cmp(bad, reference, rows, cols, tol).passed();
}

}  // namespace kwb
