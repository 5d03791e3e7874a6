// SPDX-License-Identifier: Apache-2.0
// The CLI on hostile input (docs/RELIABILITY.md): exit 2 naming the input, nothing lost, no
// hang; options are validated before anything runs. None of these needs a GPU.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "../core/sample_document.h"
#include "kwb/error.h"
#include "kwb/events.h"
#include "run_process.h"

namespace fs = std::filesystem;

namespace {

std::string sampleText() { return kwb::toJsonText(makeSampleDocument()); }

// The sample document with its wallSeconds replaced by `number`.
std::string withWallSeconds(const std::string& number) {
  std::string text = sampleText();
  const std::string key = "\"wallSeconds\": ";
  const auto at = text.find(key) + key.size();
  text.replace(at, text.find('\n', at) - at, number);
  return text;
}

}  // namespace

// Finding 1: 1e400 threw nlohmann's out_of_range, which export reported as exit 4.
TEST(CliReliability, ExportOfAnOutOfRangeNumberExitsTwoNamingTheFile) {
  const fs::path dir = tempDir("range");
  spit(dir / "r.json", withWallSeconds("1e400"));
  const auto r = runKwb({"export", (dir / "r.json").string(), "--csv", (dir / "o.csv").string()});
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput) << r.err;
  EXPECT_TRUE(contains(r.err, (dir / "r.json").string())) << r.err;
  EXPECT_FALSE(fs::exists(dir / "o.csv"));
  fs::remove_all(dir);
}

TEST(CliReliability, ReplayOfAnOutOfRangeNumberExitsTwoNamingFileAndLine) {
  const fs::path dir = tempDir("replay-range");
  kwb::StreamEvent hello(kwb::EventType::kHello);
  std::string text = kwb::toJsonLine(hello) + "\n" +
                     R"({"event":"log","elapsedS":1e400,"level":"info","message":"x"})" + "\n";
  spit(dir / "s.jsonl", text);
  const auto r = runKwb({"replay", "--speed", "0", (dir / "s.jsonl").string()});
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput) << r.err;
  EXPECT_TRUE(contains(r.err, (dir / "s.jsonl").string() + ":2")) << r.err;
  EXPECT_TRUE(r.out.empty());
  fs::remove_all(dir);
}

// Finding 8: replay exited with the file's exitCode, so 256 became 0.
TEST(CliReliability, ReplayRefusesAnExitCodeKwbNeverGives) {
  const fs::path dir = tempDir("replay-exit");
  kwb::StreamEvent done(kwb::EventType::kDone);
  std::string line = kwb::toJsonLine(done);
  line.replace(line.find("\"exitCode\":0"), 12, "\"exitCode\":256");
  spit(dir / "s.jsonl",
       kwb::toJsonLine(kwb::StreamEvent(kwb::EventType::kHello)) + "\n" + line + "\n");
  const auto r = runKwb({"replay", "--speed", "0", (dir / "s.jsonl").string()});
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput) << r.err;
  EXPECT_TRUE(contains(r.err, "exitCode")) << r.err;
  fs::remove_all(dir);
}

// Finding 7: a FIFO or /dev/zero as input hung.
TEST(CliReliability, NonRegularInputsAreRefusedAtOnce) {
  const fs::path dir = tempDir("fifo");
  const fs::path fifo = dir / "in.json";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"export", fifo.string(), "--csv", (dir / "o.csv").string()},
           {"replay", fifo.string()},
           {"replay", "/dev/zero"},
           {"export", "/dev/zero", "--csv", (dir / "o.csv").string()}}) {
    const auto r = runKwb(args);
    EXPECT_EQ(r.exitCode, kwb::kExitBadInput) << args[1] << ": " << r.err;
    EXPECT_TRUE(contains(r.err, "not a regular file")) << r.err;
  }
  fs::remove_all(dir);
}

// Finding 2: export onto its own input replaced it with CSV; --csv X --md X kept only one.
TEST(CliReliability, ExportRefusesToOverwriteItsInputOrWriteTwoOutputsToOneFile) {
  const fs::path dir = tempDir("same");
  const fs::path in = dir / "r.json";
  spit(in, sampleText());
  auto r = runKwb({"export", in.string(), "--csv", in.string()});
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput) << r.err;
  EXPECT_TRUE(contains(r.err, "input")) << r.err;
  EXPECT_EQ(kwb::readDocument(in).cases.size(), 2u) << "the input was replaced";
  r = runKwb(
      {"export", in.string(), "--csv", (dir / "x").string(), "--md", (dir / "." / "x").string()});
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput) << r.err;
  EXPECT_TRUE(contains(r.err, "same file")) << r.err;
  EXPECT_FALSE(fs::exists(dir / "x"));
  fs::remove_all(dir);
}

TEST(CliReliability, ExportNeverReplacesADeviceOrFifo) {
  const fs::path dir = tempDir("fifo-out");
  spit(dir / "r.json", sampleText());
  const fs::path fifo = dir / "out.md";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto r = runKwb({"export", (dir / "r.json").string(), "--csv", (dir / "o.csv").string(),
                         "--md", fifo.string()});
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput) << r.err;
  EXPECT_TRUE(contains(r.err, fifo.string())) << r.err;
  struct stat st {};
  ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  EXPECT_FALSE(fs::exists(dir / "o.csv")) << "checked before anything is written";
  fs::remove_all(dir);
}

// Finding 8: empty selections fell back to the defaults, a negative seed wrapped. Finding 5:
// nan and inf passed validation and were written as values the reader refused. All are refused
// before the device is looked for (exit 3 here, with no GPU, means the option was accepted).
class BadOption : public ::testing::TestWithParam<std::vector<std::string>> {};

TEST_P(BadOption, ExitsTwoNamingTheOption) {
  const auto args = GetParam();
  const auto r = runKwb(args);
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput) << r.err;
  EXPECT_TRUE(contains(r.err, args[1])) << "stderr should name " << args[1] << ": " << r.err;
}

INSTANTIATE_TEST_SUITE_P(
    CliReliability, BadOption,
    ::testing::Values(std::vector<std::string>{"run", "--shapes", ""},
                      std::vector<std::string>{"run", "--kernels", ""},
                      std::vector<std::string>{"run", "--suite", ""},
                      std::vector<std::string>{"verify", "--shapes", " "},
                      std::vector<std::string>{"run", "--seed", "-1", "--shapes", "64"},
                      std::vector<std::string>{"verify", "--seed", "-5", "--shapes", "64"},
                      // 2^64 and past it: CLI11 took them as some other 64-bit seed.
                      std::vector<std::string>{"run", "--seed", "18446744073709551616", "--shapes",
                                               "64"},
                      std::vector<std::string>{"verify", "--seed", "99999999999999999999999"},
                      std::vector<std::string>{"tune", "--seed", "18446744073709551616", "--kernel",
                                               "sgemm.warp_tiled", "--shape", "64"},
                      std::vector<std::string>{"run", "--device", "-1", "--shapes", "64"},
                      std::vector<std::string>{"device", "--device", "-1"},
                      std::vector<std::string>{"conformance", "--device", "1.5"},
                      std::vector<std::string>{"replay", "--max-gap", "-1", "x.jsonl"},
                      std::vector<std::string>{"run", "--max-noise", "nan", "--shapes", "64"},
                      std::vector<std::string>{"run", "--max-time", "nan", "--shapes", "64"},
                      std::vector<std::string>{"run", "--max-time", "inf", "--shapes", "64"},
                      std::vector<std::string>{"run", "--min-time", "1e999", "--shapes", "64"},
                      std::vector<std::string>{"run", "--samples", "2000000000", "--shapes", "64"},
                      std::vector<std::string>{"replay", "--speed", "nan", "x.jsonl"},
                      std::vector<std::string>{"run", "--max-restarts", "-1", "--shapes", "64"},
                      // A fresh engine's cases (hidden): outside the plan, or not increasing.
                      std::vector<std::string>{"run", "--continue-cases", "2", "--kernels",
                                               "sgemm.naive", "--shapes", "64,96"},
                      std::vector<std::string>{"run", "--continue-cases", "1,0", "--kernels",
                                               "sgemm.naive", "--shapes", "64,96"},
                      std::vector<std::string>{"tune", "--max-time", "nan", "--kernel",
                                               "sgemm.warp_tiled", "--shape", "64"},
                      // verify's and tune's fresh engines (the same options as run's).
                      std::vector<std::string>{"verify", "--max-restarts", "-1", "--shapes", "64"},
                      std::vector<std::string>{"verify", "--continue-cases", "2", "--kernels",
                                               "sgemm.naive", "--shapes", "64,96"},
                      std::vector<std::string>{"tune", "--max-restarts", "1001", "--kernel",
                                               "sgemm.warp_tiled", "--shape", "64"},
                      std::vector<std::string>{"tune", "--continue-cases", "1,0", "--kernel",
                                               "sgemm.warp_tiled", "--shape", "64"},
                      // A fresh engine's --stream (hidden) only with the cases it continues.
                      std::vector<std::string>{"verify", "--stream", "--shapes", "64"}));

// Issue 33: --device -1 printed CLI::NonNegativeNumber's range, DBL_MAX in full.
TEST(CliReliability, ABadDeviceIndexIsRefusedInAPlainMessage) {
  for (const char* command : {"run", "verify", "device", "conformance"}) {
    const auto r = runKwb({command, "--device", "-1"});
    EXPECT_EQ(r.exitCode, kwb::kExitBadInput) << command << ": " << r.err;
    EXPECT_TRUE(contains(r.err, "--device")) << r.err;
    EXPECT_TRUE(contains(r.err, "not a device index")) << r.err;
    EXPECT_FALSE(contains(r.err, "1797693")) << "DBL_MAX printed in full: " << r.err;
    EXPECT_LT(r.err.size(), 300U) << r.err;
  }
}

// verify and tune start fresh engines after a lost context, as run does: --max-restarts is
// theirs to set; --continue-cases and --stream are the fresh engine's own, hidden.
TEST(CliReliability, VerifyAndTuneOfferMaxRestartsAndHideTheFreshEnginesOptions) {
  for (const char* command : {"verify", "tune"}) {
    const auto r = runKwb({command, "--help"});
    EXPECT_EQ(r.exitCode, 0) << command << ": " << r.err;
    EXPECT_TRUE(contains(r.out, "--max-restarts")) << command << ": " << r.out;
    EXPECT_FALSE(contains(r.out, "--continue-cases")) << command << ": " << r.out;
    EXPECT_FALSE(contains(r.out, "--stream")) << command << ": " << r.out;
  }
}

// Finding 8: conformance checked --json only after the whole suite ran.
TEST(CliReliability, ConformanceChecksItsOutputBeforeRunning) {
  const auto r = runKwb({"conformance", "--json", "/nonexistent-kwb-dir/c.json"});
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput) << r.err;
  EXPECT_TRUE(contains(r.err, "/nonexistent-kwb-dir/c.json")) << r.err;
}
