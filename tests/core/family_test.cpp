// SPDX-License-Identifier: Apache-2.0
// Problem families (kwb/family.h): sizes, work and derived figures, schema 4 and the reading
// of older documents, 1-D suites, and the keying of progression and comparison by size.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "kwb/error.h"
#include "kwb/events.h"
#include "kwb/exporters.h"
#include "kwb/family.h"
#include "kwb/preset.h"
#include "kwb/progression.h"
#include "kwb/results.h"
#include "kwb/run_compare.h"
#include "registry.h"
#include "sample_document.h"

namespace {

// The families of this build, from their folders under kernels/, as kwb registers them.
const bool kRegistered = (kwb::kernels::registerFamilies(), true);

std::string countError(const char* text) {
  try {
    kwb::parseCount(text);
  } catch (const kwb::InputError& e) {
    return e.what();
  }
  return "";
}

kwb::CaseResult vectorCase(const char* kernel, const char* problem, std::int64_t count,
                           const char* type, double medianMs) {
  kwb::CaseResult c;
  c.kernel = kernel;
  c.size = kwb::vectorSize(problem, count, type);
  c.status = kwb::CaseStatus::kPass;
  c.samplesMs = {medianMs, medianMs, medianMs};
  c.summary.count = 3;
  c.summary.median = medianMs;
  c.summary.ci95 = {medianMs, medianMs};
  return c;
}

}  // namespace

TEST(Family, KnownFamiliesAndTheirContracts) {
  EXPECT_EQ(kwb::findFamily("gemm").headline, kwb::Metric::kGflops);
  EXPECT_EQ(kwb::findFamily("reduce").reference, "cub.reduce_sum");
  EXPECT_EQ(kwb::findFamily("scan").reference, "cub.inclusive_sum");
  EXPECT_EQ(kwb::findFamily("scan").allWordsByDefault, std::vector<std::string>{"type"});
  EXPECT_TRUE(kwb::findFamily("gemm").allWordsByDefault.empty());
  try {
    kwb::findFamily("softmax");
    FAIL() << "an unknown family was accepted";
  } catch (const kwb::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'softmax'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("reduce"), std::string::npos) << e.what();
  }
}

TEST(Family, CountsParse) {
  EXPECT_EQ(kwb::parseCount("2^20"), 1 << 20);
  EXPECT_EQ(kwb::parseCount(" 1000003 "), 1000003);
  EXPECT_EQ(kwb::parseCount("0"), 0);
  EXPECT_EQ(kwb::parseCount("2^30"), std::int64_t{1} << 30);
  const auto list = kwb::parseCountList("2^20,2^28,1000003,0,1,31,33");
  EXPECT_EQ(list, (std::vector<std::int64_t>{1 << 20, 1 << 28, 1000003, 0, 1, 31, 33}));
  EXPECT_EQ(kwb::countText(1 << 20), "2^20");
  EXPECT_EQ(kwb::countText(1000003), "1000003");
}

TEST(Family, BadCountsNameTheText) {
  for (const char* bad : {"2^", "-1", "1e99", "2^40", "abc", "", "3^4", "99999999999999999999"}) {
    const std::string e = countError(bad);
    EXPECT_FALSE(e.empty()) << "'" << bad << "' was accepted";
    const std::string quoted = std::string(1, '\'').append(bad).append(1, '\'');
    EXPECT_NE(e.find(quoted), std::string::npos) << e;
  }
  EXPECT_NE(countError("2^40").find("too large"), std::string::npos);
  EXPECT_NE(countError("-1").find("negative"), std::string::npos);
  EXPECT_FALSE(countError("2147483648").empty());  // one above the limit
}

TEST(Family, FloatToleranceGrowsWithTheCountInt32IsExact) {
  const auto i = kwb::vectorTolerance(kwb::ElementType::kInt32, 1 << 20, 1000.0);
  EXPECT_EQ(i.atol, 0.0);
  EXPECT_EQ(i.rtol, 0.0);
  const auto small = kwb::vectorTolerance(kwb::ElementType::kFloat32, 1 << 10, 1.0);
  const auto large = kwb::vectorTolerance(kwb::ElementType::kFloat32, 1 << 20, 1.0);
  EXPECT_NEAR(large.atol / small.atol, 32.0, 1e-9);  // √n
  EXPECT_GT(small.atol, 0.0);
}

TEST(Family, FiguresDerivedFromTheDeclaredWork) {
  kwb::DeviceInfo d;
  d.peakBandwidthGBs = 3350;
  d.copyBandwidthGBs = 3000;
  auto reduce = vectorCase("reduce.x", "reduce", 1 << 20, "f32", 0.002);
  kwb::deriveFigures(reduce, &d);
  const double bytes = 4.0 * ((1 << 20) + 1);
  EXPECT_DOUBLE_EQ(reduce.figures.at("gbps"), bytes / 2e3);
  EXPECT_DOUBLE_EQ(reduce.figures.at("pct_of_peak"), 100 * bytes / 2e3 / 3350);
  EXPECT_DOUBLE_EQ(reduce.figures.at("pct_of_roof"), 100 * bytes / 2e3 / 3000);
  EXPECT_DOUBLE_EQ(reduce.arithmeticIntensity, double(1 << 20) / bytes);
  auto scan = vectorCase("scan.x", "scan", 1000, "i32", 0.001);
  kwb::deriveFigures(scan, &d);
  EXPECT_DOUBLE_EQ(scan.figures.at("gbps"), 8000.0 / 1e3);
  // % of reference: the family's CUB reference on the same size only.
  auto ref = vectorCase("cub.reduce_sum", "reduce", 1 << 20, "f32", 0.001);
  kwb::deriveFigures(ref, &d);
  auto other = vectorCase("cub.reduce_sum", "reduce", 1 << 20, "i32", 0.0005);
  kwb::deriveFigures(other, &d);
  kwb::fillReferenceFigure(reduce, {other});
  EXPECT_FALSE(reduce.figures.contains("pct_of_reference"));
  kwb::fillReferenceFigure(reduce, {other, ref});
  EXPECT_DOUBLE_EQ(reduce.figures.at("pct_of_reference"), 50.0);
}

TEST(Family, GemmFiguresAsBefore) {
  auto doc = makeSampleDocument();
  kwb::CaseResult c = doc.cases[0];
  c.summary.median = 2.0;
  kwb::deriveFigures(c, &*doc.device);
  EXPECT_DOUBLE_EQ(c.gflops, 2.0 * 1024 * 1024 * 1024 / 2e6);
  EXPECT_DOUBLE_EQ(c.figures.at("gflops"), c.gflops);
  EXPECT_DOUBLE_EQ(c.figures.at("pct_of_peak"),
                   100 * c.gflops / (doc.device->peakFp32Tflops * 1000));
}

TEST(Family, CurrentSchemaRoundTripsOneDimensionalCases) {
  auto doc = makeSampleDocument();
  doc.device->copyBandwidthGBs = 3010.5;
  auto c = vectorCase("scan.decoupled_lookback", "scan", 1000003, "i32", 0.01);
  c.figures = {{"gbps", 800.0}, {"pct_of_reference", 95.5}, {"pct_of_peak", 24.0}};
  kwb::Verification v;
  v.reference = "cpu.fp64";
  v.compare.elements = 1000003;
  v.compare.mismatches = 1;
  v.compare.firstMismatchIndex = 999999;
  v.compare.firstMismatch = kwb::Mismatch{0, 999999, 1.0, 2.0};
  v.negativeControlRejected = true;
  c.verification = v;
  doc.cases.push_back(c);
  const std::string text = kwb::toJsonText(doc);
  EXPECT_NE(text.find("\"schemaVersion\": " + std::to_string(kwb::kSchemaVersion)),
            std::string::npos);
  const auto back = kwb::parseDocument(text, "mem");
  EXPECT_EQ(back.device->copyBandwidthGBs, 3010.5);
  const auto& r = back.cases.back();
  EXPECT_EQ(r.size, kwb::vectorSize("scan", 1000003, "i32"));
  EXPECT_EQ(kwb::sizeText(r.size), "1000003 i32");
  EXPECT_EQ(r.figures, c.figures);
  EXPECT_EQ(r.verification->compare.firstMismatchIndex, 999999);
  EXPECT_EQ(back.cases.front().problem(), "gemm");
}

TEST(Family, OlderSchemasReadWithFiguresDerived) {
  auto doc = makeSampleDocument();
  doc.schemaVersion = 3;
  auto text = kwb::toJsonText(doc);
  // A schema-3 writer had none of the schema-4 fields.
  auto j = nlohmann::json::parse(text);
  for (auto& c : j["cases"]) {
    c["shape"] = {{"m", 1024}, {"n", 1024}, {"k", 1024}};  // what schemas 1-5 wrote
    for (const char* key : {"size", "figures"}) c.erase(key);
  }
  j.erase("families");
  j["device"].erase("copyBandwidthGBs");
  const auto back = kwb::parseDocument(j.dump(), "old");
  const auto& c = back.cases[0];
  EXPECT_EQ(c.size, kwb::gemmSize({1024, 1024, 1024}));
  ASSERT_NE(back.family("gemm"), nullptr) << "read from the legacy declarations";
  EXPECT_DOUBLE_EQ(c.figures.at("gflops"), 2147.5);
  EXPECT_DOUBLE_EQ(c.figures.at("pct_of_reference"), 12.5);
  EXPECT_DOUBLE_EQ(c.figures.at("pct_of_peak"),
                   100 * 2147.5 / (back.device->peakFp32Tflops * 1000));
  EXPECT_EQ(back.device->copyBandwidthGBs, 0.0);
}

TEST(Family, UnknownProblemInALegacyDocumentIsRefused) {
  auto j = nlohmann::json::parse(kwb::toJsonText(makeSampleDocument()));
  j["cases"][0].erase("size");  // a schema-5 case: its family by name only
  j["cases"][0]["problem"] = "softmax";
  j["cases"][0]["shape"] = {{"m", 8}, {"n", 8}, {"k", 8}};
  EXPECT_THROW(kwb::parseDocument(j.dump(), "bad"), kwb::InputError);
}

TEST(Family, PlannedOneDimensionalCasesRoundTripInEvents) {
  kwb::StreamEvent e(kwb::EventType::kCaseStarted);
  e.index = 3;
  e.planned.kernel = "reduce.warp_shuffle";
  e.planned.size = kwb::vectorSize("reduce", 1000003, "f32");
  const auto back = kwb::parseEventLine(kwb::toJsonLine(e), "mem", 1);
  EXPECT_EQ(back.planned.size, e.planned.size);
  EXPECT_EQ(kwb::sizeLabel(back.planned.size), "1000003 f32");
  // A line of an engine before schema 6 still reads.
  const auto old = kwb::parseEventLine(
      R"({"event":"case_started","index":0,"kernel":"scan.blelloch","shape":{"m":0,"n":0,"k":0},)"
      R"("problem":"scan","count":1048576,"elementType":"i32"})",
      "old", 1);
  EXPECT_EQ(kwb::sizeText(old.planned.size), "2^20 i32");
}

TEST(Family, BundledOneDimensionalSuites) {
  const std::filesystem::path dir = std::filesystem::path(KWB_SOURCE_DIR) / "resources" / "presets";
  for (const char* name : {"reduce-benchmark", "scan-benchmark"}) {
    const auto s = kwb::loadSuite(name, dir);
    EXPECT_EQ(s.family, std::string(name).substr(0, std::string(name).find('-')));
    std::vector<std::string> labels;
    for (const auto& size : s.sizes) labels.push_back(kwb::sizeLabel(size));
    EXPECT_EQ(labels,
              (std::vector<std::string>{"2^20 f32", "2^20 i32", "2^24 f32", "2^24 i32", "2^28 f32",
                                        "2^28 i32", "1000003 f32", "1000003 i32"}));
    EXPECT_TRUE(s.shapes.empty());
  }
  EXPECT_EQ(kwb::loadSuite("quick", dir).family, "gemm");
}

TEST(Family, OneDimensionalSuiteRulesNameTheProblem) {
  auto err = [](const std::string& text) -> std::string {
    try {
      kwb::parseSuite(text, "my.json");
    } catch (const kwb::InputError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(err(R"({"name":"x","family":"softmax","sizes":["1"]})").find("'softmax'"),
            std::string::npos);
  EXPECT_NE(err(R"({"name":"x","family":"reduce","shapes":["64"]})").find("sizes"),
            std::string::npos);
  EXPECT_NE(err(R"({"name":"x","family":"scan","sizes":["2^"]})").find("'2^'"), std::string::npos);
  EXPECT_NE(err(R"({"name":"x","family":"scan","sizes":[1],"types":["f64"]})").find("f64"),
            std::string::npos);
  // No types: both, as the family runs them by default.
  const auto ok = kwb::parseSuite(R"({"name":"x","family":"scan","sizes":[0, "2^10"]})", "m");
  ASSERT_EQ(ok.sizes.size(), 4u);
  EXPECT_EQ(kwb::sizeLabel(ok.sizes[0]), "0 f32");
  EXPECT_EQ(kwb::sizeLabel(ok.sizes[3]), "2^10 i32");
}

TEST(Family, ProgressionAndComparisonKeyBySize) {
  // Two sizes of one family: a slower stage at a larger size is no violation.
  auto a = vectorCase("reduce.shared_tree", "reduce", 1 << 20, "f32", 0.010);
  auto b = vectorCase("reduce.warp_shuffle", "reduce", 1 << 24, "f32", 0.020);
  for (auto* c : {&a, &b}) kwb::deriveFigures(*c, nullptr);
  auto stage = [](std::string_view id) { return id == "reduce.shared_tree" ? 2 : 3; };
  EXPECT_TRUE(kwb::checkProgression({a, b}, stage).violations.empty());
  auto slower = vectorCase("reduce.warp_shuffle", "reduce", 1 << 20, "f32", 0.020);
  kwb::deriveFigures(slower, nullptr);
  const auto p = kwb::checkProgression({a, slower}, stage);
  ASSERT_EQ(p.violations.size(), 1u);
  EXPECT_EQ(p.violations[0].size, "2^20 f32");

  kwb::RunDocument base, now;
  base.cases = {a, vectorCase("reduce.shared_tree", "reduce", 1 << 20, "i32", 0.010)};
  now.cases = {vectorCase("reduce.shared_tree", "reduce", 1 << 20, "i32", 0.005)};
  const auto cmp = kwb::compareRuns(base, now, {});
  ASSERT_EQ(cmp.cases.size(), 1u);
  EXPECT_EQ(cmp.cases[0].size, "2^20 i32");
  EXPECT_EQ(cmp.cases[0].newMs, 0.005);
  ASSERT_EQ(cmp.onlyInBase.size(), 1u);
  EXPECT_EQ(cmp.onlyInBase[0], "reduce.shared_tree 2^20 f32");
}

TEST(Family, ExportsShowGigabytesPerSecondForMemoryFamilies) {
  kwb::RunDocument doc;
  auto c = vectorCase("reduce.vectorized", "reduce", 1 << 28, "f32", 0.4);
  kwb::DeviceInfo d;
  d.peakBandwidthGBs = 3350;
  d.copyBandwidthGBs = 3010;
  doc.device = d;
  kwb::deriveFigures(c, &d);
  doc.cases = {c};
  const std::string csv = kwb::toCsv(doc);
  EXPECT_NE(csv.find(",problem,count,element_type,gbps,pct_of_reference,pct_of_peak"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find(",reduce,268435456,f32,2684.4,"), std::string::npos) << csv;
  const std::string md = kwb::toMarkdown(doc);
  EXPECT_NE(md.find("| GB/s | % CUB | % peak | % copy |"), std::string::npos) << md;
  EXPECT_NE(md.find("| reduce.vectorized | 2^28 f32 | pass |"), std::string::npos) << md;
  EXPECT_EQ(md.find("GFLOP/s | % cuBLAS"), std::string::npos) << md;
}
