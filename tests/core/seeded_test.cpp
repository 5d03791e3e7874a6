// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

#include "kwb/seeded.h"

using kwb::SeedStream;

TEST(Seeded, SameSeedSameValuesOtherSeedOrStreamOtherValues) {
  const auto a = kwb::seededMatrix(42, SeedStream::kA, 1000);
  EXPECT_EQ(a, kwb::seededMatrix(42, SeedStream::kA, 1000));
  EXPECT_NE(a, kwb::seededMatrix(43, SeedStream::kA, 1000));
  EXPECT_NE(a, kwb::seededMatrix(42, SeedStream::kB, 1000));
}

TEST(Seeded, ElementDependsOnlyOnItsIndex) {
  const auto small = kwb::seededMatrix(7, SeedStream::kA, 10);
  const auto large = kwb::seededMatrix(7, SeedStream::kA, 100);
  EXPECT_TRUE(std::equal(small.begin(), small.end(), large.begin()));
}

TEST(Seeded, ValuesAreInRangeSpreadAndExactlyFp16) {
  const auto v = kwb::seededMatrix(1, SeedStream::kB, 20000);
  std::set<float> distinct;
  double sum = 0;
  for (float x : v) {
    ASSERT_GE(x, -1.0f);
    ASSERT_LE(x, 1.0f);
    ASSERT_EQ(kwb::halfBitsToFloat(kwb::exactHalfBits(x)), x) << x;  // FP16 round trip exact
    distinct.insert(x);
    sum += x;
  }
  EXPECT_GT(distinct.size(), 3000u);               // of 4097 grid values
  EXPECT_NEAR(sum / double(v.size()), 0.0, 0.02);  // centred
}

TEST(Seeded, HalfBitsOfKnownValues) {
  EXPECT_EQ(kwb::exactHalfBits(1.0f), 0x3C00);
  EXPECT_EQ(kwb::exactHalfBits(-0.5f), 0xB800);
  EXPECT_EQ(kwb::exactHalfBits(0.0f), 0x0000);
  EXPECT_EQ(kwb::exactHalfBits(-0.0f), 0x8000);
  EXPECT_EQ(kwb::exactHalfBits(1.0f / 2048.0f), 0x1000);     // 2^-11
  EXPECT_EQ(kwb::exactHalfBits(2047.0f / 2048.0f), 0x3BFF);  // 2^-1 · (2 − 2^-10)
  EXPECT_FLOAT_EQ(kwb::halfBitsToFloat(0x3555), 0.333251953125f);
}

TEST(Seeded, InexactValuesAreRefusedNotRounded) {
  EXPECT_THROW(kwb::exactHalfBits(0.1f), std::invalid_argument);
  EXPECT_THROW(kwb::exactHalfBits(1e-7f), std::invalid_argument);  // subnormal in FP16
  EXPECT_THROW(kwb::exactHalfBits(70000.0f), std::invalid_argument);
}

TEST(Seeded, RngUniformIntStaysInBoundsAndReachesThem) {
  kwb::SeededRng rng(5);
  bool lo = false, hi = false;
  for (int i = 0; i < 2000; ++i) {
    const auto x = rng.uniformInt(-3, 3);
    ASSERT_GE(x, -3);
    ASSERT_LE(x, 3);
    lo = lo || x == -3;
    hi = hi || x == 3;
  }
  EXPECT_TRUE(lo && hi);
  EXPECT_THROW(rng.uniformInt(2, 1), std::invalid_argument);
}
