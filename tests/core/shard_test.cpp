// SPDX-License-Identifier: Apache-2.0
// Shards (kwb/shard.h) and shard failure records (kwb/shard_failure.h): the I/N text, the
// partition by cost, the plan's hash, and a failure record written and read back.
#include "kwb/shard.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "kwb/shard_failure.h"
#include "test_support.h"

namespace {

TEST(ShardSpec, ReadsOneBasedPartsAndRefusesTheRestNamingTheText) {
  EXPECT_EQ(kwb::parseShard("1/4"), (kwb::ShardSpec{1, 4}));
  EXPECT_EQ(kwb::parseShard("4/4"), (kwb::ShardSpec{4, 4}));
  EXPECT_EQ(kwb::toString(kwb::ShardSpec{3, 8}), "3/8");
  for (const char* bad : {"0/4", "5/4", "1/0", "x/y", "1/", "/4", "1/4/2", "-1/4", "1 /4", "",
                          "1/100001", "99999999999/1"}) {
    const std::string e = errorOf([&] { kwb::parseShard(bad); });
    EXPECT_NE(e.find(std::string("'") + bad + "'"), std::string::npos) << bad << ": " << e;
    EXPECT_NE(e.find("I/N"), std::string::npos) << e;
  }
}

TEST(PartitionByCost, EveryGroupOncePlacedTheSameWayEachTime) {
  std::vector<double> costs;
  for (int i = 0; i < 40; ++i) costs.push_back(double((i * 37) % 11 + 1));
  const auto a = kwb::partitionByCost(costs, 4);
  EXPECT_EQ(a, kwb::partitionByCost(costs, 4));
  ASSERT_EQ(a.size(), costs.size());
  std::vector<double> load(4, 0.0);
  for (std::size_t i = 0; i < a.size(); ++i) {
    ASSERT_GE(a[i], 0);
    ASSERT_LT(a[i], 4);
    load[std::size_t(a[i])] += costs[i];
  }
  const auto [lo, hi] = std::minmax_element(load.begin(), load.end());
  // Greedy by cost is within the largest group's cost of perfect balance.
  EXPECT_LE(*hi - *lo, 11.0);
}

TEST(PartitionByCost, AHugeGroupEndsAloneNotBalancedByCount) {
  std::vector<double> costs(12, 1.0);
  costs[5] = 100.0;
  const auto part = kwb::partitionByCost(costs, 3);
  for (std::size_t i = 0; i < costs.size(); ++i) {
    if (i == 5) continue;
    EXPECT_NE(part[i], part[5]) << "group " << i << " shares the huge group's part";
  }
  // The eleven others split over the other two parts, six and five.
  const int first = part[5] == 0 ? 1 : 0;
  const auto inFirst = std::count(part.begin(), part.end(), first);
  EXPECT_TRUE(inFirst == 5 || inFirst == 6) << inFirst;
}

TEST(PartitionByCost, MorePartsThanGroupsLeavesSomeEmptyAndBadCostsCountZero) {
  const auto part = kwb::partitionByCost({3.0, std::nan(""), -1.0}, 5);
  EXPECT_EQ(part[0], 0);
  EXPECT_EQ(part[1], 1);
  EXPECT_EQ(part[2], 2);
  EXPECT_NE(errorOf([] { kwb::partitionByCost({1.0}, 0); }), "no error");
}

TEST(PlanHash, IsStableAndTellsPlansApart) {
  EXPECT_EQ(kwb::planHash("abc"), kwb::planHash("abc"));
  EXPECT_EQ(kwb::planHash("abc").size(), 16u);
  EXPECT_NE(kwb::planHash("abc"), kwb::planHash("abd"));
  EXPECT_EQ(kwb::planHash(""), "cbf29ce484222325");  // FNV-1a 64 offset basis
}

TEST(ShardFailureRecord, RoundTripsAndSaysWhy) {
  kwb::ShardFailure f;
  f.shard = {3, 4};
  f.planHash = "0123456789abcdef";
  f.exitStatus = 3;
  f.host = "node7";
  f.timestamp = "2026-11-26T10:00:00Z";
  f.stderrTail = kwb::tailLines("starting\n\nkwb: no CUDA device: no driver\n");
  ASSERT_EQ(f.stderrTail.size(), 2u);
  const auto dir = tempDir("shard_failure");
  kwb::writeShardFailure(f, dir / "f.json");
  const std::string text = slurp(dir / "f.json");
  EXPECT_TRUE(kwb::looksLikeShardFailure(text));
  const kwb::ShardFailure g = kwb::readShardFailure(dir / "f.json");
  EXPECT_EQ(g.shard, f.shard);
  EXPECT_EQ(g.planHash, f.planHash);
  EXPECT_EQ(g.exitStatus, 3);
  EXPECT_EQ(g.signal, 0);
  EXPECT_EQ(g.host, "node7");
  EXPECT_EQ(g.stderrTail, f.stderrTail);
  EXPECT_EQ(g.reason(), "exit 3 (no CUDA device): kwb: no CUDA device: no driver");
  kwb::ShardFailure killed;
  killed.signal = 9;
  EXPECT_EQ(killed.reason(), "killed by signal 9");
}

TEST(ShardFailureRecord, RefusesOtherFilesAndKeepsOnlyTheTail) {
  EXPECT_FALSE(kwb::looksLikeShardFailure("{\"schemaVersion\": 7}"));
  EXPECT_FALSE(kwb::looksLikeShardFailure("not json"));
  EXPECT_NE(
      errorOf([] { kwb::parseShardFailure("{\"kind\": \"other\"}", "x.json"); }).find("'x.json'"),
      std::string::npos);
  EXPECT_NE(errorOf([] {
              kwb::parseShardFailure(
                  R"({"kind": "kwb-shard-failure", "shard": {"index": 5, "count": 4}})", "y.json");
            }).find("out of range"),
            std::string::npos);
  std::string many;
  for (int i = 0; i < 100; ++i) many += "line " + std::to_string(i) + "\n";
  const auto tail = kwb::tailLines(many);
  ASSERT_EQ(tail.size(), kwb::kFailureTailLines);
  EXPECT_EQ(tail.back(), "line 99");
}

}  // namespace
