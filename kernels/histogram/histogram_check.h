// SPDX-License-Identifier: Apache-2.0
#pragma once
// The histogram family's comparison, on the host and free of CUDA (docs/VALIDATION.md,
// "Histogram"): counts are compared exactly, bin by bin; the host counts samples with the
// family's levels (histogram_bins.h) as the independent check; the negative control proves the
// comparison rejects a damaged copy of the reference.
#include <cstdint>
#include <span>
#include <vector>

#include "histogram/histogram_args.h"
#include "kwb/compare.h"

namespace kwb::kernels {

// A histogram counted on the host, fed the samples in chunks (memory stays bounded).
class HostHistogram {
 public:
  HostHistogram(SampleType type, int bins);
  // The next n samples of the type, as raw bytes (n · sampleBytes(type) of them).
  void add(const void* samples, std::int64_t n);
  const std::vector<unsigned>& counts() const { return m_counts; }
  // How many samples were in range (the total of the counts).
  std::uint64_t inRange() const { return m_inRange; }

 private:
  SampleType m_type;
  int m_bins;
  std::vector<unsigned> m_counts;
  std::uint64_t m_inRange = 0;
};

// Bins still holding the canary (every byte 0xAA: 2863311530, more than any count can reach).
std::int64_t canaryBins(std::span<const unsigned> counts);

// Bin by bin, exactly: elements = bins, mismatches, the first few (index = bin), the largest
// |got − expected|, and the error map over bins (one row, up to 16 cells).
CompareReport compareCounts(std::span<const unsigned> got, std::span<const unsigned> expected);

using CountComparator = CompareReport (*)(std::span<const unsigned>, std::span<const unsigned>);
// The negative control: `cmp` must report mismatches against a copy of `expected` with every
// 7th bin and the last one count higher. Vacuous (true) for no bins.
bool countsNegativeControlRejected(std::span<const unsigned> expected,
                                   CountComparator cmp = compareCounts);

// Σ counts, in 64 bits.
std::uint64_t totalOf(std::span<const unsigned> counts);

}  // namespace kwb::kernels
