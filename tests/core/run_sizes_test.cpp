// SPDX-License-Identifier: Apache-2.0
// The sizes of a run of any family (kwb/run_sizes.h): size texts read with the family's axes,
// --axis value lists crossed over the axes a text leaves out, word axes defaulting, and every
// bad axis name, value or combination refused naming it.
#include "kwb/run_sizes.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_support.h"

namespace {

kwb::Family histo() { return histogramLikeFamily("histo"); }

std::vector<std::string> labels(const std::vector<kwb::CaseSize>& sizes) {
  std::vector<std::string> out;
  out.reserve(sizes.size());
  for (const auto& s : sizes) out.push_back(kwb::sizeLabel(s));
  return out;
}

std::vector<kwb::AxisValues> axes(const std::vector<std::string>& texts) {
  std::vector<kwb::AxisValues> out;
  out.reserve(texts.size());
  for (const auto& t : texts) out.push_back(kwb::parseAxisValues(t));
  return out;
}

std::string sizesError(const std::vector<std::string>& texts,
                       const std::vector<std::string>& axisTexts) {
  return errorOf([&] { kwb::runSizes(histo(), texts, axes(axisTexts)); });
}

}  // namespace

TEST(RunSizes, AxisValuesCrossTheSizesTextByTextFirstAxisOutermost) {
  const auto sizes = kwb::runSizes(histo(), {"2^20", "2^24"},
                                   axes({"distribution=uniform,zipf", "type=u8,f32", "bins=256"}));
  EXPECT_EQ(labels(sizes),
            (std::vector<std::string>{"2^20 u8 256 bins uniform", "2^20 u8 256 bins zipf",
                                      "2^20 f32 256 bins uniform", "2^20 f32 256 bins zipf",
                                      "2^24 u8 256 bins uniform", "2^24 u8 256 bins zipf",
                                      "2^24 f32 256 bins uniform", "2^24 f32 256 bins zipf"}));
  EXPECT_EQ(sizes[0].number("bins"), 256);
  EXPECT_EQ(sizes[7].word("distribution"), "zipf");
}

TEST(RunSizes, AWordLeftOutTakesItsFirstWordUnlessTheFamilyRunsThemAll) {
  EXPECT_EQ(labels(kwb::runSizes(histo(), {"1000003 512 bins"}, {})),
            (std::vector<std::string>{"1000003 u8 512 bins uniform"}));
  kwb::Family all = histo();
  all.allWordsByDefault = {"type"};
  EXPECT_EQ(labels(kwb::runSizes(all, {"2^10 zipf 4 bins"}, {})),
            (std::vector<std::string>{"2^10 u8 4 bins zipf", "2^10 f32 4 bins zipf"}));
}

TEST(RunSizes, AxesAloneAreTheirCrossProduct) {
  EXPECT_EQ(labels(kwb::runSizes(histo(), {}, axes({"count=2^20,7", "bins=2"}))),
            (std::vector<std::string>{"2^20 u8 2 bins uniform", "7 u8 2 bins uniform"}));
  EXPECT_NE(errorOf([] { kwb::runSizes(histo(), {}, axes({"count=2^20"})); }).find("no bins"),
            std::string::npos);
}

TEST(RunSizes, BadAxisNamesAndValuesAreRefusedNamingThem) {
  EXPECT_EQ(sizesError({"2^20 256 bins"}, {"colour=red"}),
            "unknown axis 'colour' for the histo family (its axes: count, type, bins, "
            "distribution)");
  EXPECT_EQ(sizesError({"2^20 256 bins"}, {"distribution=gauss"}),
            "bad --axis distribution value 'gauss' for the histo family (it takes "
            "uniform|zipf|one-bin)");
  const std::string zeroBins = sizesError({"2^20"}, {"bins=0"});
  EXPECT_NE(zeroBins.find("'0'"), std::string::npos) << zeroBins;
  EXPECT_NE(zeroBins.find("bins must be at least 1"), std::string::npos) << zeroBins;
  const std::string manyBins = sizesError({"2^20"}, {"bins=lots"});
  EXPECT_NE(manyBins.find("'lots'"), std::string::npos) << manyBins;
  EXPECT_EQ(sizesError({"2^20 256 bins"}, {"type=u8", "type=f32"}), "axis 'type' is given twice");
  EXPECT_EQ(errorOf([] { kwb::parseAxisValues("bins"); }),
            "bad --axis 'bins': expected NAME=V1,V2,...");
  EXPECT_EQ(errorOf([] { kwb::parseAxisValues("=1"); }),
            "bad --axis '=1': expected NAME=V1,V2,...");
  EXPECT_EQ(errorOf([] { kwb::parseAxisValues("bins=1,,2"); }),
            "bad --axis 'bins=1,,2': an empty value (expected bins=V1,V2,...)");
}

TEST(RunSizes, AnAxisASizeNamesIsNotGivenAgain) {
  EXPECT_EQ(sizesError({"2^20 f32 256 bins"}, {"type=u8"}),
            "size '2^20 f32 256 bins' names its type and --axis type gives it too (--axis covers "
            "only the axes a size leaves out)");
  const std::string missing = sizesError({"2^20 u8"}, {});
  EXPECT_NE(missing.find("bad histo size '2^20 u8': no bins"), std::string::npos) << missing;
  EXPECT_NE(missing.find("--axis bins="), std::string::npos) << missing;
  // The size text itself is read as parseSize reads it, naming the bad part.
  EXPECT_NE(sizesError({"2^20 u9 256 bins"}, {}).find("'u9'"), std::string::npos);
}

TEST(RunSizes, ShapesAreGemmsAlone) {
  kwb::FamilyInfo gemm = *kwb::legacyFamilyInfo("gemm");
  EXPECT_TRUE(kwb::takesShapes(gemm));
  EXPECT_FALSE(kwb::takesShapes(histo()));
  EXPECT_FALSE(kwb::takesShapes(*kwb::legacyFamilyInfo("reduce")));
}
