// SPDX-License-Identifier: Apache-2.0
// Bounded user sources (docs/RELIABILITY.md): a FIFO or device as --source or as an include, an
// oversized file, an include bomb and a macro bomb each exit 2 naming the bound, promptly, and
// leave no compile running. NVRTC needs no GPU: these run in CI.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>

#include "kwb/error.h"
#include "run_process.h"

namespace {
namespace fs = std::filesystem;
const std::string kBombs = KWB_SOURCE_DIR "/tests/data/byok/bombs/";

double secondsOf(const std::function<void()>& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

TEST(SourceBounds, AFifoOrADeviceIsRefusedWithoutBlocking) {
  const fs::path d = tempDir("fifo");
  ASSERT_EQ(::mkfifo((d / "k.cu").c_str(), 0600), 0);
  for (const std::string& src : {(d / "k.cu").string(), std::string("/dev/zero")}) {
    const auto r = runKwb({"compile", "--source", src});
    EXPECT_EQ(r.exitCode, kwb::kExitBadInput) << src;
    EXPECT_TRUE(contains(r.err, "--source " + src + ": not a regular file")) << r.err;
  }
}

TEST(SourceBounds, AnIncludedFifoIsRefusedNamingTheInclude) {
  const fs::path d = tempDir("include_fifo");
  ASSERT_EQ(::mkfifo((d / "inc.h").c_str(), 0600), 0);
  std::ofstream(d / "k.cu") << "#include \"inc.h\"\n__global__ void k() {}\n";
  const auto r = runKwb({"compile", "--source", (d / "k.cu").string()});
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(r.err, "line 1: #include \"inc.h\" (" + fs::canonical(d / "inc.h").string() +
                                  "): not a regular file"))
      << r.err;
}

TEST(SourceBounds, AnOversizedSourceIsRefusedNamingTheFlagThatRaisesIt) {
  const fs::path d = tempDir("oversized");
  std::ofstream(d / "big.cu") << std::string(5u << 20, ' ');
  const auto r = runKwb({"compile", "--source", (d / "big.cu").string()});
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(r.err, "larger than 4194304 bytes (raise it with --max-source-bytes)"))
      << r.err;
  const auto raised =
      runKwb({"compile", "--source", (d / "big.cu").string(), "--max-source-bytes", "8388608"});
  EXPECT_FALSE(contains(raised.err, "larger than")) << "the flag raises the bound: " << raised.err;
}

TEST(SourceBounds, ASelfIncludeBombIsRefusedBeforeNvrtc) {
  double s = 0;
  ProcessResult r;
  s = secondsOf([&] { r = runKwb({"compile", "--source", kBombs + "self_include.cu"}); });
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(r.err, "includes itself with no #pragma once or include guard")) << r.err;
  EXPECT_LT(s, 10.0) << "refused before NVRTC, which would expand it 2^30 times";
}

TEST(SourceBounds, AMacroBombEndsAtTheCompileTimeoutAndLeavesNoCompileRunning) {
  ProcessResult r;
  const double s = secondsOf([&] {
    r = runKwb({"compile", "--source", kBombs + "macro_bomb.cu", "--arch", "sm_90",
                "--compile-timeout", "2"});
  });
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(r.err, "NVRTC did not finish within 2 s (raise it with --compile-timeout)"))
      << r.err;
  EXPECT_LT(s, 30.0);
  // The bomb's compile child (its --cpu-seconds is this test's 2 s) must be gone: killed at
  // the time-out, not left running.
  bool childAlive = false;
  for (const auto& p : fs::directory_iterator("/proc")) {
    std::ifstream f(p.path() / "cmdline", std::ios::binary);
    const std::string cmd((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    childAlive = childAlive || (contains(cmd, std::string("nvrtc-child\0", 12)) &&
                                contains(cmd, std::string("--cpu-seconds\0"
                                                          "2.0",
                                                          17)));
  }
  EXPECT_FALSE(childAlive);
}
