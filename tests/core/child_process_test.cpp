// SPDX-License-Identifier: Apache-2.0
// ChildProcess: lines to and from a child, with a time limit and a clear end (kwb ab's other
// build of kwb runs through it).
#include "kwb/child_process.h"

#include <gtest/gtest.h>

#include "kwb/error.h"

namespace {

using kwb::ChildProcess;
using kwb::InputError;

std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

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

}  // namespace
