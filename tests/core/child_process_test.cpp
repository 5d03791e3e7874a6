// SPDX-License-Identifier: Apache-2.0
// ChildProcess: lines to and from a child, with a time limit and a clear end (kwb ab's other
// build of kwb runs through it); runProcess: a child run to its end with its output in files
// (kwb profile's Nsight Compute).
#include "kwb/child_process.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>

#include "kwb/error.h"
#include "test_support.h"

namespace {

using kwb::ChildProcess;
using kwb::InputError;

TEST(ChildProcess, LinesGoThereAndComeBack) {
  ChildProcess cat({"cat"});
  cat.writeLine("{\"op\":\"take\"}");
  cat.writeLine("second");
  EXPECT_EQ(cat.readLine(10), "{\"op\":\"take\"}");
  EXPECT_EQ(cat.readLine(10), "second");
}

TEST(ChildProcess, ASilentChildTimesOut) {
  ChildProcess sleeper({"sleep", "30"});
  const std::string e = errorOf([&] { sleeper.readLine(0.2); });
  EXPECT_NE(e.find("'sleep' did not answer within 0.2 s"), std::string::npos) << e;
}

TEST(ChildProcess, TheEndOfItsOutputSaysHowItEnded) {
  ChildProcess fails({"sh", "-c", "echo one; exit 7"});
  EXPECT_EQ(fails.readLine(10), "one");
  const std::string e = errorOf([&] { fails.readLine(10); });
  EXPECT_NE(e.find("'sh' ended (exit status 7)"), std::string::npos) << e;
  const std::string w = errorOf([&] { fails.writeLine("x"); });
  EXPECT_NE(w.find("stopped reading"), std::string::npos) << w;
}

TEST(ChildProcess, AProgramThatCannotStartIsNamed) {
  const std::string e = errorOf([] { ChildProcess p({"/no/such/kwb", "ab-peer"}); });
  EXPECT_NE(e.find("cannot start '/no/such/kwb'"), std::string::npos) << e;
}

TEST(ChildProcess, ALineBeyondTheBoundIsRefused) {
  ChildProcess yes({"sh", "-c", "head -c 100000 /dev/zero | tr '\\0' x"});
  const std::string e = errorOf([&] { yes.readLine(10, 1000); });
  EXPECT_NE(e.find("longer than 1000 bytes"), std::string::npos) << e;
}

std::string tempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("kwb_run_process_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

TEST(RunProcess, OutputAndErrorGoToTheirFilesAndTheExitStatusComesBack) {
  const std::string out = tempPath("out"), err = tempPath("err");
  const kwb::ProcessResult r =
      kwb::runProcess({"sh", "-c", "echo to-out; echo to-err >&2; read x; exit 3"}, out, err, 30);
  EXPECT_EQ(r.exitCode, 3);
  EXPECT_EQ(r.signal, 0);
  EXPECT_FALSE(r.timedOut);
  EXPECT_EQ(slurp(out), "to-out\n");
  EXPECT_EQ(slurp(err), "to-err\n");
  std::filesystem::remove(out);
  std::filesystem::remove(err);
}

TEST(RunProcess, AChildPastItsTimeIsKilled) {
  const std::string out = tempPath("slow"), err = tempPath("slow.err");
  const kwb::ProcessResult r = kwb::runProcess({"sleep", "30"}, out, err, 0.2);
  EXPECT_TRUE(r.timedOut);
  EXPECT_EQ(r.exitCode, -1);
  EXPECT_EQ(r.signal, SIGKILL);
  std::filesystem::remove(out);
  std::filesystem::remove(err);
}

TEST(RunProcess, AProgramThatCannotStartIsNamed) {
  const std::string e =
      errorOf([] { kwb::runProcess({"/no/such/ncu"}, "/dev/null", "/dev/null", 5); });
  EXPECT_NE(e.find("cannot start '/no/such/ncu'"), std::string::npos) << e;
}

}  // namespace
