// SPDX-License-Identifier: Apache-2.0
// kwb slurm status with stand-ins for sbatch and squeue (tests/data/slurm-gui/slurm-bin), no
// Slurm needed: what it reads of a job that waits in the queue.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "run_process.h"

namespace {

// A job that waits in the queue says why: squeue's reason for each pending task, and the merge
// job's state and reason (kwb-gui waits for it to fetch merged.json), through stand-ins for
// sbatch and squeue (tests/data/slurm-gui/slurm-bin).
TEST(SlurmCli, StatusJsonNamesAPendingTasksReasonAndTheMergeJobsState) {
  const auto state = tempDir("slurm_pending");
  const auto dir = state / "job";
  const std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
  ::setenv("PATH", (KWB_SOURCE_DIR "/tests/data/slurm-gui/slurm-bin:" + path).c_str(), 1);
  ::setenv("KWB_FAKE_SLURM_DIR", state.c_str(), 1);
  const auto sub = runKwb({"slurm", "submit", "--shapes", "64", "--shards", "2", "--gpus-per-task",
                           "0", "--output-dir", dir.string()});
  std::ofstream(state / "states") << "1 RUNNING None\n2 PENDING ReqNodeNotAvail, Reserved\n";
  std::ofstream(state / "merge-state") << "PENDING Dependency\n";
  const auto s = runKwb({"slurm", "status", dir.string(), "--json"});
  const auto table = runKwb({"slurm", "status", dir.string()});
  ::setenv("PATH", path.c_str(), 1);
  ::unsetenv("KWB_FAKE_SLURM_DIR");
  ASSERT_EQ(sub.exitCode, 0) << sub.err;
  EXPECT_TRUE(contains(sub.out, "array job 7001")) << sub.out;
  EXPECT_EQ(s.exitCode, 1) << s.err;
  const auto j = nlohmann::json::parse(s.out);
  EXPECT_EQ(j.at("mergeJob"), "7002");
  EXPECT_EQ(j.at("mergeState"), "PENDING");
  EXPECT_EQ(j.at("mergeReason"), "Dependency");
  const auto& shards = j.at("shards");
  ASSERT_EQ(shards.size(), 2U);
  EXPECT_EQ(shards[0].at("slurm"), "RUNNING");
  EXPECT_EQ(shards[0].at("pendingReason"), "") << "None is no reason";
  EXPECT_EQ(shards[1].at("slurm"), "PENDING");
  EXPECT_EQ(shards[1].at("pendingReason"), "ReqNodeNotAvail, Reserved");
  EXPECT_TRUE(contains(table.out, "PENDING (job 7001: ReqNodeNotAvail, Reserved)")) << table.out;
}

}  // namespace
