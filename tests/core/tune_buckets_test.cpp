// SPDX-License-Identifier: Apache-2.0
// The choice of a configuration per shape bucket (kwb/tune_buckets.h), with bounds worked out
// by hand: 512³ does 2^28 FLOPs, 1024³ 2^31, 2048³ 2^34 and 4096³ 2^37.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kwb/error.h"
#include "kwb/results.h"
#include "kwb/stats.h"
#include "kwb/tune_buckets.h"
#include "sample_document.h"

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
const kwb::Shape k512{512, 512, 512}, k1024{1024, 1024, 1024}, k2048{2048, 2048, 2048},
    k4096{4096, 4096, 4096};

// A sweep's case of configuration `name` on `s`, timed at `ms` when given.
kwb::CaseResult result(const std::string& name, const kwb::Shape& s, const std::string& status,
                       std::optional<double> ms) {
  kwb::CaseResult r;
  r.config = kwb::TuneConfig{name, {}};
  r.kernel = name == kwb::kDefaultConfig ? "sgemm.warp_tiled" : "sgemm.warp_tiled[" + name + "]";
  r.size = kwb::gemmSize(s);
  r.status = kwb::parseCaseStatus(status);
  if (ms) {
    r.samplesMs.assign(12, *ms);
    r.summary = kwb::stats::summarize(r.samplesMs);
    r.gflops = s.flops() / (*ms * 1e6);
  }
  return r;
}

}  // namespace

TEST(TuneBuckets, OneTunedShapeHoldsEveryShape) {
  const std::vector<kwb::CaseResult> rs = {result("default", k512, "pass", 0.4),
                                           result("a", k512, "pass", 0.3),
                                           result("b", k512, "pass", 0.2)};
  const std::vector<kwb::Shape> tuned = {k512};
  const auto choices = kwb::chooseByBucket(rs, tuned);
  ASSERT_EQ(choices.size(), 1u);
  EXPECT_EQ(choices[0].config, "b");
  EXPECT_DOUBLE_EQ(choices[0].gflops, std::ldexp(1.0, 28) / 0.2e6);
  EXPECT_EQ(choices[0].minFlops, 0.0);
  EXPECT_EQ(choices[0].maxFlops, kInf);
  for (const kwb::Shape& s : {kwb::Shape{1, 1, 1}, k4096, kwb::Shape{65536, 65536, 65536}})
    EXPECT_EQ(kwb::choiceFor(choices, s).config, "b") << toString(s);
}

TEST(TuneBuckets, BoundsAreGeometricMidpointsInFlopsOrder) {
  // Given out of order: buckets come back in increasing FLOPs.
  const std::vector<kwb::Shape> tuned = {k4096, k512, k1024};
  const auto choices = kwb::chooseByBucket({}, tuned);
  ASSERT_EQ(choices.size(), 3u);
  EXPECT_EQ(choices[0].shape, k512);
  EXPECT_EQ(choices[1].shape, k1024);
  EXPECT_EQ(choices[2].shape, k4096);
  EXPECT_EQ(choices[0].minFlops, 0.0);
  EXPECT_DOUBLE_EQ(choices[0].maxFlops, std::ldexp(1.0, 29) * std::sqrt(2.0));  // 2^29.5
  EXPECT_EQ(choices[1].minFlops, choices[0].maxFlops);
  EXPECT_EQ(choices[1].maxFlops, std::ldexp(1.0, 34));  // sqrt(2^31 · 2^37)
  EXPECT_EQ(choices[2].minFlops, choices[1].maxFlops);
  EXPECT_EQ(choices[2].maxFlops, kInf);
  EXPECT_NO_THROW(kwb::checkBuckets(choices));
  // 256³ (2^25) is nearest 512³; 768³ (2^30.75) nearest 1024³; 256x384x640 does 125,829,120.
  EXPECT_EQ(kwb::choiceFor(choices, {256, 256, 256}).shape, k512);
  EXPECT_EQ(kwb::choiceFor(choices, {768, 768, 768}).shape, k1024);
  EXPECT_EQ(kwb::choiceFor(choices, {256, 384, 640}).shape, k512);
  EXPECT_EQ(kwb::choiceFor(choices, {8192, 8192, 8192}).shape, k4096);
}

TEST(TuneBuckets, AShapeExactlyAtAMidpointTakesTheLargerBucket) {
  // 512³ and 2048³: the midpoint, sqrt(2^28 · 2^34) = 2^31, is exactly 1024³'s FLOPs.
  const std::vector<kwb::CaseResult> rs = {result("small", k512, "pass", 0.1),
                                           result("large", k2048, "pass", 5.0)};
  const std::vector<kwb::Shape> tuned = {k512, k2048};
  const auto choices = kwb::chooseByBucket(rs, tuned);
  ASSERT_EQ(choices.size(), 2u);
  EXPECT_EQ(choices[0].maxFlops, k1024.flops());
  EXPECT_EQ(kwb::choiceFor(choices, k1024).config, "large");
  EXPECT_EQ(kwb::choiceFor(choices, {1023, 1024, 1024}).config, "small");
}

TEST(TuneBuckets, ABucketWhereNothingPassedRunsTheDefault) {
  // On 1024³ the only timed configuration failed verification and the other was not timed.
  const std::vector<kwb::CaseResult> rs = {result("a", k512, "pass", 0.1),
                                           result("a", k1024, "fail", 0.5),
                                           result("b", k1024, "fallback", std::nullopt),
                                           result("default", k1024, "error", std::nullopt)};
  const std::vector<kwb::Shape> tuned = {k512, k1024};
  const auto choices = kwb::chooseByBucket(rs, tuned);
  EXPECT_EQ(choices[0].config, "a");
  EXPECT_EQ(choices[1].config, kwb::kDefaultConfig);
  EXPECT_EQ(choices[1].gflops, 0.0);
  EXPECT_EQ(kwb::choiceFor(choices, k4096).config, "default");
}

TEST(TuneBuckets, TheDefaultWinsWhereItIsFastest) {
  const std::vector<kwb::CaseResult> rs = {result("default", k512, "pass", 0.1),
                                           result("a", k512, "pass", 0.2)};
  const std::vector<kwb::Shape> tuned = {k512};
  const auto choices = kwb::chooseByBucket(rs, tuned);
  EXPECT_EQ(choices[0].config, "default");
  EXPECT_GT(choices[0].gflops, 0.0);
}

TEST(TuneBuckets, ShapesOfEqualFlopsOrNoShapesAreRefused) {
  const std::vector<kwb::Shape> same = {{512, 1024, 1024}, {1024, 512, 1024}};
  try {
    kwb::chooseByBucket({}, same);
    FAIL() << "two shapes of one bucket were accepted";
  } catch (const kwb::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("1024x512x1024"), std::string::npos) << e.what();
  }
  EXPECT_THROW(kwb::chooseByBucket({}, {}), kwb::InputError);
  EXPECT_THROW(kwb::choiceFor({}, k512), kwb::InputError);
}

TEST(TuneBuckets, CheckBucketsRefusesGapsAndMisplacedShapes) {
  const std::vector<kwb::Shape> tuned = {k512, k4096};
  auto choices = kwb::chooseByBucket({}, tuned);
  EXPECT_NO_THROW(kwb::checkBuckets(choices));
  auto gap = choices;
  gap[1].minFlops *= 2;
  EXPECT_THROW(kwb::checkBuckets(gap), kwb::InputError);
  auto misplaced = choices;
  misplaced[0].shape = k4096;  // outside its own bucket
  EXPECT_THROW(kwb::checkBuckets(misplaced), kwb::InputError);
  auto bounded = choices;
  bounded[1].maxFlops = 1e30;  // the last bucket has no end
  EXPECT_THROW(kwb::checkBuckets(bounded), kwb::InputError);
  EXPECT_THROW(kwb::checkBuckets({}), kwb::InputError);
}

TEST(TuneBuckets, ChoicesRoundTripThroughTheDocument) {
  auto doc = makeSampleDocument();
  kwb::TuneGrid g;
  g.kernel = "sgemm.warp_tiled";
  g.shape = k512;
  g.seed = 7;
  g.results = {result("default", k512, "pass", 0.2), result("a", k512, "pass", 0.1),
               result("default", k4096, "pass", 10.0), result("a", k4096, "fail", 9.0)};
  const std::vector<kwb::Shape> tuned = {k512, k4096};
  g.choices = kwb::chooseByBucket(g.results, tuned);
  g.best = "a";
  doc.tuning = g;
  kwb::listMissingKernels(doc);
  const std::string text = kwb::toJsonText(doc);
  const auto j = nlohmann::json::parse(text);
  EXPECT_TRUE(j["tuning"]["choices"][1]["maxFlops"].is_null());
  EXPECT_EQ(j["tuning"]["choices"][1]["config"], "default");
  const auto back = kwb::parseDocument(text, "mem");
  ASSERT_TRUE(back.tuning);
  ASSERT_EQ(back.tuning->choices.size(), 2u);
  EXPECT_EQ(back.tuning->choices[0].config, "a");
  EXPECT_EQ(back.tuning->choices[1].maxFlops, kInf);
  EXPECT_EQ(back.tuning->choices[1].shape, k4096);
  EXPECT_EQ(kwb::toJsonText(back), text);
}

TEST(TuneBuckets, ASweepWithoutChoicesReadsAsOneBucket) {
  // Written before per-shape buckets: one shape, no "choices", no default among the results.
  auto doc = makeSampleDocument();
  kwb::TuneGrid g;
  g.kernel = "sgemm.warp_tiled";
  g.shape = k4096;
  g.results = {result("a", k4096, "pass", 0.5), result("b", k4096, "pass", 0.4)};
  doc.tuning = g;
  auto j = nlohmann::json::parse(kwb::toJsonText(doc));
  j["tuning"].erase("choices");
  const auto back = kwb::parseDocument(j.dump(), "old-tune.json");
  ASSERT_TRUE(back.tuning);
  ASSERT_EQ(back.tuning->choices.size(), 1u);
  EXPECT_EQ(back.tuning->choices[0].config, "b");
  EXPECT_EQ(back.tuning->choices[0].shape, k4096);
  EXPECT_EQ(back.tuning->choices[0].maxFlops, kInf);
}

TEST(TuneBuckets, InconsistentChoicesAreRefusedNamingTheFile) {
  auto doc = makeSampleDocument();
  kwb::TuneGrid g;
  g.kernel = "sgemm.warp_tiled";
  g.shape = k512;
  const std::vector<kwb::Shape> tuned = {k512, k4096};
  g.choices = kwb::chooseByBucket({}, tuned);
  doc.tuning = g;
  auto j = nlohmann::json::parse(kwb::toJsonText(doc));
  j["tuning"]["choices"][0]["maxFlops"] = 1.0;
  try {
    kwb::parseDocument(j.dump(), "t.json");
    FAIL() << "choices with a gap were accepted";
  } catch (const kwb::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("t.json"), std::string::npos) << e.what();
  }
}
