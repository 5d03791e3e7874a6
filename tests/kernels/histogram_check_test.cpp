// SPDX-License-Identifier: Apache-2.0
// The histogram family's host side, no GPU needed: the levels as CUB computes them (known
// answers, a float product that rounds up into the next bin included), the host count, the
// exact comparison with a planted miscount, the negative control with a planted blind
// comparator, and the sample-type and distribution words.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "histogram/histogram_args.h"
#include "histogram/histogram_bins.h"
#include "histogram/histogram_check.h"
#include "kwb/error.h"

namespace {

namespace k = kwb::kernels;
using k::SampleType;

std::vector<unsigned> hostCounts(const std::vector<std::uint8_t>& s, int bins) {
  k::HostHistogram h(SampleType::kU8, bins);
  h.add(s.data(), std::int64_t(s.size()));
  return h.counts();
}

TEST(HistogramLevels, U8BinsAreEvenOverTheByteRange) {
  for (unsigned v = 0; v < 256; ++v) EXPECT_EQ(k::binOfU8(v, 256), int(v));
  EXPECT_EQ(k::binOfU8(7, 32), 0);
  EXPECT_EQ(k::binOfU8(8, 32), 1);
  EXPECT_EQ(k::binOfU8(255, 32), 31);
  EXPECT_EQ(k::binOfU8(1, 4096), 16);  // 256 values in 4096 bins: every 16th bin
  EXPECT_EQ(k::binOfU8(255, 100), 99);
  EXPECT_EQ(k::binOfU8(128, 100), 50);
}

TEST(HistogramLevels, F32DropsWhatCubDrops) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  for (const float out : {nan, -inf, inf, -1.0f, -0x1p-24f, 1.0f, 2.0f})
    EXPECT_FALSE(k::inRangeF32(out)) << out;
  for (const float in : {0.0f, -0.0f, 0.5f, 1.0f - 0x1p-24f}) EXPECT_TRUE(k::inRangeF32(in)) << in;
  EXPECT_EQ(k::binOfF32(-0.0f, 256), 0);
  EXPECT_EQ(k::binOfF32(0.5f, 256), 128);
  // Just below 1 stays in the last bin for any bin count (the product never rounds up to B).
  for (const int bins : {32, 100, 256, 1000, 4095, 4096})
    EXPECT_EQ(k::binOfF32(1.0f - 0x1p-24f, bins), bins - 1) << bins;
}

// CUB bins a float by one rounded product, s · float(B): 0.7f is 0.69999998..., so exact
// arithmetic puts it in bin 6 of 10, but the float product rounds to 7.0 and CUB counts it in
// bin 7. The family follows CUB, so the comparison with CUB is exact.
TEST(HistogramLevels, F32UsesCubsRoundedProduct) {
  EXPECT_LT(double(0.7f) * 10.0, 7.0);
  EXPECT_EQ(k::binOfF32(0.7f, 10), 7);
}

TEST(HostHistogram, CountsU8InChunks) {
  std::vector<std::uint8_t> s(256 * 3);
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = std::uint8_t(i);
  k::HostHistogram h(SampleType::kU8, 32);
  h.add(s.data(), 100);  // two chunks give the same as one
  h.add(s.data() + 100, std::int64_t(s.size()) - 100);
  EXPECT_EQ(h.counts(), std::vector<unsigned>(32, 24u));
  EXPECT_EQ(h.inRange(), s.size());
  EXPECT_EQ(h.counts(), hostCounts(s, 32));
}

TEST(HostHistogram, CountsF32InRangeOnly) {
  const std::vector<float> s = {0.0f, 0.25f, 0.25f, 0.99f, std::nanf(""), -0.5f, 1.0f, 3.0f};
  k::HostHistogram h(SampleType::kF32, 4);
  h.add(s.data(), std::int64_t(s.size()));
  EXPECT_EQ(h.counts(), (std::vector<unsigned>{1, 2, 0, 1}));
  EXPECT_EQ(h.inRange(), 4u);
}

TEST(CompareCounts, EqualCountsPass) {
  const std::vector<unsigned> a = {1, 2, 3, 4};
  const kwb::CompareReport r = k::compareCounts(a, a);
  EXPECT_TRUE(r.passed());
  EXPECT_EQ(r.elements, 4);
  EXPECT_EQ(r.grid.cols, 4);
}

// The planted fault: one sample dropped from bin 300 of 4096.
TEST(CompareCounts, CatchesOneDroppedSample) {
  std::vector<unsigned> expected(4096, 1000u), got = expected;
  --got[300];
  const kwb::CompareReport r = k::compareCounts(got, expected);
  EXPECT_EQ(r.mismatches, 1);
  ASSERT_TRUE(r.firstMismatchIndex);
  EXPECT_EQ(*r.firstMismatchIndex, 300);
  EXPECT_EQ(r.firstMismatch->got, 999.0);
  EXPECT_EQ(r.firstMismatch->expected, 1000.0);
  EXPECT_EQ(r.maxAbsError, 1.0);
  EXPECT_EQ(r.grid.mismatches[std::size_t(kwb::ErrorGrid::cellOf(300, 4096, 16))], 1);
  EXPECT_EQ(k::totalOf(got) + 1, k::totalOf(expected));
}

TEST(CompareCounts, AMissingBinIsAMismatch) {
  const std::vector<unsigned> expected = {1, 2, 3}, got = {1, 2};
  EXPECT_EQ(k::compareCounts(got, expected).mismatches, 1);
}

TEST(CompareCounts, CanaryBinsAreCounted) {
  const std::vector<unsigned> c = {kwb::kCanaryBits, 0, kwb::kCanaryBits, 5};
  EXPECT_EQ(k::canaryBins(c), 2);
}

kwb::CompareReport blindComparator(std::span<const unsigned>, std::span<const unsigned>) {
  return {};
}

TEST(CountsNegativeControl, RejectsTheDamagedCopyAndCatchesABlindComparator) {
  const std::vector<unsigned> expected(256, 7u);
  EXPECT_TRUE(k::countsNegativeControlRejected(expected));
  EXPECT_FALSE(k::countsNegativeControlRejected(expected, blindComparator));
  EXPECT_TRUE(k::countsNegativeControlRejected({}, blindComparator));  // nothing to damage
}

TEST(HistogramWords, RoundTripAndNameBadText) {
  for (const SampleType t : {SampleType::kU8, SampleType::kF32})
    EXPECT_EQ(k::parseSampleType(k::toString(t)), t);
  for (const k::Distribution d :
       {k::Distribution::kUniform, k::Distribution::kZipf, k::Distribution::kOneBin})
    EXPECT_EQ(k::parseDistribution(k::toString(d)), d);
  try {
    k::parseDistribution("gaussian");
    FAIL() << "no InputError";
  } catch (const kwb::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'gaussian'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(k::parseSampleType("u16"), kwb::InputError);
  EXPECT_EQ(k::sampleBytes(SampleType::kU8), 1u);
  EXPECT_EQ(k::sampleBytes(SampleType::kF32), 4u);
}

}  // namespace
