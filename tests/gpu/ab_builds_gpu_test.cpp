// SPDX-License-Identifier: Apache-2.0
// kwb ab against another build of kwb (--against-kwb), through the built kwb: the built kwb
// is its own "other build" here, so A and B are the same code and the ratio's known answer is
// 1 (SAME; both sides run in child processes started alike: with B in the coordinating process
// the look-back scan at 2^16 read 25% faster there); a slower stage there against a faster one here
// is FASTER; a program that is not a kwb (or an old kwb without ab-peer) is refused with a message
// naming it. And two versions of a user's .cu with one file name in two folders: each side runs its
// own version.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include "gpu_fixture.h"
#include "kwb/exit_codes.h"
#include "run_process.h"

namespace {

class AbAcrossBuilds : public GpuTest {};

nlohmann::json abReport(const std::vector<std::string>& args, int expectExit) {
  const std::string json = ::testing::TempDir() + "ab_builds.json";
  std::vector<std::string> all = args;
  all.insert(all.end(), {"--json", json});
  const auto r = runKwb(all);
  EXPECT_EQ(r.exitCode, expectExit) << r.out << r.err;
  return nlohmann::json::parse(slurp(json));
}

TEST_F(AbAcrossBuilds, AKernelAgainstItselfInTheOtherBuildIsSame) {
  const auto rep =
      abReport({"ab", "sgemm.tiled", "--against-kwb", KWB_EXE, "--shapes", "512"}, kwb::kExitOk);
  ASSERT_EQ(rep["results"].size(), 1u) << rep["results"].dump(1);
  const auto& x = rep["results"][0];
  EXPECT_EQ(x["verdict"], "SAME") << x.dump(1);
  // Between two processes SAME's margin is 2.5% unless --same-within says otherwise.
  EXPECT_DOUBLE_EQ(rep["sameWithin"].get<double>(), 0.025) << rep["sameWithin"];
  EXPECT_GT(x["pairs"].get<int>(), 50);
  EXPECT_EQ(rep["a"].get<std::string>().rfind("sgemm.tiled@", 0), 0u) << rep["a"];
  EXPECT_EQ(rep["b"], "sgemm.tiled");
  // Two pairs of processes by default, each with its own ratio, and each pair's A and B cases
  // in the document: A's the other build's verification and samples, all verified good.
  ASSERT_EQ(x["processPairs"].size(), 2u) << x.dump(1);
  for (const auto& p : x["processPairs"]) {
    EXPECT_GE(x["ci95"][1].get<double>(), p["ci95"][1].get<double>()) << x.dump(1);
    EXPECT_LE(x["ci95"][0].get<double>(), p["ci95"][0].get<double>()) << x.dump(1);
  }
  const auto& cases = rep["document"]["cases"];
  ASSERT_EQ(cases.size(), 4u);
  for (const auto& c : cases) EXPECT_EQ(c["status"], "pass") << c.dump(1);
  EXPECT_EQ(cases[0]["kernel"], rep["a"]);
  EXPECT_EQ(cases[3]["kernel"], "sgemm.tiled");
  EXPECT_GT(cases[0]["samplesMs"].size(), 25u);
}

// A 1-D family's known-answer test runs on a kernel that launches here: A's descriptor has no
// launcher (the other build ran A's test), and testing it reported "FAILED: ... has no 1-D
// launcher" in every such comparison.
TEST_F(AbAcrossBuilds, AScanAgainstItselfThereIsNeverFasterOrSlowerAndItsKnownAnswerPassesHere) {
  const auto rep = abReport({"ab", "scan.decoupled_lookback", "--against-kwb", KWB_EXE, "--family",
                             "scan", "--sizes", "2^16", "--types", "i32"},
                            kwb::kExitOk);
  ASSERT_EQ(rep["results"].size(), 1u) << rep["results"].dump(1);
  // The same code is never FASTER or SLOWER. At 2^16 (8 tiles) the kernel itself takes 3.1 or
  // 4.1 us depending on the process, for the life of the process (H200, 2026-12-02; CUPTI reads
  // 4.0 in both). With B in the coordinating process one pair called that FASTER in three runs
  // of three; with both in children, one pair read B / A 0.755 in one run of three. Two pairs
  // read SAME where all four processes fell alike, else UNCERTAIN (0.953 and 1.058 in one run).
  const auto& x = rep["results"][0];
  ASSERT_EQ(x["processPairs"].size(), 2u) << x.dump(1);
  EXPECT_TRUE(x["verdict"] == "SAME" || x["verdict"] == "UNCERTAIN") << x.dump(1);
  const auto& ka = rep["document"]["knownAnswer"];
  EXPECT_TRUE(ka["passed"].get<bool>()) << ka.dump(1);
  EXPECT_EQ(ka["detail"].get<std::string>().find("no 1-D launcher"), std::string::npos) << ka;
}

TEST_F(AbAcrossBuilds, TheFasterStageHereAgainstTheNaiveOneThereIsFaster) {
  const auto rep =
      abReport({"ab", "sgemm.naive", "sgemm.tiled", "--against-kwb", KWB_EXE, "--shapes", "1024"},
               kwb::kExitOk);
  ASSERT_EQ(rep["results"].size(), 1u);
  EXPECT_EQ(rep["results"][0]["verdict"], "FASTER") << rep["results"][0].dump(1);
  EXPECT_LT(rep["results"][0]["ratio"].get<double>(), 0.9);
}

TEST_F(AbAcrossBuilds, AProgramThatIsNotAKwbIsRefusedByName) {
  const auto r = runKwb({"ab", "sgemm.tiled", "--against-kwb", "/bin/echo", "--shapes", "64"});
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput) << r.out << r.err;
  EXPECT_NE(r.err.find("'/bin/echo' is not a kwb that can time against this one"),
            std::string::npos)
      << r.err;
}

TEST_F(AbAcrossBuilds, AKernelTheOtherBuildLacksIsRefusedByName) {
  const auto r =
      runKwb({"ab", "no.such_kernel", "sgemm.tiled", "--against-kwb", KWB_EXE, "--shapes", "64"});
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput) << r.out << r.err;
  EXPECT_NE(r.err.find("no.such_kernel"), std::string::npos) << r.err;
}

// The edit of resources/samples/byok (8x4 micro-tiles on 128 threads instead of 4x4 on 256):
// measured 16% faster at 1024^3 on an H100. Before A got its own id, the second registration of
// the stem replaced the first and both sides ran the new code (SAME).
TEST_F(AbAcrossBuilds, TwoVersionsOfOneFileNameEachRunTheirOwnCode) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(::testing::TempDir()) / "ab_same_stem";
  fs::create_directories(dir / "old");
  fs::create_directories(dir / "new");
  const std::string text = slurp(KWB_SOURCE_DIR "/resources/examples/sgemm_tiled_user.cu");
  std::string edited = std::regex_replace(text, std::regex("block=256x1"), "block=128x1");
  edited = std::regex_replace(edited, std::regex("TM = 4, TN = 4"), "TM = 8, TN = 4");
  ASSERT_NE(edited, text);
  std::ofstream(dir / "old" / "sgemm_tiled_user.cu") << text;
  std::ofstream(dir / "new" / "sgemm_tiled_user.cu") << edited;
  const auto rep =
      abReport({"ab", "--against", (dir / "old" / "sgemm_tiled_user.cu").string(), "--source",
                (dir / "new" / "sgemm_tiled_user.cu").string(), "--shapes", "1024"},
               kwb::kExitOk);
  EXPECT_EQ(rep["a"], "user.sgemm_tiled_user#a");
  EXPECT_EQ(rep["b"], "user.sgemm_tiled_user");
  ASSERT_EQ(rep["results"].size(), 1u);
  EXPECT_EQ(rep["results"][0]["verdict"], "FASTER") << rep["results"][0].dump(1);
}

}  // namespace
