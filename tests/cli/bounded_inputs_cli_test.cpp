// SPDX-License-Identifier: Apache-2.0
// Issue 33 item 3 at the command line: a deeply nested or duplicate-keyed file exits 2 naming
// the file and what is wrong; `kwb replay` never waits a recorded gap longer than --max-gap
// (default 1 s), and --speed 0 never waits.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "../core/sample_document.h"
#include "kwb/error.h"
#include "kwb/events.h"
#include "run_process.h"

namespace fs = std::filesystem;

namespace {

// kwb with `args`, killed after `limitS` seconds: the exit code, or -1 when it had to be killed.
int exitWithin(const std::vector<std::string>& args, double limitS) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    std::vector<std::string> copy = args;
    std::string exe = KWB_EXE;
    std::vector<char*> argv{exe.data()};
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    if (!std::freopen("/dev/null", "w", stdout) || !std::freopen("/dev/null", "w", stderr))
      ::_exit(127);
    ::execv(exe.c_str(), argv.data());
    ::_exit(127);
  }
  const auto giveUp = std::chrono::steady_clock::now() + std::chrono::duration<double>(limitS);
  int status = 0;
  while (::waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > giveUp) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// hello, a log at 0 s and done a week later (the most elapsedS may be).
std::string weekLongStream() {
  kwb::StreamEvent hello(kwb::EventType::kHello);
  kwb::StreamEvent log(kwb::EventType::kLog);
  log.level = "info";
  log.message = "started";
  kwb::StreamEvent done(kwb::EventType::kDone);
  done.elapsedS = 7 * 24 * 3600;
  return kwb::toJsonLine(hello) + "\n" + kwb::toJsonLine(log) + "\n" + kwb::toJsonLine(done) + "\n";
}

}  // namespace

// 63 MiB of '[' cost 5 GB and 11-17 s in export, compare and replay; refused at depth 65 now.
TEST(CliBoundedInputs, DeepNestingExitsTwoNamingTheFileAndTheDepth) {
  const fs::path dir = tempDir("deep");
  const std::string deep = (dir / "deep.json").string(), good = (dir / "good.json").string();
  spit(deep, std::string(4u << 20, '['));
  spit(good, kwb::toJsonText(makeSampleDocument()));
  for (const auto& args :
       {std::vector<std::string>{"export", deep, "--csv", (dir / "o.csv").string()},
        std::vector<std::string>{"compare", good, deep},
        std::vector<std::string>{"replay", "--speed", "0", deep}}) {
    const auto r = runKwb(args);
    EXPECT_EQ(r.exitCode, kwb::kExitBadInput) << args[0] << ": " << r.err;
    EXPECT_TRUE(contains(r.err, deep)) << r.err;
    EXPECT_TRUE(contains(r.err, "nested more than 64 levels deep")) << r.err;
  }
  fs::remove_all(dir);
}

// The issue's file, 63 MiB of '[', refused under 200 MB. Every kwb once started at about 250 MB
// (cuBLAS and NVRTC linked; they now load on first use) before it read a byte of the file.
TEST(CliBoundedInputs, A63MiBNestingFileIsRefusedUnder200MB) {
#if defined(__SANITIZE_ADDRESS__)
  // The asan preset builds kwb with AddressSanitizer too: its shadow memory and quarantine, not
  // kwb's, set the peak there. The ci preset's build runs this test.
  GTEST_SKIP() << "built with AddressSanitizer: a peak-memory bound does not apply";
#endif
  const fs::path dir = tempDir("deep63");
  const std::string deep = (dir / "deep.json").string();
  spit(deep, std::string(63u << 20, '['));
  const auto r = runKwb({"export", deep, "--csv", (dir / "o.csv").string()});
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput) << r.err;
  EXPECT_TRUE(contains(r.err, "nested more than 64 levels deep")) << r.err;
  EXPECT_GT(r.peakKb, 0);
  EXPECT_LT(r.peakKb, 200 * 1000) << "peak resident memory " << r.peakKb << " KiB";
  const auto version = runKwb({"--version"});
  EXPECT_EQ(version.exitCode, 0);
  EXPECT_LT(version.peakKb, 64 * 1024) << "kwb --version peaked at " << version.peakKb << " KiB";
  fs::remove_all(dir);
}

// A wide 63 MiB file cost 1.1-2.3 GB (17-36 times its size) as a tree before it was refused;
// it is now walked first and refused before any tree is built.
TEST(CliBoundedInputs, A63MiBWideFileIsRefusedUnder200MB) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "built with AddressSanitizer: a peak-memory bound does not apply";
#endif
  const fs::path dir = tempDir("wide63");
  {  // written, then freed: a child's peak counts what its parent held when it forked
    std::string zeros = "[0";
    zeros.reserve(63u << 20);
    while (zeros.size() < (63u << 20) - 2) zeros += ",0";
    spit(dir / "zeros.json", zeros + "]");
    std::string objects = R"({"cases": [{})";
    objects.reserve(63u << 20);
    while (objects.size() < (63u << 20) - 3) objects += ",{}";
    spit(dir / "objects.json", objects + "]}");
  }
  for (const char* name : {"zeros.json", "objects.json"}) {
    const std::string file = (dir / name).string();
    const auto r = runKwb({"export", file, "--csv", (dir / "o.csv").string()});
    EXPECT_EQ(r.exitCode, kwb::kExitBadInput) << name << ": " << r.err;
    EXPECT_TRUE(contains(r.err, file)) << r.err;
    EXPECT_TRUE(contains(r.err, "too many small values")) << r.err;
    EXPECT_LT(r.peakKb, 200 * 1000) << name << ": peak resident memory " << r.peakKb << " KiB";
    EXPECT_FALSE(fs::exists(dir / "o.csv"));
  }
  fs::remove_all(dir);
}

TEST(CliBoundedInputs, ADuplicateKeyExitsTwoNamingTheKey) {
  const fs::path dir = tempDir("dup");
  std::string text = kwb::toJsonText(makeSampleDocument());
  text.insert(text.find('{') + 1, R"("host": "forged", )");
  spit(dir / "dup.json", text);
  const auto r = runKwb({"export", (dir / "dup.json").string(), "--csv", (dir / "o.csv").string()});
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput) << r.err;
  EXPECT_TRUE(contains(r.err, (dir / "dup.json").string())) << r.err;
  EXPECT_TRUE(contains(r.err, "\"host\" appears twice")) << r.err;
  fs::remove_all(dir);
}

// A stream whose times span a week waited a week; each pause is now at most --max-gap.
TEST(CliBoundedInputs, ReplayNeverWaitsARecordedWeek) {
  const fs::path dir = tempDir("week");
  const std::string stream = (dir / "week.jsonl").string();
  spit(stream, weekLongStream());
  EXPECT_EQ(exitWithin({"replay", "--speed", "0", stream}, 10), 0) << "--speed 0 never waits";
  EXPECT_EQ(exitWithin({"replay", stream}, 10), 0) << "the week's gap waits 1 s at most";
  EXPECT_EQ(exitWithin({"replay", "--speed", "1000", "--max-gap", "0.5", stream}, 10), 0);
  // The cap is a cap: a longer one is honoured (killed while still in the pause).
  EXPECT_EQ(exitWithin({"replay", "--max-gap", "60", stream}, 1.5), -1);
  fs::remove_all(dir);
}
