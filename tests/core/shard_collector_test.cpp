// SPDX-License-Identifier: Apache-2.0
// kwb/shard_collector.h: shard documents taken one by one as a running job writes them give a
// partial merged document with holes, then the whole one; duplicated, foreign and truncated
// inputs are refused with their reason and change nothing.
#include "kwb/shard_collector.h"

#include <gtest/gtest.h>

#include "kwb/results.h"

namespace {

const kwb::Shape kShapes[] = {{128, 128, 128}, {256, 256, 256}, {512, 512, 512}};

kwb::DeviceInfo gpu(const std::string& name, const std::string& uuid) {
  kwb::DeviceInfo d;
  d.name = name;
  d.uuid = uuid;
  return d;
}

// Shard `index` of three: shape i runs in shard i + 1, on `device`, on host node<index>.
kwb::RunDocument shardDoc(int index, const kwb::DeviceInfo& device,
                          const std::string& hash = "p1") {
  kwb::RunDocument d;
  d.host = "node" + std::to_string(index);
  d.timestamp = "2026-11-27T10:00:00Z";
  d.device = device;
  d.shard = kwb::ShardInfo{{index, 3}, hash, {}};
  for (int i = 0; i < 3; ++i) {
    d.shard->plan.push_back(
        {"sgemm.tiled", kwb::gemmSize(kShapes[i]), kwb::Precision::kFp32, i + 1});
    if (i + 1 != index) continue;
    kwb::CaseResult c;
    c.kernel = "sgemm.tiled";
    c.size = kwb::gemmSize(kShapes[i]);
    c.status = kwb::CaseStatus::kPass;
    c.samplesMs = {1.0, 1.0, 1.0};
    c.summary.count = 3;
    c.summary.median = 1.0;
    d.cases.push_back(c);
  }
  kwb::listMissingKernels(d);
  return d;
}

std::string text(const kwb::RunDocument& d) { return kwb::toJsonText(d); }

const kwb::DeviceInfo kH100 = gpu("NVIDIA H100 80GB HBM3", "GPU-aaaa");
const kwb::DeviceInfo kH200 = gpu("NVIDIA H200", "GPU-bbbb");

int holes(const kwb::RunDocument& d) {
  int n = 0;
  for (const kwb::CaseResult& c : d.cases) n += c.status == kwb::CaseStatus::kSkipped;
  return n;
}

TEST(ShardCollector, ShardsArrivingOneByOneGivePartialDocumentsWithHolesThenTheWholeOne) {
  kwb::ShardCollector c(3);
  EXPECT_TRUE(c.merged().document.cases.empty());
  ASSERT_EQ(c.addText(text(shardDoc(2, kH100)), "shard-2-of-3.json"), "");
  const kwb::RunDocument& first = c.merged().document;
  ASSERT_EQ(first.cases.size(), 3U);
  EXPECT_EQ(holes(first), 2);
  EXPECT_EQ(first.cases[0].message, "not run: shard 1/3 missing");
  EXPECT_EQ(first.cases[0].device, -1);  // a hole ran on no device
  EXPECT_EQ(first.cases[1].status, kwb::CaseStatus::kPass);
  EXPECT_FALSE(c.merged().complete);
  EXPECT_FALSE(c.allIn());

  ASSERT_EQ(c.addText(text(shardDoc(3, kH200)), "shard-3-of-3.json"), "");
  EXPECT_EQ(holes(c.merged().document), 1);
  ASSERT_EQ(c.addText(text(shardDoc(1, kH100)), "shard-1-of-3.json"), "");
  const kwb::RunDocument& all = c.merged().document;
  EXPECT_TRUE(c.merged().complete);
  EXPECT_TRUE(c.allIn());
  EXPECT_EQ(holes(all), 0);
  // Each case names the GPU that ran it, and that GPU its host.
  ASSERT_EQ(all.devices.size(), 2U);
  const kwb::DeviceInfo& third = all.devices[std::size_t(all.cases[2].device)];
  EXPECT_EQ(third.name, "NVIDIA H200");
  EXPECT_EQ(third.host, "node3");
}

TEST(ShardCollector, ADuplicatedShardIsRefusedAndChangesNothing) {
  kwb::ShardCollector c(3);
  ASSERT_EQ(c.addText(text(shardDoc(1, kH100)), "a/shard-1-of-3.json"), "");
  const std::string why = c.addText(text(shardDoc(1, kH200)), "b/shard-1-of-3.json");
  EXPECT_NE(why.find("'b/shard-1-of-3.json' is refused: shard 1/3 is already merged from "
                     "'a/shard-1-of-3.json' (a duplicated shard)"),
            std::string::npos)
      << why;
  ASSERT_EQ(c.merged().document.devices.size(), 1U);
  EXPECT_EQ(c.merged().document.devices[0].name, kH100.name);
}

TEST(ShardCollector, AShardOfAnotherPlanOrPartCountIsRefusedNamingIt) {
  kwb::ShardCollector c(3);
  ASSERT_EQ(c.addText(text(shardDoc(1, kH100, "p1")), "shard-1-of-3.json"), "");
  const std::string foreign = c.addText(text(shardDoc(2, kH100, "p2")), "other/shard-2-of-3.json");
  EXPECT_NE(foreign.find("'other/shard-2-of-3.json' is of plan p2"), std::string::npos) << foreign;
  EXPECT_NE(foreign.find("not merged"), std::string::npos) << foreign;
  EXPECT_FALSE(c.hasDocument(2));
  EXPECT_EQ(holes(c.merged().document), 2);

  kwb::RunDocument four = shardDoc(2, kH100);
  four.shard->spec = {2, 4};
  const std::string parts = c.addText(text(four), "shard-2-of-4.json");
  EXPECT_NE(parts.find("'shard-2-of-4.json' is shard 2/4, not one of the job's 3 parts"),
            std::string::npos)
      << parts;
}

TEST(ShardCollector, ATruncatedShardDocumentIsReportedNotCrashedOn) {
  kwb::ShardCollector c(3);
  const std::string whole = text(shardDoc(2, kH100));
  const std::string why = c.addText(whole.substr(0, whole.size() / 2), "shard-2-of-3.json");
  EXPECT_NE(why.find("shard-2-of-3.json"), std::string::npos) << why;
  EXPECT_FALSE(c.hasDocument(2));
  // The whole file, fetched again, is taken.
  EXPECT_EQ(c.addText(whole, "shard-2-of-3.json"), "");
  EXPECT_TRUE(c.hasDocument(2));
}

TEST(ShardCollector, AFailedShardIsAHoleWithItsReasonUntilItsDocumentSupersedesIt) {
  kwb::ShardCollector c(3);
  kwb::ShardFailure f;
  f.shard = {3, 3};
  f.exitStatus = 3;
  f.stderrTail = {"kwb: no CUDA device"};
  ASSERT_EQ(c.addText(toJsonText(f), "shard-3-of-3.failure.json"), "");
  ASSERT_EQ(c.addText(text(shardDoc(1, kH100)), "shard-1-of-3.json"), "");
  EXPECT_TRUE(c.hasFailure(3));
  const kwb::CaseResult& hole = c.merged().document.cases[2];
  EXPECT_EQ(hole.status, kwb::CaseStatus::kSkipped);
  EXPECT_NE(hole.message.find("shard 3/3 failed: exit 3 (no CUDA device)"), std::string::npos)
      << hole.message;

  ASSERT_EQ(c.addText(text(shardDoc(3, kH100)), "shard-3-of-3.json"), "");  // resumed
  EXPECT_FALSE(c.hasFailure(3));
  EXPECT_EQ(c.merged().document.cases[2].status, kwb::CaseStatus::kPass);
  // Its old record, read again, does not bring the hole back.
  EXPECT_NE(c.addText(toJsonText(f), "shard-3-of-3.failure.json"), "");
  EXPECT_EQ(c.merged().document.cases[2].status, kwb::CaseStatus::kPass);
}

}  // namespace
