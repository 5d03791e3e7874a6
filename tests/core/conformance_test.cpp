// SPDX-License-Identifier: Apache-2.0
#include "kwb/conformance.h"

#include <gtest/gtest.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kwb/error.h"
#include "kwb/results.h"
#include "sample_document.h"

namespace {

// What a conforming device writes, built from CUDA's definition of a tile: tile g of a
// block holds threads g*T .. g*T+T-1 of the row-major order; the last one holds only the
// threads that exist.
std::vector<kwb::SubgroupRecord> goodRecords(const kwb::SubgroupLaunch& l, int tile) {
  const auto n = std::int32_t(l.threadsPerBlock());
  const std::int32_t groups = (n + tile - 1) / tile;
  std::vector<kwb::SubgroupRecord> out;
  for (std::int32_t b = 0; b < std::int32_t(l.blocks()); ++b)
    for (std::int32_t t = 0; t < n; ++t) {
      kwb::SubgroupRecord r;
      r.groupId = r.groupLinearId = t / tile;
      r.groupRange = r.groupLinearRange = groups;
      r.localId = r.localLinearId = t % tile;
      r.localRange = r.localLinearRange = std::min(tile, n - (t / tile) * tile);
      r.maxLocalRange = tile;
      r.leader = t % tile == 0 ? 1 : 0;
      r.blockLinearId = b;
      r.threadLinearId = t;
      out.push_back(r);
    }
  return out;
}

// 15 threads in tiles of 4: groups of 4, 4, 4 and an incomplete 3, in each of 2 blocks.
kwb::SubgroupLaunch smallLaunch() {
  kwb::SubgroupLaunch l;
  l.block = {5, 3, 1};
  l.grid = {2, 1, 1};
  return l;
}
constexpr int kTile = 4;

std::vector<std::string> failedChecks(const kwb::SubgroupRun& run) {
  std::vector<std::string> ids;
  for (const auto& c : run.checks)
    if (!c.passed) ids.push_back(c.id);
  return ids;
}

kwb::SubgroupRecord& item(std::vector<kwb::SubgroupRecord>& records, int block, int thread) {
  return records.at(std::size_t(block) * 15 + std::size_t(thread));
}

const std::vector<std::string> kPlanChecks = {"group_id",
                                              "local_id",
                                              "local_range",
                                              "group_range",
                                              "leader",
                                              "max_local_range",
                                              "all_written",
                                              "group_count_per_block",
                                              "group_ids_present",
                                              "group_size_per_group",
                                              "local_ids_once"};

}  // namespace

TEST(Conformance, GoodSetPassesEveryCheck) {
  const auto l = smallLaunch();
  const auto run = kwb::checkSubgroupRecords(goodRecords(l, kTile), l, kTile, 32);
  ASSERT_EQ(run.checks.size(), kPlanChecks.size());
  for (std::size_t i = 0; i < kPlanChecks.size(); ++i) {
    EXPECT_EQ(run.checks[i].id, kPlanChecks[i]);
    EXPECT_TRUE(run.checks[i].passed) << run.checks[i].id;
    EXPECT_EQ(run.checks[i].failures, 0) << run.checks[i].id;
    EXPECT_EQ(run.checks[i].notJudged, 0) << run.checks[i].id;
  }
  EXPECT_TRUE(run.passed());
  EXPECT_EQ(run.items, 30);
  EXPECT_EQ(run.tiles, 8);
  EXPECT_EQ(run.incompleteTiles, 2);
}

TEST(Conformance, GoodSetOnTheH100ShapePassesForEveryTileSize) {
  const auto l = kwb::conformanceLaunch({1024, 1024, 64}, 1024);
  for (int tile : kwb::kConformanceTileSizes) {
    const auto run = kwb::checkSubgroupRecords(goodRecords(l, tile), l, tile, 32);
    EXPECT_TRUE(run.passed()) << "tile " << tile;
    EXPECT_EQ(run.tiles, 8 * ((735 + tile - 1) / tile)) << "tile " << tile;
    EXPECT_EQ(run.incompleteTiles, 8) << "tile " << tile;
  }
}

struct Defect {
  const char* name;
  const char* check;  // the one check that must fail
  std::function<void(std::vector<kwb::SubgroupRecord>&)> apply;
};

TEST(Conformance, EachDefectFailsExactlyItsCheck) {
  const std::vector<Defect> defects = {
      // The five defects of the plan's tests.
      {"missing item", "all_written", [](auto& r) { item(r, 0, 6) = kwb::SubgroupRecord{}; }},
      {"duplicated local id", "local_ids_once",
       [](auto& r) { item(r, 0, 3).localId = item(r, 0, 3).localLinearId = 2; }},
      {"leader mismatch", "leader", [](auto& r) { item(r, 1, 5).leader = 1; }},
      {"inconsistent group size", "group_size_per_group",
       [](auto& r) { item(r, 0, 9).localRange = item(r, 0, 9).localLinearRange = 3; }},
      {"group id gap", "group_ids_present",
       [](auto& r) {
         // Block 0 claims 5 groups and renames group 1 to 4: ids 0, 2, 3, 4; 1 is missing.
         for (int t = 0; t < 15; ++t) item(r, 0, t).groupRange = item(r, 0, t).groupLinearRange = 5;
         for (int t = 4; t < 8; ++t) item(r, 0, t).groupId = item(r, 0, t).groupLinearId = 4;
       }},
      // One more for each remaining check, so every check is shown able to fail.
      {"group id differs from its linear form", "group_id",
       [](auto& r) { item(r, 1, 0).groupLinearId = 1; }},
      {"local id differs from its linear form", "local_id",
       [](auto& r) { item(r, 1, 2).localLinearId = 1; }},
      {"local range differs from its linear form", "local_range",
       [](auto& r) { item(r, 1, 14).localLinearRange = 4; }},
      {"group range differs from its linear form", "group_range",
       [](auto& r) { item(r, 0, 0).groupLinearRange = 3; }},
      {"max local range not the tile size", "max_local_range",
       [](auto& r) { item(r, 1, 1).maxLocalRange = 8; }},
      {"two group counts in a block", "group_count_per_block",
       [](auto& r) { item(r, 1, 1).groupRange = item(r, 1, 1).groupLinearRange = 5; }},
      {"entries swapped between threads", "all_written",
       [](auto& r) { std::swap(item(r, 0, 1), item(r, 1, 1)); }},
  };
  const auto l = smallLaunch();
  for (const auto& d : defects) {
    auto records = goodRecords(l, kTile);
    d.apply(records);
    const auto run = kwb::checkSubgroupRecords(records, l, kTile, 32);
    EXPECT_EQ(failedChecks(run), std::vector<std::string>{d.check}) << d.name;
    EXPECT_FALSE(run.passed()) << d.name;
    const auto* c = kwb::findCheck(run, d.check);
    ASSERT_NE(c, nullptr) << d.name;
    EXPECT_GE(c->failures, 1) << d.name;
    EXPECT_FALSE(c->offenders.empty()) << d.name;
  }
}

TEST(Conformance, FailureNamesTheOffendingItems) {
  const auto l = smallLaunch();
  auto records = goodRecords(l, kTile);
  item(records, 0, 3).localId = item(records, 0, 3).localLinearId = 2;
  const auto run = kwb::checkSubgroupRecords(records, l, kTile, 32);
  const auto* c = kwb::findCheck(run, "local_ids_once");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->failures, 2);  // id 2 twice, id 3 never
  ASSERT_EQ(c->offenders.size(), 2u);
  EXPECT_EQ(c->offenders[0], "block 0 group 0: local id 2 occurs 2 times (local range 4)");
  EXPECT_EQ(c->offenders[1], "block 0 group 0: local id 3 occurs 0 times (local range 4)");

  auto missing = goodRecords(l, kTile);
  item(missing, 1, 4) = kwb::SubgroupRecord{};
  const auto missingRun = kwb::checkSubgroupRecords(missing, l, kTile, 32);
  const auto* w = kwb::findCheck(missingRun, "all_written");
  ASSERT_NE(w, nullptr);
  ASSERT_EQ(w->offenders.size(), 1u);
  EXPECT_EQ(w->offenders[0], "entry 19 (block 1 thread 4): unwritten");
}

TEST(Conformance, OffendersAreCappedButCounted) {
  const auto l = smallLaunch();
  auto records = goodRecords(l, kTile);
  for (auto& r : records) r.leader = 1 - r.leader;
  const auto run = kwb::checkSubgroupRecords(records, l, kTile, 32);
  EXPECT_EQ(failedChecks(run), std::vector<std::string>{"leader"});
  const auto* c = kwb::findCheck(run, "leader");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->failures, 30);
  EXPECT_EQ(c->offenders.size(), kwb::kMaxOffenders);
}

TEST(Conformance, UnwrittenBlockIsNotJudgedBySetChecks) {
  const auto l = smallLaunch();
  auto records = goodRecords(l, kTile);
  item(records, 1, 0) = kwb::SubgroupRecord{};
  const auto run = kwb::checkSubgroupRecords(records, l, kTile, 32);
  EXPECT_EQ(kwb::findCheck(run, "group_ids_present")->notJudged, 1);
  EXPECT_EQ(kwb::findCheck(run, "local_ids_once")->notJudged, 4);  // block 1's groups
}

TEST(Conformance, AllUnwrittenFailsOnlyAllWritten) {
  const auto l = smallLaunch();
  const std::vector<kwb::SubgroupRecord> records(std::size_t(l.items()));
  const auto run = kwb::checkSubgroupRecords(records, l, kTile, 32);
  EXPECT_EQ(failedChecks(run), std::vector<std::string>{"all_written"});
  EXPECT_EQ(kwb::findCheck(run, "all_written")->failures, 30);
  EXPECT_EQ(run.tiles, 0);
}

TEST(Conformance, TileSizeThatIsNoSubGroupSizeFails) {
  const auto l = smallLaunch();
  const auto run = kwb::checkSubgroupRecords(goodRecords(l, kTile), l, kTile, 2);
  EXPECT_EQ(failedChecks(run), std::vector<std::string>{"max_local_range"});
}

TEST(Conformance, WrongListSizeIsRefused) {
  const auto l = smallLaunch();
  auto records = goodRecords(l, kTile);
  records.pop_back();
  EXPECT_THROW(kwb::checkSubgroupRecords(records, l, kTile, 32), kwb::InputError);
}

TEST(ConformanceLaunch, H100LimitsGiveAnOddBlockThatFits) {
  const auto b = kwb::conformanceBlockShape({1024, 1024, 64}, 1024);
  EXPECT_EQ(b, (std::array<int, 3>{15, 7, 7}));
  const auto l = kwb::conformanceLaunch({1024, 1024, 64}, 1024);
  EXPECT_EQ(l.block, b);
  EXPECT_EQ(l.grid, (std::array<int, 3>{2, 2, 2}));
  EXPECT_EQ(l.threadsPerBlock(), 735);
  EXPECT_NE(l.threadsPerBlock() % 32, 0);  // an incomplete warp in every block
  EXPECT_EQ(l.items(), 5880);
}

TEST(ConformanceLaunch, EveryLimitGivesAnOddFittingBlock) {
  const std::vector<std::pair<std::array<int, 3>, int>> limits = {
      {{1024, 1024, 64}, 1024}, {{1024, 1024, 1024}, 1024},
      {{512, 512, 64}, 512},    {{2048, 2048, 2048}, 2048},
      {{1, 1, 1}, 1},           {{1024, 1, 1}, 1024},
      {{64, 64, 64}, 100000}};
  for (const auto& [dims, threads] : limits) {
    const auto b = kwb::conformanceBlockShape(dims, threads);
    const std::int64_t product = std::int64_t(b[0]) * b[1] * b[2];
    EXPECT_LE(product, threads);
    EXPECT_EQ(product % 2, 1);  // odd: the last tile of every size 2..32 is incomplete
    for (std::size_t i = 0; i < 3; ++i) {
      EXPECT_GE(b[i], 1);
      EXPECT_LE(b[i], dims[i]);
      EXPECT_LE(b[i], 1023);
    }
  }
  EXPECT_EQ(kwb::conformanceBlockShape({1024, 1, 1}, 1024), (std::array<int, 3>{1023, 1, 1}));
  EXPECT_EQ(kwb::conformanceBlockShape({64, 64, 64}, 100000), (std::array<int, 3>{63, 31, 31}));
}

TEST(ConformanceLaunch, LimitsBelowOneAreRefused) {
  EXPECT_THROW(kwb::conformanceBlockShape({0, 1024, 64}, 1024), kwb::InputError);
  EXPECT_THROW(kwb::conformanceBlockShape({1024, 1024, 64}, 0), kwb::InputError);
}

TEST(ConformanceJson, ReportRoundTripsInTheDocument) {
  auto doc = makeSampleDocument();
  const auto l = smallLaunch();
  auto records = goodRecords(l, kTile);
  item(records, 0, 3).localId = item(records, 0, 3).localLinearId = 2;
  kwb::ConformanceReport report;
  report.warpSize = 32;
  report.runs.push_back(kwb::checkSubgroupRecords(records, l, kTile, 32));
  kwb::SubgroupRun errored;
  errored.tileSize = 8;
  errored.launch = l;
  errored.error = "cudaErrorLaunchFailure";
  report.runs.push_back(errored);
  doc.conformance = report;

  const std::string text = kwb::toJsonText(doc);
  const auto json = nlohmann::json::parse(text);
  EXPECT_FALSE(json.at("conformance").at("passed").get<bool>());
  EXPECT_EQ(json.at("conformance").at("runs").at(0).at("threadsPerBlock").get<int>(), 15);
  const auto back = kwb::parseDocument(text, "mem");
  ASSERT_TRUE(back.conformance);
  EXPECT_EQ(kwb::toJsonText(back), text);
  ASSERT_EQ(back.conformance->runs.size(), 2u);
  const auto& run = back.conformance->runs[0];
  EXPECT_EQ(run.launch.block, l.block);
  EXPECT_EQ(run.incompleteTiles, 2);
  EXPECT_EQ(kwb::findCheck(run, "local_ids_once")->offenders.size(), 2u);
  EXPECT_FALSE(run.passed());
  EXPECT_EQ(back.conformance->runs[1].error, "cudaErrorLaunchFailure");
}

TEST(ConformanceJson, AbsentOrNullReportReadsAsNone) {
  const auto doc = makeSampleDocument();
  auto json = nlohmann::json::parse(kwb::toJsonText(doc));
  EXPECT_TRUE(json.at("conformance").is_null());
  EXPECT_FALSE(kwb::parseDocument(json.dump(), "null").conformance);
  json.erase("conformance");
  EXPECT_FALSE(kwb::parseDocument(json.dump(), "missing").conformance);
}
