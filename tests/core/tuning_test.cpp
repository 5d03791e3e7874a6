// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "kwb/error.h"
#include "kwb/stats.h"
#include "kwb/results.h"
#include "kwb/tuning.h"
#include "sample_document.h"

namespace {

// A configuration's case, timed (`ms` samples of one median) when `ms` is given.
kwb::CaseResult result(const std::string& name, const std::string& status,
                       std::optional<double> ms) {
  kwb::CaseResult r;
  r.config = kwb::TuneConfig{name, {{"BM", 128}, {"BN", 256}, {"STAGES", 4}, {"smemBytes", 98304}}};
  r.kernel = "sgemm.mma_multistage[" + name + "]";
  r.size = kwb::gemmSize({4096, 4096, 4096});
  r.precision = kwb::Precision::kFp16Fp32Acc;
  r.status = kwb::parseCaseStatus(status);
  r.ranKernel = r.kernel;
  if (ms) {
    r.samplesMs.assign(37, *ms);
    r.summary = kwb::stats::summarize(r.samplesMs);
    r.gflops = 2.0 * 4096.0 * 4096.0 * 4096.0 / (*ms * 1e6);
  }
  return r;
}

kwb::TuneGrid sampleGrid() {
  kwb::TuneGrid g;
  g.kernel = "sgemm.mma_multistage";
  g.shape = {4096, 4096, 4096};
  g.seed = 0x5EED;
  g.results = {result("a", "pass", 0.31), result("b", "pass", 0.25), result("c", "fail", 0.10),
               result("d", "fallback", std::nullopt)};
  g.results[2].message = "mismatch at (0, 1)";
  g.results[3].ranKernel = "sgemm.warp_tiled";
  g.best = "b";
  return g;
}

}  // namespace

TEST(Tuning, FastestIgnoresConfigurationsThatDidNotPass) {
  const auto g = sampleGrid();
  // "c" is the fastest but failed verification: it must not win.
  ASSERT_EQ(kwb::fastest(g.results), std::optional<std::size_t>(1));
}

TEST(Tuning, FastestKeepsTheEarlierOfEqualTimes) {
  std::vector<kwb::CaseResult> rs = {result("x", "pass", 0.2), result("y", "pass", 0.2)};
  EXPECT_EQ(kwb::fastest(rs), std::optional<std::size_t>(0));
}

TEST(Tuning, FastestIsNoneWhenNothingWasTimed) {
  std::vector<kwb::CaseResult> rs = {result("x", "fail", std::nullopt),
                                     result("y", "pass", std::nullopt)};
  EXPECT_FALSE(kwb::fastest(rs));
  EXPECT_FALSE(kwb::fastest({}));
}

TEST(Tuning, DocumentRoundTripKeepsTheGrid) {
  auto doc = makeSampleDocument();
  doc.tuning = sampleGrid();
  kwb::listMissingKernels(doc);
  const std::string text = kwb::toJsonText(doc);
  const auto back = kwb::parseDocument(text, "mem");
  ASSERT_TRUE(back.tuning);
  ASSERT_EQ(back.tuning->results.size(), 4u);
  EXPECT_FALSE(back.tuning->results[3].timed());
  ASSERT_TRUE(back.tuning->results[0].config);
  EXPECT_EQ(*back.tuning->results[0].config, *doc.tuning->results[0].config);
  EXPECT_EQ(back.tuning->results[0].config->params.at("smemBytes"), 98304);
  EXPECT_EQ(back.tuning->best, "b");
  EXPECT_EQ(kwb::toJsonText(back), text);
  // A configuration names its kernel's entry.
  const kwb::KernelInfo* k = back.kernelInfo(back.tuning->results[0].kernel);
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->id, "sgemm.mma_multistage");
}

TEST(Tuning, SchemaTwoGridReadsAsCases) {
  // A `kwb tune` document as schema 2 wrote it: results were not cases.
  auto j = nlohmann::json::parse(kwb::toJsonText(makeSampleDocument()));
  j["schemaVersion"] = 2;
  j.erase("kernels");
  j["tuning"] = nlohmann::json::parse(R"({"kernel":"sgemm.warp_tiled",
      "shape":{"m":4096,"n":4096,"k":4096},"seed":24301,"best":"b","results":[
      {"config":{"name":"a","params":{"BM":128}},"status":"pass","message":"",
       "ranKernel":"sgemm.warp_tiled[a]","medianMs":0.5,"gflops":274877.9,"samples":12},
      {"config":{"name":"b","params":{"BM":64}},"status":"fallback","message":"not timed",
       "ranKernel":"sgemm.naive","medianMs":null,"gflops":null,"samples":0}]})");
  const auto back = kwb::parseDocument(j.dump(), "old-tune.json");
  ASSERT_TRUE(back.tuning);
  ASSERT_EQ(back.tuning->results.size(), 2u);
  const kwb::CaseResult& a = back.tuning->results[0];
  EXPECT_EQ(a.kernel, "sgemm.warp_tiled[a]");
  EXPECT_EQ(a.status, kwb::CaseStatus::kPass);
  EXPECT_DOUBLE_EQ(a.summary.median, 0.5);
  EXPECT_EQ(a.summary.count, 12u);
  EXPECT_DOUBLE_EQ(a.gflops, 274877.9);
  ASSERT_TRUE(a.config);
  EXPECT_EQ(a.config->params.at("BM"), 128);
  EXPECT_EQ(back.tuning->results[1].status, kwb::CaseStatus::kFallback);
  EXPECT_EQ(back.tuning->results[1].summary.median, 0.0);
  EXPECT_EQ(kwb::fastest(back.tuning->results), std::optional<std::size_t>(0));
  ASSERT_NE(back.kernelInfo("sgemm.warp_tiled"), nullptr);
  EXPECT_EQ(back.kernelInfo("sgemm.warp_tiled")->stage, 7);
}

TEST(Tuning, AbsentGridIsWrittenAsNullAndReadBackAbsent) {
  const auto doc = makeSampleDocument();
  const auto j = nlohmann::json::parse(kwb::toJsonText(doc));
  ASSERT_TRUE(j.contains("tuning"));
  EXPECT_TRUE(j["tuning"].is_null());
  EXPECT_FALSE(kwb::parseDocument(j.dump(), "mem").tuning);
}

TEST(Tuning, MissingKeyReadsAsNoGrid) {
  auto j = nlohmann::json::parse(kwb::toJsonText(makeSampleDocument()));
  j.erase("tuning");  // documents written before the sweep existed
  EXPECT_FALSE(kwb::parseDocument(j.dump(), "old.json").tuning);
}

TEST(Tuning, EmptyBestIsNull) {
  auto doc = makeSampleDocument();
  doc.tuning = sampleGrid();
  doc.tuning->best.clear();
  const auto j = nlohmann::json::parse(kwb::toJsonText(doc));
  EXPECT_TRUE(j["tuning"]["best"].is_null());
  EXPECT_EQ(kwb::parseDocument(j.dump(), "mem").tuning->best, "");
}

TEST(Tuning, UnknownStatusIsRejectedNamingTheSource) {
  auto doc = makeSampleDocument();
  doc.tuning = sampleGrid();
  auto j = nlohmann::json::parse(kwb::toJsonText(doc));
  j["tuning"]["results"][0]["status"] = "great";
  try {
    kwb::parseDocument(j.dump(), "t.json");
    FAIL() << "an unknown status was accepted";
  } catch (const kwb::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("t.json"), std::string::npos) << e.what();
  }
}
