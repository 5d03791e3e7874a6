// SPDX-License-Identifier: Apache-2.0
// CaseSize and FamilyInfo: one size type for every family (text, key, order, parse, JSON).
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "kwb/error.h"
#include "kwb/family_info.h"
#include "kwb/results.h"
#include "kwb/size_json.h"

namespace {

using kwb::AxisKind;
using kwb::CaseSize;

const kwb::FamilyInfo& gemm() { return *kwb::legacyFamilyInfo("gemm"); }
const kwb::FamilyInfo& reduce() { return *kwb::legacyFamilyInfo("reduce"); }

// A family no table in core knows: a histogram with a bins axis written "256 bins".
kwb::FamilyInfo histogram() {
  return {"histogram",
          "Histogram",
          {{"count", AxisKind::kCount, {}, {}, 0},
           {"bins", AxisKind::kCount, "bins", {}, 32, 4096},
           {"type", AxisKind::kWord, {}, {"u8", "f32"}},
           {"dist", AxisKind::kWord, {}, {"uniform", "skewed", "one-bin"}}},
          kwb::Metric::kGbps,
          "device-to-device copy bandwidth",
          "cub.histogram_even"};
}

std::string errorOf(const kwb::FamilyInfo& f, const std::string& text) {
  try {
    kwb::parseSize(f, text);
  } catch (const kwb::InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(CaseSize, GemmSizesWriteAsShapes) {
  const CaseSize cube = kwb::parseSize(gemm(), "512");
  EXPECT_EQ(cube, kwb::gemmSize({512, 512, 512}));
  EXPECT_EQ(kwb::sizeText(cube), "512\xC2\xB3");
  EXPECT_EQ(kwb::sizeLabel(cube), "512x512x512");
  const CaseSize odd = kwb::parseSize(gemm(),
                                      "256\xC3\x97"
                                      "384x640");
  EXPECT_EQ(kwb::shapeOf(odd), (kwb::Shape{256, 384, 640}));
  EXPECT_EQ(kwb::sizeText(odd),
            "256\xC3\x97"
            "384\xC3\x97"
            "640");
  EXPECT_EQ(kwb::sizeKey(odd), "gemm 256x384x640");
  EXPECT_NEAR(kwb::scalingValue(cube), 512.0, 1e-9);
}

TEST(CaseSize, OneDimensionalSizesTakeTheDefaultWord) {
  const CaseSize s = kwb::parseSize(reduce(), "2^20");
  EXPECT_EQ(s, kwb::vectorSize("reduce", 1 << 20, "f32"));
  EXPECT_EQ(kwb::sizeText(s), "2^20 f32");
  EXPECT_EQ(kwb::sizeLabel(kwb::parseSize(reduce(), "1000003 i32")), "1000003 i32");
  EXPECT_EQ(kwb::parseSize(reduce(), "0 i32").number("count"), 0);
  EXPECT_DOUBLE_EQ(kwb::scalingValue(s), double(1 << 20));
}

TEST(CaseSize, ANewFamilyNeedsOnlyItsDeclaration) {
  const CaseSize s = kwb::parseSize(histogram(), "2^24 skewed 256 bins u8");
  EXPECT_EQ(kwb::sizeText(s), "2^24 256 bins u8 skewed") << "axes in declared order";
  EXPECT_EQ(kwb::parseSize(histogram(), kwb::sizeText(s)), s) << "its text parses back";
  EXPECT_EQ(s.word("dist"), "skewed");
  EXPECT_EQ(s.number("bins"), 256);
  EXPECT_DOUBLE_EQ(kwb::scalingValue(s), double(1 << 24)) << "bins is a unit, not an extent";
  EXPECT_NE(errorOf(histogram(), "2^24 u8").find("the number of bins is missing"),
            std::string::npos);
  EXPECT_NE(errorOf(histogram(), "2^24 16 bins").find("bins must be at least 32"),
            std::string::npos);
}

TEST(CaseSize, BadTextIsRefusedNamingTheTextAndTheGrammar) {
  const std::string two = errorOf(gemm(), "512x512");
  EXPECT_NE(two.find("bad gemm size '512x512': it has 2 numbers, not 3"), std::string::npos) << two;
  EXPECT_NE(two.find("m x n x k"), std::string::npos) << two;
  EXPECT_NE(errorOf(gemm(), "0").find("m must be at least 1"), std::string::npos);
  EXPECT_NE(errorOf(gemm(), "4294967296").find("above 2147483647"), std::string::npos);
  EXPECT_NE(errorOf(reduce(), "2^20 f64").find("'f64' is not a value of any of its axes"),
            std::string::npos);
  EXPECT_NE(errorOf(reduce(), "3^4").find("only powers of two"), std::string::npos);
  EXPECT_NE(errorOf(reduce(), "").find("it is empty"), std::string::npos);
  EXPECT_NE(errorOf(reduce(), "-4").find("count is negative"), std::string::npos);
  // Found by fuzz_preset: 2^-4 shifted by a negative exponent (undefined behaviour).
  EXPECT_NE(errorOf(reduce(), "2^-4").find("'2^-4': the exponent is negative"), std::string::npos);
  EXPECT_NE(errorOf(gemm(), "2^-1x8x8").find("the exponent is negative"), std::string::npos);
}

TEST(CaseSize, OrderIsFamilyThenAxesInOrder) {
  std::vector<CaseSize> v = {
      kwb::vectorSize("scan", 8, "f32"),      kwb::gemmSize({64, 64, 64}),
      kwb::vectorSize("reduce", 1024, "i32"), kwb::vectorSize("reduce", 1024, "f32"),
      kwb::vectorSize("reduce", 16, "i32"),   kwb::gemmSize({8, 512, 512})};
  std::sort(v.begin(), v.end());
  std::vector<std::string> keys;
  for (const CaseSize& s : v) keys.push_back(kwb::sizeKey(s));
  EXPECT_EQ(keys, (std::vector<std::string>{"gemm 8x512x512", "gemm 64x64x64", "reduce 16 i32",
                                            "reduce 2^10 f32", "reduce 2^10 i32", "scan 8 f32"}));
}

TEST(CaseSize, JsonDescribesTheSizeWithoutATableOfFamilies) {
  const CaseSize s = kwb::parseSize(histogram(), "1000003 4096 bins f32 one-bin");
  const nlohmann::json j = s;
  const CaseSize back = j.get<CaseSize>();
  EXPECT_EQ(back, s);
  EXPECT_EQ(kwb::sizeText(back), "1000003 2^12 bins f32 one-bin");
  const nlohmann::json f = histogram();
  EXPECT_EQ(f.get<kwb::FamilyInfo>(), histogram());
  nlohmann::json bad = j;
  bad["axes"][0]["kind"] = "colour";
  EXPECT_THROW(bad.get<CaseSize>(), kwb::InputError);
}

TEST(CaseSize, ADocumentOfAFamilyThisBuildDoesNotKnowReadsBack) {
  kwb::RunDocument doc;
  doc.families = {histogram()};
  kwb::CaseResult c;
  c.kernel = "histogram.shared_atomics";
  c.size = kwb::parseSize(histogram(), "2^20 256 bins u8 uniform");
  c.status = kwb::CaseStatus::kPass;
  doc.cases.push_back(c);
  const kwb::RunDocument back = kwb::parseDocument(kwb::toJsonText(doc), "mem");
  ASSERT_EQ(back.cases.size(), 1u);
  EXPECT_EQ(back.cases[0].size, c.size);
  ASSERT_NE(back.family("histogram"), nullptr);
  EXPECT_EQ(*back.family("histogram"), histogram());
  EXPECT_EQ(back.find("histogram.shared_atomics", c.size), &back.cases[0]);
}
