// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "kwb/error.h"
#include "kwb/preset.h"

namespace fs = std::filesystem;

namespace {
const fs::path kPresets = fs::path(KWB_SOURCE_DIR) / "resources" / "presets";

std::string errorOf(std::string_view text) {
  try {
    kwb::parseSuite(text, "my.json");
  } catch (const kwb::InputError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(Preset, BundledPresetsLoad) {
  const auto names = kwb::presetNames(kPresets);
  for (const char* want : {"quick", "scaling", "spec-benchmark", "spec-correctness"})
    EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
  const auto bench = kwb::loadSuite("spec-benchmark", kPresets);
  ASSERT_EQ(bench.shapes.size(), 5u);
  EXPECT_EQ(bench.shapes[4], (kwb::Shape{511, 513, 1025}));
  const auto scaling = kwb::loadSuite("scaling", kPresets);
  EXPECT_EQ(scaling.shapes.front(), (kwb::Shape{128, 128, 128}));
  EXPECT_EQ(scaling.shapes.back(), (kwb::Shape{8192, 8192, 8192}));
}

TEST(Preset, SpecCorrectnessHasEverySpecShape) {
  const auto s = kwb::loadSuite("spec-correctness", kPresets);
  for (kwb::Shape want : {kwb::Shape{512, 512, 512},
                          {1024, 1024, 1024},
                          {256, 384, 640},
                          {16, 16, 16},
                          {32, 32, 32},
                          {511, 513, 1025},
                          {17, 19, 23},
                          {15, 15, 15},
                          {1, 1, 1},
                          {2, 2, 2},
                          {4, 4, 4},
                          {1, 128, 1},
                          {128, 1, 128},
                          {1, 128, 128}})
    EXPECT_NE(std::find(s.shapes.begin(), s.shapes.end(), want), s.shapes.end())
        << kwb::toString(want);
}

TEST(Preset, UserFileByPath) {
  const fs::path p = fs::temp_directory_path() / "kwb_preset_test_user.json";
  std::ofstream(p)
      << R"({"name":"mine","shapes":["64","8x16x32"],"kernels":["sgemm.naive","cublas.sgemm"]})";
  const auto s = kwb::loadSuite(p.string(), kPresets);
  EXPECT_EQ(s.name, "mine");
  EXPECT_EQ(s.shapes.size(), 2u);
  EXPECT_EQ(s.kernels, "sgemm.naive,cublas.sgemm");
  fs::remove(p);
}

TEST(Preset, UnknownNameListsKnownOnes) {
  try {
    kwb::loadSuite("nope", kPresets);
    FAIL();
  } catch (const kwb::InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("'nope'"), std::string::npos) << m;
    EXPECT_NE(m.find("spec-benchmark"), std::string::npos) << m;
  }
  EXPECT_THROW(kwb::loadSuite("/no/such/file.json", kPresets), kwb::InputError);
}

TEST(Preset, BadFilesNameTheProblem) {
  EXPECT_NE(errorOf("{").find("not valid JSON"), std::string::npos);
  EXPECT_NE(errorOf("[]").find("not a JSON object"), std::string::npos);
  EXPECT_NE(errorOf(R"({"shapes":["1"]})").find("'name'"), std::string::npos);
  EXPECT_NE(errorOf(R"({"name":"a","shapes":[]})").find("'shapes'"), std::string::npos);
  EXPECT_NE(errorOf(R"({"name":"a","shapes":["0x1x1"]})").find("'0x1x1'"), std::string::npos);
  EXPECT_NE(errorOf(R"({"name":"a","shapes":[5]})").find("string"), std::string::npos);
  EXPECT_NE(errorOf(R"({"name":"a","shapes":["5"],"kernels":3})").find("'kernels'"),
            std::string::npos);
  EXPECT_NE(errorOf("{").find("'my.json'"), std::string::npos);
}
