// SPDX-License-Identifier: Apache-2.0
#include "histogram/histogram_check.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "histogram/histogram_bins.h"

namespace kwb::kernels {

HostHistogram::HostHistogram(SampleType type, int bins)
    : m_type(type), m_bins(bins), m_counts(std::size_t(std::max(bins, 0)), 0u) {}

void HostHistogram::add(const void* samples, std::int64_t n) {
  if (m_type == SampleType::kU8) {
    const auto* s = static_cast<const std::uint8_t*>(samples);
    for (std::int64_t i = 0; i < n; ++i) ++m_counts[std::size_t(binOfU8(s[i], m_bins))];
    m_inRange += std::uint64_t(n);
    return;
  }
  const auto* bytes = static_cast<const unsigned char*>(samples);
  for (std::int64_t i = 0; i < n; ++i) {
    float s = 0;
    std::memcpy(&s, bytes + 4 * i, 4);
    if (!inRangeF32(s)) continue;
    ++m_counts[std::size_t(binOfF32(s, m_bins))];
    ++m_inRange;
  }
}

std::int64_t canaryBins(std::span<const unsigned> counts) {
  return std::count(counts.begin(), counts.end(), kCanaryBits);
}

CompareReport compareCounts(std::span<const unsigned> got, std::span<const unsigned> expected) {
  CompareReport r;
  const auto bins = std::int64_t(std::min(got.size(), expected.size()));
  r.elements = bins;
  r.grid.rows = bins > 0 ? 1 : 0;
  r.grid.cols = int(std::min<std::int64_t>(kErrorGridCells, bins));
  r.grid.maxAbs.assign(std::size_t(r.grid.cols), 0.0);
  r.grid.mismatches.assign(std::size_t(r.grid.cols), 0);
  for (std::int64_t b = 0; b < bins; ++b) {
    const double g = got[std::size_t(b)], e = expected[std::size_t(b)];
    if (g == e) continue;
    const double err = std::abs(g - e);
    ++r.mismatches;
    r.maxAbsError = std::max(r.maxAbsError, err);
    if (e != 0) r.maxRelError = std::max(r.maxRelError, err / e);
    const auto cell = std::size_t(ErrorGrid::cellOf(b, bins, r.grid.cols));
    ++r.grid.mismatches[cell];
    r.grid.maxAbs[cell] = std::max(r.grid.maxAbs[cell], err);
    const Mismatch m{0, b, g, e};
    if (!r.firstMismatch) {
      r.firstMismatch = m;
      r.firstMismatchIndex = b;
    }
    if (r.firstMismatches.size() < kReportedMismatches) r.firstMismatches.push_back(m);
  }
  // A different number of bins is a mismatch of every bin one side lacks.
  r.mismatches += std::int64_t(std::max(got.size(), expected.size())) - bins;
  return r;
}

bool countsNegativeControlRejected(std::span<const unsigned> expected, CountComparator cmp) {
  if (expected.empty()) return true;
  std::vector<unsigned> mangled(expected.begin(), expected.end());
  for (std::size_t b = 0; b < mangled.size(); ++b)
    if (b % 7 == 0 || b + 1 == mangled.size()) ++mangled[b];
  return cmp(mangled, expected).mismatches > 0;
}

std::uint64_t totalOf(std::span<const unsigned> counts) {
  std::uint64_t t = 0;
  for (const unsigned c : counts) t += c;
  return t;
}

}  // namespace kwb::kernels
