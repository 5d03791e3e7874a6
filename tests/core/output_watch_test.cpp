// SPDX-License-Identifier: Apache-2.0
#include "kwb/output_watch.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>

using namespace std::chrono_literals;

namespace {

// Generous: the watch answers in microseconds; the bound only keeps a broken one from hanging.
constexpr auto kDeadline = 10s;

}  // namespace

TEST(OutputWatch, SeesThePipesReaderClose) {
  int p[2];
  ASSERT_EQ(pipe(p), 0);
  kwb::OutputWatch watch(p[1]);
  ASSERT_TRUE(watch.watching());
  EXPECT_FALSE(watch.closed());
  EXPECT_FALSE(watch.waitClosed(20ms)) << "the reader is still there";
  close(p[0]);
  EXPECT_TRUE(watch.waitClosed(kDeadline));
  EXPECT_TRUE(watch.closed());
  close(p[1]);
}

TEST(OutputWatch, SeesTheSocketsPeerClose) {
  int s[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, s), 0);
  kwb::OutputWatch watch(s[1]);
  ASSERT_TRUE(watch.watching());
  EXPECT_FALSE(watch.closed());
  close(s[0]);
  EXPECT_TRUE(watch.waitClosed(kDeadline));
  close(s[1]);
}

TEST(OutputWatch, AFileIsNotWatchedAndNeverCloses) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  kwb::OutputWatch watch(fileno(f));
  EXPECT_FALSE(watch.watching());
  EXPECT_FALSE(watch.waitClosed(1ms));
  std::fclose(f);
}

TEST(OutputWatch, EndsItsThreadWhileTheReaderIsStillThere) {
  int p[2];
  ASSERT_EQ(pipe(p), 0);
  { kwb::OutputWatch watch(p[1]); }  // must return, not wait for the reader forever
  close(p[0]);
  close(p[1]);
  SUCCEED();
}
