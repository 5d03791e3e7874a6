// SPDX-License-Identifier: Apache-2.0
// Ctrl-C without a GPU: `kwb replay` paces a recorded stream like a run, and stops on SIGINT
// the way `kwb run` does (cli/interrupt.h): quickly, with exit code kExitInterrupted, the
// lines already written kept. `kwb run` itself is interrupted in scripts/scale-check.sh.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include <gtest/gtest.h>

#include "kwb/error.h"
#include "kwb/events.h"
#include "run_process.h"

namespace fs = std::filesystem;

TEST(Interrupt, ReplayEndsWithinASecondKeepingWhatWasWritten) {
  const std::string base =
      (fs::temp_directory_path() / ("kwb_interrupt_" + std::to_string(::getpid()))).string();
  const std::string stream = base + ".jsonl", outPath = base + ".out";
  {
    std::ofstream out(stream);
    kwb::StreamEvent hello(kwb::EventType::kHello);
    kwb::StreamEvent log(kwb::EventType::kLog);
    log.level = "info";
    log.message = "first case done";
    kwb::StreamEvent done(kwb::EventType::kDone);
    done.elapsedS = 120;  // two minutes later: only an interrupt ends the replay early
    for (const auto& e : {hello, log, done}) out << kwb::toJsonLine(e) << '\n';
  }
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (!std::freopen(outPath.c_str(), "w", stdout) || !std::freopen("/dev/null", "w", stderr))
      ::_exit(127);
    ::execl(KWB_EXE, KWB_EXE, "replay", stream.c_str(), "--speed", "1", "--max-gap", "600",
            nullptr);
    ::_exit(127);
  }
  using Clock = std::chrono::steady_clock;
  // Wait (bounded) until the first two lines are out: the replay is then in its long pause.
  const auto give_up = Clock::now() + std::chrono::seconds(20);
  while (slurp(outPath).find("first case done") == std::string::npos && Clock::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_NE(slurp(outPath).find("first case done"), std::string::npos) << "replay never started";

  const auto sent = Clock::now();
  ASSERT_EQ(::kill(pid, SIGINT), 0);
  int status = 0;
  ::waitpid(pid, &status, 0);
  const double seconds = std::chrono::duration<double>(Clock::now() - sent).count();
  EXPECT_LT(seconds, 1.0);
  ASSERT_TRUE(WIFEXITED(status)) << "ended by the signal instead of exiting";
  EXPECT_EQ(WEXITSTATUS(status), kwb::kExitInterrupted);
  const std::string out = slurp(outPath);
  EXPECT_NE(out.find("\"hello\""), std::string::npos) << out;
  EXPECT_NE(out.find("first case done"), std::string::npos) << out;
  EXPECT_EQ(out.find("\"done\""), std::string::npos) << "the unreached event is not written";
  fs::remove(stream);
  fs::remove(outPath);
}
