// SPDX-License-Identifier: Apache-2.0
// Scale-out on the command line (docs/SCALE_OUT.md): --shard's bad values, kwb merge of shard
// documents and failure records (written by kwb shard-failure), the merged document through
// export and compare, and kwb slurm submit --dry-run's scripts. No GPU and no Slurm needed
// (tests/slurm/ runs a real one).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "kwb/results.h"
#include "run_process.h"
#include "shard_docs.h"

namespace fs = std::filesystem;

namespace {

TEST(ShardCli, BadShardValuesAreRefusedNamingTheInput) {
  for (const std::string cmd : {"run", "verify"})
    for (const char* bad : {"0/4", "5/4", "1/0", "x/y"}) {
      const auto r = runKwb({cmd, "--shapes", "64", "--shard", bad});
      EXPECT_EQ(r.exitCode, 2) << cmd << " " << bad << ": " << r.err;
      EXPECT_TRUE(contains(r.err, std::string("--shard '") + bad + "'")) << r.err;
    }
  const auto t =
      runKwb({"tune", "--kernel", "sgemm.warp_tiled", "--shape", "256", "--shard", "2/1"});
  EXPECT_EQ(t.exitCode, 2) << t.err;
  EXPECT_TRUE(contains(t.err, "--shard '2/1'")) << t.err;
}

TEST(ShardCli, AShardWithoutADeviceExitsThreeAndWritesNoDocument) {
  const auto dir = tempDir("shard_nodevice");
  const auto r =
      runKwb({"run", "--shapes", "64,128", "--shard", "1/2", "--json", (dir / "s.json").string()});
  if (r.exitCode != 3) GTEST_SKIP() << "a CUDA device is present: " << r.err;
  EXPECT_FALSE(fs::exists(dir / "s.json"));
}

TEST(MergeCli, JoinsShardsAndTheResultExportsAndCompares) {
  const auto dir = tempDir("merge_all");
  std::vector<std::string> args{"merge"};
  for (int i = 1; i <= 4; ++i) {
    writeShard(dir / ("s" + std::to_string(i) + ".json"), i);
    args.push_back((dir / ("s" + std::to_string(i) + ".json")).string());
  }
  args.insert(args.end(), {"-o", (dir / "all.json").string()});
  const auto r = runKwb(args);
  EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "merged 4 of 4 shards (4 cases")) << r.out;
  const kwb::RunDocument all = kwb::readDocument(dir / "all.json");
  EXPECT_EQ(all.cases.size(), 4u);
  const auto e =
      runKwb({"export", (dir / "all.json").string(), "--csv", (dir / "all.csv").string()});
  EXPECT_EQ(e.exitCode, 0) << e.err;
  EXPECT_TRUE(contains(slurp((dir / "all.csv").string()), "cublas.sgemm,512,512,512"));
  const auto c = runKwb({"compare", (dir / "all.json").string(), (dir / "all.json").string()});
  EXPECT_EQ(c.exitCode, 0) << c.err;
  EXPECT_TRUE(contains(c.out, "0 faster, 0 slower, 4 same")) << c.out;
}

TEST(MergeCli, MissingAndFailedShardsAreNamedHolesKeptAndExitIsOne) {
  const auto dir = tempDir("merge_holes");
  writeShard(dir / "s1.json", 1);
  writeShard(dir / "s2.json", 2);
  spit(dir / "err.txt", "starting\nkwb: no CUDA device: no driver loaded\n");
  const auto f = runKwb({"shard-failure", "--shard", "4/4", "--exit", "3", "--stderr",
                         (dir / "err.txt").string(), "-o", (dir / "s4.failure.json").string()});
  ASSERT_EQ(f.exitCode, 0) << f.err;
  const auto r = runKwb({"merge", (dir / "s1.json").string(), (dir / "s2.json").string(),
                         (dir / "s4.failure.json").string(), "-o", (dir / "all.json").string()});
  EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
  EXPECT_TRUE(contains(r.err, "shard 3/4: missing")) << r.err;
  EXPECT_TRUE(contains(r.err,
                       "shard 4/4: failed: exit 3 (no CUDA device): kwb: no CUDA device: "
                       "no driver loaded"))
      << r.err;
  const kwb::RunDocument all = kwb::readDocument(dir / "all.json");
  ASSERT_EQ(all.cases.size(), 4u);
  EXPECT_EQ(all.cases[2].message, "not run: shard 3/4 missing");
  EXPECT_TRUE(contains(all.cases[3].message, "not run: shard 4/4 failed: exit 3"));
  // A process killed by SIGKILL (the shell's 137) is recorded as the signal.
  const auto k = runKwb({"shard-failure", "--shard", "3/4", "--exit", "137", "-o",
                         (dir / "s3.failure.json").string()});
  ASSERT_EQ(k.exitCode, 0) << k.err;
  EXPECT_TRUE(contains(slurp((dir / "s3.failure.json").string()), "\"signal\": 9"));
}

TEST(MergeCli, AShardOfAnotherPlanIsRefusedAndNothingIsWritten) {
  const auto dir = tempDir("merge_foreign");
  writeShard(dir / "s1.json", 1);
  writeShard(dir / "s2.json", 2, "0000000000000000");
  const auto r = runKwb({"merge", (dir / "s1.json").string(), (dir / "s2.json").string(), "-o",
                         (dir / "all.json").string()});
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "s2.json' is of plan 0000000000000000")) << r.err;
  EXPECT_FALSE(fs::exists(dir / "all.json"));
  // A document that is not a shard's, and a file that is neither.
  kwb::writeDocument(kwb::RunDocument{}, dir / "plain.json");
  const auto p =
      runKwb({"merge", (dir / "plain.json").string(), "-o", (dir / "all.json").string()});
  EXPECT_EQ(p.exitCode, 2);
  EXPECT_TRUE(contains(p.err, "is not a shard's document")) << p.err;
  const auto b =
      runKwb({"shard-failure", "--shard", "0/4", "--exit", "3", "-o", (dir / "f").string()});
  EXPECT_EQ(b.exitCode, 2);
  EXPECT_TRUE(contains(b.err, "--shard '0/4'")) << b.err;
}

TEST(SlurmCli, DryRunWritesTheArrayAndMergeScripts) {
  const auto dir = tempDir("slurm_dry") / "job";
  const auto r =
      runKwb({"slurm", "submit", "--suite", "spec-benchmark", "--shards", "4", "--partition", "gpu",
              "--time", "01:00:00", "--output-dir", dir.string(), "--dry-run", "--", "--cold"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::string array = slurp((dir / "kwb-array.sbatch").string());
  for (const char* line :
       {"#SBATCH --array=1-4\n", "#SBATCH --gres=gpu:1\n", "#SBATCH --partition=gpu\n",
        "#SBATCH --time=01:00:00\n",
        "'run' '--suite' 'spec-benchmark' '--cold' --shard \"$i/$n\" --json \"$doc\"",
        " shard-failure --shard \"$i/$n\" --exit \"$rc\""})
    EXPECT_TRUE(contains(array, line)) << line << "\n" << array;
  const std::string merge = slurp((dir / "kwb-merge.sbatch").string());
  EXPECT_TRUE(contains(merge, " merge --shards 4 ")) << merge;
  EXPECT_TRUE(contains(r.out, "sbatch --dependency=afterany:")) << r.out;
  EXPECT_TRUE(fs::exists(dir / "kwb-slurm.json"));
  // Status of a job never submitted: every shard "not submitted", exit 1 (no documents).
  const auto s = runKwb({"slurm", "status", dir.string()});
  EXPECT_EQ(s.exitCode, 1) << s.err;
  EXPECT_TRUE(contains(s.out, "not submitted")) << s.out;
  // The folder now holds a job: a second submit there is refused.
  const auto again =
      runKwb({"slurm", "submit", "--shards", "2", "--output-dir", dir.string(), "--dry-run"});
  EXPECT_EQ(again.exitCode, 2);
  EXPECT_TRUE(contains(again.err, "already holds a job")) << again.err;
}

TEST(SlurmCli, NoGpuRequestWithZeroAndBadInputIsRefused) {
  const auto dir = tempDir("slurm_bad");
  const auto r = runKwb({"slurm", "submit", "--shapes", "64", "--shards", "2", "--gpus-per-task",
                         "0", "--output-dir", (dir / "a").string(), "--dry-run"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_FALSE(contains(slurp((dir / "a" / "kwb-array.sbatch").string()), "gpu")) << "no GPU line";
  const std::vector<std::vector<std::string>> bad = {
      {"--shards", "0"},
      {"--shards", "2", "--suite", "no-such-suite"},
      {"--shards", "2", "--partition", "a b"},
      {"--shards", "2", "--", "--json", "x.json"},
  };
  for (const auto& b : bad) {
    std::vector<std::string> args{"slurm", "submit", "--output-dir", (dir / "b").string(),
                                  "--dry-run"};
    args.insert(args.end(), b.begin(), b.end());
    const auto x = runKwb(args);
    EXPECT_EQ(x.exitCode, 2) << b.back() << ": " << x.err;
    EXPECT_FALSE(fs::exists(dir / "b" / "kwb-slurm.json")) << b.back();
  }
  const auto sp = runKwb({"slurm", "submit", "--shards", "2", "--output-dir",
                          (dir / "with space").string(), "--dry-run"});
  EXPECT_EQ(sp.exitCode, 2);
  EXPECT_TRUE(contains(sp.err, "--output-dir")) << sp.err;
  EXPECT_FALSE(fs::exists(dir / "with space"));
  const auto s = runKwb({"slurm", "status", (dir / "nothing").string()});
  EXPECT_EQ(s.exitCode, 2);
  EXPECT_TRUE(contains(s.err, "holds no kwb slurm job")) << s.err;
}

// kwb slurm status --json (what kwb-gui's Slurm target polls): each shard's result read from
// the folder (a document, a failure record with its reason, nothing), its files, and merged.json.
TEST(SlurmCli, StatusJsonSaysEachShardsResultReasonAndFiles) {
  const auto dir = tempDir("slurm_json") / "job";
  ASSERT_EQ(runKwb({"slurm", "submit", "--shapes", "64", "--shards", "3", "--output-dir",
                    dir.string(), "--dry-run"})
                .exitCode,
            0);
  std::ofstream(dir / "shard-1-of-3.json") << "{}";
  std::ofstream(dir / "logs" / "shard-2.stderr") << "kwb: no CUDA device: none found\n";
  ASSERT_EQ(runKwb({"shard-failure", "--shard", "2/3", "--exit", "3", "--stderr",
                    (dir / "logs" / "shard-2.stderr").string(), "-o",
                    (dir / "shard-2-of-3.failure.json").string()})
                .exitCode,
            0);
  const auto s = runKwb({"slurm", "status", dir.string(), "--json"});
  EXPECT_EQ(s.exitCode, 1) << s.err;  // not every shard has its document
  const auto j = nlohmann::json::parse(s.out);
  EXPECT_EQ(j.at("kind"), "kwb-slurm-status");
  EXPECT_EQ(j.at("count"), 3);
  EXPECT_EQ(j.at("arrayJob"), "");  // a dry run submitted nothing
  EXPECT_EQ(j.at("merged"), "");
  const auto& shards = j.at("shards");
  ASSERT_EQ(shards.size(), 3U);
  EXPECT_EQ(shards[0].at("result"), "document");
  EXPECT_EQ(shards[0].at("document"), (dir / "shard-1-of-3.json").string());
  EXPECT_EQ(shards[1].at("result"), "failed");
  EXPECT_TRUE(contains(shards[1].at("reason").get<std::string>(), "exit 3 (no CUDA device)"))
      << shards[1].dump();
  EXPECT_EQ(shards[1].at("failureRecord"), (dir / "shard-2-of-3.failure.json").string());
  EXPECT_EQ(shards[2].at("result"), "none");
  EXPECT_FALSE(shards[2].at("submitted").get<bool>());
  std::ofstream(dir / "merged.json") << "{}";
  const auto m = nlohmann::json::parse(runKwb({"slurm", "status", dir.string(), "--json"}).out);
  EXPECT_EQ(m.at("merged"), (dir / "merged.json").string());
}

}  // namespace
