// SPDX-License-Identifier: Apache-2.0
#include "kwb/throttle_filter.h"

#include <gtest/gtest.h>

namespace {

TEST(ThrottleFilter, DropsAndCountsSamplesBelowTheFractionOfTheWarmUpClock) {
  kwb::ThrottleFilter f(1980, 0.9, 10);
  EXPECT_TRUE(f.keep(1980, 0));
  EXPECT_TRUE(f.keep(1782, 1));   // exactly 90%
  EXPECT_FALSE(f.keep(1700, 2));  // a transient dip
  EXPECT_TRUE(f.keep(1965, 2));
  EXPECT_EQ(f.dropped(), 1);
  EXPECT_FALSE(f.rebased());
  EXPECT_TRUE(f.note().empty());
}

TEST(ThrottleFilter, AClockTheGpuSustainsBecomesTheReferenceOnce) {
  kwb::ThrottleFilter f(1980, 0.9, 10);
  std::size_t kept = 0;
  EXPECT_TRUE(f.keep(1980, kept++));
  for (int i = 0; i < 9; ++i) EXPECT_FALSE(f.keep(1600 + i, kept));
  EXPECT_FALSE(f.rebased());
  EXPECT_FALSE(f.keep(1610, kept));  // the tenth drop while one was kept: sustained
  ASSERT_TRUE(f.rebased());
  EXPECT_DOUBLE_EQ(f.referenceMhz(), 1604.5);  // the median of the ten drops
  EXPECT_TRUE(f.keep(1600, kept));             // now kept: the clock the GPU holds
  EXPECT_FALSE(f.keep(1300, kept));            // still dropped: below 90% of the sustained clock
  EXPECT_NE(f.note().find("1605 MHz"), std::string::npos) << f.note();
  EXPECT_NE(f.note().find("1980 MHz"), std::string::npos) << f.note();
  EXPECT_EQ(f.dropped(), 11);
}

TEST(ThrottleFilter, OccasionalDipsAmongManyKeptSamplesNeverMoveTheReference) {
  kwb::ThrottleFilter f(1980, 0.9, 10);
  std::size_t kept = 0;
  for (int i = 0; i < 200; ++i) {
    if (i % 10 == 0)
      EXPECT_FALSE(f.keep(1500, kept));
    else if (f.keep(1980, kept))
      ++kept;
  }
  EXPECT_EQ(f.dropped(), 20);
  EXPECT_FALSE(f.rebased());
}

}  // namespace
