// SPDX-License-Identifier: Apache-2.0
// The histogram family as the registry declares it, no GPU needed: its axes and size text, the
// sizes it refuses, and its work (the bytes of samples read).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "kwb/error.h"
#include "kwb/family.h"
#include "kwb/results.h"
#include "registry.h"

namespace {

const kwb::Family& histogram() {
  kwb::kernels::registerFamilies();
  return kwb::findFamily("histogram");
}

TEST(HistogramFamily, DeclaresItsAxesHeadlineAndReference) {
  const kwb::Family& f = histogram();
  ASSERT_EQ(f.axes.size(), 4u);
  EXPECT_EQ(f.axes[0].name, "count");
  EXPECT_EQ(f.axes[1].name, "type");
  EXPECT_EQ(f.axes[2].name, "bins");
  EXPECT_EQ(f.axes[2].unit, "bins");
  EXPECT_EQ(f.axes[2].min, 32);
  EXPECT_EQ(f.axes[2].max, 4096);
  EXPECT_EQ(f.axes[3].name, "distribution");
  EXPECT_EQ(f.headline, kwb::Metric::kGbps);
  EXPECT_TRUE(f.memoryBound());
  EXPECT_EQ(f.reference, "cub.histogram_even");
  EXPECT_NE(kwb::kernels::registry().tryFind(f.reference), nullptr);
}

TEST(HistogramFamily, SizesTakeWordsInAnyOrderAndWriteInAxisOrder) {
  const kwb::Family& f = histogram();
  const kwb::CaseSize s = kwb::parseSize(f, "2^28 u8 256 bins uniform");
  EXPECT_EQ(s.number("count"), std::int64_t{1} << 28);
  EXPECT_EQ(s.word("type"), "u8");
  EXPECT_EQ(s.number("bins"), 256);
  EXPECT_EQ(s.word("distribution"), "uniform");
  EXPECT_EQ(kwb::sizeLabel(s), "2^28 u8 256 bins uniform");
  EXPECT_EQ(kwb::parseSize(f, "31 one-bin 4096 bins f32"),
            kwb::parseSize(f, "31 f32 4096 bins one-bin"));
  EXPECT_EQ(kwb::scalingValue(s), double(std::int64_t{1} << 28));  // bins have a unit
}

TEST(HistogramFamily, RefusesSizesOutsideItsAxesNamingThem) {
  const kwb::Family& f = histogram();
  for (const std::string bad : {"2^20 u8 16 bins uniform", "2^20 u8 8192 bins uniform",
                                "2^20 u16 256 bins uniform", "2^20 u8 256 bins gaussian"}) {
    try {
      kwb::parseSize(f, bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const kwb::InputError& e) {
      EXPECT_NE(std::string(e.what()).find("histogram"), std::string::npos) << e.what();
    }
  }
}

TEST(HistogramFamily, WorkIsTheSamplesRead) {
  const kwb::Family& f = histogram();
  ASSERT_NE(f.work, nullptr);
  kwb::CaseResult c;
  c.size = kwb::parseSize(f, "1000 u8 256 bins zipf");
  EXPECT_EQ(f.work(c).bytes, 1000.0);
  EXPECT_EQ(f.work(c).flops, 1000.0);
  c.size = kwb::parseSize(f, "1000 f32 32 bins zipf");
  EXPECT_EQ(f.work(c).bytes, 4000.0);
  c.size = kwb::parseSize(f, "0 f32 32 bins zipf");
  EXPECT_EQ(f.work(c).bytes, 0.0);
}

}  // namespace
