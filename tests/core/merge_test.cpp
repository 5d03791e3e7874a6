// SPDX-License-Identifier: Apache-2.0
// kwb merge (kwb/merge.h): shard documents of one plan joined; missing, failed, duplicated and
// foreign shards; holes shown, never filled; the merged document read back, exported and
// compared by GPU model (kwb/run_compare.h).
#include "kwb/merge.h"

#include <gtest/gtest.h>

#include "kwb/exporters.h"
#include "kwb/run_compare.h"
#include "test_support.h"

namespace {

const std::vector<kwb::Shape> kShapes = {
    {128, 128, 128}, {256, 256, 256}, {512, 512, 512}, {1024, 1024, 1024}};
const char* kKernels[] = {"cublas.sgemm", "sgemm.tiled"};

kwb::DeviceInfo gpu(const std::string& name, const std::string& uuid) {
  kwb::DeviceInfo d;
  d.name = name;
  d.uuid = uuid;
  return d;
}

kwb::CaseResult timedCase(const std::string& kernel, const kwb::Shape& s, double ms) {
  kwb::CaseResult c;
  c.kernel = kernel;
  c.size = kwb::gemmSize(s);
  c.status = kwb::CaseStatus::kPass;
  c.samplesMs = {ms, ms, ms};
  c.summary.count = 3;
  c.summary.median = ms;
  c.summary.ci95 = {ms * 0.999, ms * 1.001};
  return c;
}

// Shard `index` of four: shape i runs in shard i + 1, on `device`.
kwb::ShardInput shardDoc(int index, const kwb::DeviceInfo& device, const std::string& hash = "h1") {
  kwb::RunDocument d;
  d.host = "node" + std::to_string(index);
  d.timestamp = "2026-11-26T10:0" + std::to_string(index) + ":00Z";
  d.device = device;
  d.wallSeconds = index;
  d.shard = kwb::ShardInfo{{index, 4}, hash, {}};
  for (std::size_t i = 0; i < kShapes.size(); ++i)
    for (const char* k : kKernels) {
      d.shard->plan.push_back({k, kwb::gemmSize(kShapes[i]), kwb::Precision::kFp32, int(i) + 1});
      if (int(i) + 1 == index) d.cases.push_back(timedCase(k, kShapes[i], 1.0 + double(i)));
    }
  kwb::listMissingKernels(d);
  kwb::ShardInput in;
  in.source = "shard-" + std::to_string(index) + ".json";
  in.document = d;
  return in;
}

kwb::ShardInput failureRecord(int index, int exitStatus) {
  kwb::ShardInput in;
  in.source = "shard-" + std::to_string(index) + ".failure.json";
  in.failure = kwb::ShardFailure{};
  in.failure->shard = {index, 4};
  in.failure->exitStatus = exitStatus;
  in.failure->stderrTail = {"kwb: no CUDA device"};
  return in;
}

const kwb::DeviceInfo kH100 = gpu("NVIDIA H100 80GB HBM3", "GPU-aaaa");

TEST(Merge, JoinsTheShardsOfOnePlanInPlanOrderOnOneDevice) {
  std::vector<kwb::ShardInput> in;
  for (int i : {3, 1, 4, 2}) in.push_back(shardDoc(i, kH100));
  const kwb::MergeOutcome m = kwb::mergeShards(in);
  EXPECT_TRUE(m.complete);
  EXPECT_TRUE(m.notes.empty());
  const kwb::RunDocument& d = m.document;
  ASSERT_EQ(d.cases.size(), 8u);
  for (std::size_t i = 0; i < d.cases.size(); ++i) {
    EXPECT_EQ(d.cases[i].shape(), kShapes[i / 2]);
    EXPECT_EQ(d.cases[i].device, 0);
  }
  EXPECT_EQ(d.deviceList().size(), 1u) << "one GPU (one uuid) listed once";
  EXPECT_EQ(d.timestamp, "2026-11-26T10:01:00Z");
  EXPECT_EQ(d.wallSeconds, 4.0);
  EXPECT_EQ(d.host, "node1, node2, node3, node4");
  ASSERT_TRUE(d.merged);
  EXPECT_EQ(d.merged->planHash, "h1");
  EXPECT_FALSE(d.shard);
  EXPECT_TRUE(kwb::allPassed(d));
}

TEST(Merge, MergedDocumentReadsBackExportsAndComparesLikeAnyOther) {
  std::vector<kwb::ShardInput> in;
  for (int i = 1; i <= 4; ++i)
    in.push_back(shardDoc(i, i <= 2 ? kH100 : gpu("NVIDIA H200", "GPU-bbbb")));
  const kwb::RunDocument d = kwb::mergeShards(in).document;
  const auto dir = tempDir("merge_roundtrip");
  kwb::writeDocument(d, dir / "all.json");
  const kwb::RunDocument back = kwb::readDocument(dir / "all.json");
  EXPECT_EQ(back.schemaVersion, kwb::kSchemaVersion);
  ASSERT_EQ(back.deviceList().size(), 2u);
  EXPECT_EQ(back.deviceModel(back.cases.front()), "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(back.deviceModel(back.cases.back()), "NVIDIA H200");
  EXPECT_EQ(back.deviceList()[1].host, "node3");
  ASSERT_TRUE(back.merged);
  EXPECT_EQ(back.merged->shards.size(), 4u);
  EXPECT_EQ(kwb::toJsonText(kwb::parseDocument(kwb::toJsonText(back), "again")),
            kwb::toJsonText(back));
  EXPECT_NE(kwb::toCsv(back).find("sgemm.tiled,1024,1024,1024"), std::string::npos);
  // Against itself: every case on its own model, all SAME.
  const auto self = kwb::compareRuns(back, back);
  EXPECT_FALSE(self.crossDevice);
  EXPECT_EQ(self.count(kwb::Verdict::kSame), 8);
}

TEST(Merge, ComparesCasesOnlyOnTheSameGpuModel) {
  std::vector<kwb::ShardInput> in;
  for (int i = 1; i <= 4; ++i)
    in.push_back(shardDoc(i, i <= 2 ? kH100 : gpu("NVIDIA H200", "GPU-bbbb")));
  const kwb::RunDocument merged = kwb::mergeShards(in).document;
  // A single H100 run of the whole plan, everything 50% slower.
  kwb::RunDocument base;
  base.device = kH100;
  for (std::size_t i = 0; i < kShapes.size(); ++i)
    for (const char* k : kKernels)
      base.cases.push_back(timedCase(k, kShapes[i], 1.5 * (1.0 + double(i))));
  const auto r = kwb::compareRuns(base, merged);
  EXPECT_FALSE(r.crossDevice);
  ASSERT_EQ(r.cases.size(), 4u) << "only the H100 shards' cases are compared";
  for (const auto& c : r.cases) {
    EXPECT_EQ(c.device, "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(c.verdict, kwb::Verdict::kFaster);
    ASSERT_GE(c.newIndex, 0);
    EXPECT_EQ(merged.deviceModel(merged.cases[std::size_t(c.newIndex)]), c.device);
    EXPECT_EQ(base.cases[std::size_t(c.baseIndex)].size, c.caseSize);
  }
  ASSERT_EQ(r.otherDevice.size(), 4u);
  EXPECT_NE(r.otherDevice[0].find("on NVIDIA H200"), std::string::npos) << r.otherDevice[0];
  EXPECT_TRUE(r.onlyInBase.empty());
  EXPECT_TRUE(r.onlyInNew.empty());
}

TEST(Merge, MissingAndFailedShardsLeaveHolesWithTheReason) {
  const std::vector<kwb::ShardInput> in = {shardDoc(1, kH100), shardDoc(2, kH100),
                                           failureRecord(4, 3)};
  const kwb::MergeOutcome m = kwb::mergeShards(in);
  EXPECT_FALSE(m.complete);
  ASSERT_EQ(m.notes.size(), 2u);
  EXPECT_EQ(m.notes[0], "shard 3/4: missing (no document, no failure record)");
  EXPECT_EQ(m.notes[1], "shard 4/4: failed: exit 3 (no CUDA device): kwb: no CUDA device");
  const kwb::RunDocument& d = m.document;
  ASSERT_EQ(d.cases.size(), 8u);
  for (int i : {4, 5}) {
    EXPECT_EQ(d.cases[std::size_t(i)].status, kwb::CaseStatus::kSkipped);
    EXPECT_EQ(d.cases[std::size_t(i)].message, "not run: shard 3/4 missing");
    EXPECT_FALSE(d.cases[std::size_t(i)].timed()) << "a hole is never filled";
    EXPECT_EQ(d.deviceOf(d.cases[std::size_t(i)]), nullptr);
  }
  EXPECT_EQ(d.cases[6].message,
            "not run: shard 4/4 failed: exit 3 (no CUDA device): kwb: no CUDA device");
  EXPECT_EQ(d.merged->shards[2].state, "missing");
  EXPECT_EQ(d.merged->shards[3].state, "failed");
  EXPECT_FALSE(kwb::allPassed(d));
  // Holes survive the round trip and stay out of a comparison's verdicts.
  const kwb::RunDocument back = kwb::parseDocument(kwb::toJsonText(d), "merged");
  EXPECT_EQ(back.cases[4].device, -1);
  const auto r = kwb::compareRuns(back, back);
  EXPECT_EQ(r.count(kwb::Verdict::kSame), 4);
  EXPECT_EQ(r.count(kwb::Verdict::kUncertain), 4);
}

TEST(Merge, ADocumentSupersedesAFailureRecordAndADuplicateIsNamed) {
  std::vector<kwb::ShardInput> in;
  for (int i = 1; i <= 4; ++i) in.push_back(shardDoc(i, kH100));
  in.push_back(failureRecord(2, 137));  // the first attempt, resumed since
  const kwb::MergeOutcome resumed = kwb::mergeShards(in);
  EXPECT_TRUE(resumed.complete);
  ASSERT_EQ(resumed.notes.size(), 1u);
  EXPECT_NE(resumed.notes[0].find("superseded"), std::string::npos);
  in.push_back(shardDoc(3, kH100));
  in.back().source = "again-3.json";
  const kwb::MergeOutcome dup = kwb::mergeShards(in);
  EXPECT_FALSE(dup.complete);
  ASSERT_FALSE(dup.notes.empty());
  EXPECT_EQ(dup.notes.front(),
            "shard 3/4: duplicated ('shard-3.json' and 'again-3.json'); the first is merged");
  EXPECT_EQ(dup.document.cases.size(), 8u);
}

TEST(Merge, RefusesShardsOfAnotherPlanNamingTheFile) {
  std::vector<kwb::ShardInput> in = {shardDoc(1, kH100), shardDoc(2, kH100, "h2")};
  const std::string e = errorOf([&] { kwb::mergeShards(in); });
  EXPECT_NE(e.find("'shard-2.json' is of plan h2"), std::string::npos) << e;
  EXPECT_NE(e.find("different plans"), std::string::npos) << e;
  in[1] = shardDoc(2, kH100);
  in[1].document->shard->spec = {2, 5};
  EXPECT_NE(errorOf([&] { kwb::mergeShards(in); }).find("'shard-2.json' is shard 2/5"),
            std::string::npos);
  EXPECT_NE(errorOf([&] { kwb::mergeShards({shardDoc(1, kH100)}, 3); }).find("not one of 3"),
            std::string::npos);
  EXPECT_NE(errorOf([&] { kwb::mergeShards({}); }).find("nothing to merge"), std::string::npos);
}

TEST(Merge, OnlyFailureRecordsGiveAnEmptyDocumentThatSaysSo) {
  const kwb::MergeOutcome m = kwb::mergeShards({failureRecord(1, 3), failureRecord(3, 3)});
  EXPECT_FALSE(m.complete);
  EXPECT_TRUE(m.document.cases.empty());
  ASSERT_EQ(m.document.merged->shards.size(), 4u);
  EXPECT_EQ(m.document.merged->shards[1].state, "missing");
  EXPECT_EQ(m.document.merged->shards[2].state, "failed");
}

TEST(DeviceKey, ACaseNamingADeviceTheDocumentLacksIsRefused) {
  kwb::RunDocument d;
  d.devices = {kH100, gpu("NVIDIA H200", "GPU-bbbb")};
  d.device = d.devices[0];
  d.cases = {timedCase("sgemm.tiled", kShapes[0], 1.0)};
  d.cases[0].device = 1;
  EXPECT_EQ(kwb::parseDocument(kwb::toJsonText(d), "d").deviceModel(d.cases[0]), "NVIDIA H200");
  d.cases[0].device = 2;
  EXPECT_NE(errorOf([&] {
              kwb::parseDocument(kwb::toJsonText(d), "d.json");
            }).find("names device 2, but the document lists 2"),
            std::string::npos);
}

}  // namespace
