#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "kwb/error.h"
#include "kwb/results.h"
#include "kwb/tuning.h"
#include "sample_document.h"

namespace {

kwb::TuneResult result(const std::string& name, const std::string& status,
                       std::optional<double> ms) {
  kwb::TuneResult r;
  r.config.name = name;
  r.config.params = {{"BM", 128}, {"BN", 256}, {"STAGES", 4}, {"smemBytes", 98304}};
  r.status = status;
  r.ranKernel = name;
  r.medianMs = ms;
  if (ms) {
    r.gflops = 2.0 * 4096.0 * 4096.0 * 4096.0 / (*ms * 1e6);
    r.samples = 37;
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
  std::vector<kwb::TuneResult> rs = {result("x", "pass", 0.2), result("y", "pass", 0.2)};
  EXPECT_EQ(kwb::fastest(rs), std::optional<std::size_t>(0));
}

TEST(Tuning, FastestIsNoneWhenNothingWasTimed) {
  std::vector<kwb::TuneResult> rs = {result("x", "fail", std::nullopt),
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
  EXPECT_EQ(*back.tuning, *doc.tuning);
  EXPECT_FALSE(back.tuning->results[3].medianMs);  // null stays absent, not 0
  EXPECT_EQ(back.tuning->results[0].config.params.at("smemBytes"), 98304);
  EXPECT_EQ(kwb::toJsonText(back), text);
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
