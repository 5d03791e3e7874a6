// SPDX-License-Identifier: Apache-2.0
// Correctness property: for random 1 ≤ M, N, K ≤ 2048 every kernel matches its reference.
// The triples come from a seeded generator; set KWB_SEED to replay a failure (the seed is
// printed with every failure).
#include <cstdlib>
#include <string>

#include "kwb/seeded.h"
#include "sgemm_support.h"

using kwb::Shape;

namespace {

constexpr std::int64_t kMaxDim = 2048;
// Bounded run time: at most 2^18 elements of C and 2^28 multiply-adds per case, so a host
// comparison stays in the milliseconds; a dimension can still be anything in 1 … 2048.
constexpr std::int64_t kMaxC = std::int64_t{1} << 18, kMaxMacs = std::int64_t{1} << 28;

std::uint64_t propertySeed() {
  const char* env = std::getenv("KWB_SEED");
  return env ? std::strtoull(env, nullptr, 0) : 0xC0FFEEull;
}

std::int64_t logUniform(kwb::SeededRng& rng) {  // every octave of 1 … 2048 equally likely
  return rng.uniformInt(1, std::int64_t{1} << rng.uniformInt(0, 11));
}

Shape fitBudget(Shape s) {
  while (s.m * s.n > kMaxC) (s.m >= s.n ? s.m : s.n) = (std::max(s.m, s.n) + 1) / 2;
  while (s.m * s.n * s.k > kMaxMacs) s.k = (s.k + 1) / 2;
  return s;
}

// Edges first (extreme aspect ratios, 1s and 2048s), then squares, non-squares, multiples of
// 16 (the tensor-core path) and tile boundaries ± 1, in turn.
std::vector<Shape> propertyShapes(std::uint64_t seed) {
  std::vector<Shape> out{{1, 1, 1},       {2048, 1, 1},    {1, 2048, 1},   {1, 1, 2048},
                         {1, 2048, 2048}, {2048, 1, 2048}, {2048, 128, 1}, {127, 129, 2048}};
  kwb::SeededRng rng(seed);
  while (out.size() < 104) {
    Shape s;
    switch (out.size() % 4) {
      case 0: {  // square
        const std::int64_t d = std::min<std::int64_t>(logUniform(rng), 512);
        s = {d, d, d};
        break;
      }
      case 1:  // non-square
        s = {logUniform(rng), logUniform(rng), logUniform(rng)};
        break;
      case 2:  // multiples of 16
        s = {16 * rng.uniformInt(1, 32), 16 * rng.uniformInt(1, 32), 16 * rng.uniformInt(1, 64)};
        break;
      default: {  // one off a tile boundary
        auto nearTile = [&] {
          return std::clamp<std::int64_t>(64 * rng.uniformInt(1, 32) + rng.uniformInt(-1, 1), 1,
                                          kMaxDim);
        };
        s = {nearTile(), nearTile(), nearTile()};
      }
    }
    out.push_back(fitBudget(s));
  }
  return out;
}

}  // namespace

class Property : public kwb::test::KernelTest {};
TEST_P(Property, RandomShapesMatchReference) {
  const std::uint64_t seed = propertySeed();
  const std::vector<Shape> shapes = propertyShapes(seed);
  ASSERT_GE(shapes.size(), 100u);
  int failures = 0;
  for (const Shape& s : shapes) {
    ASSERT_TRUE(s.m >= 1 && s.m <= kMaxDim && s.n >= 1 && s.n <= kMaxDim && s.k >= 1 &&
                s.k <= kMaxDim)
        << toString(s);
    SCOPED_TRACE("property seed " + std::to_string(seed) +
                 " (replay: KWB_SEED=" + std::to_string(seed) + "), shape " + toString(s));
    const auto c = kwb::test::session().verifyCase(kernel(), s, seed);
    kwb::test::expectVerified(c, kernel(), seed);
    if (HasFailure() && ++failures >= 3) break;  // enough to diagnose; keep the log readable
  }
}
INSTANTIATE_TEST_SUITE_P(Registry, Property,
                         testing::ValuesIn(kwb::test::kernelIds(kwb::test::isGemm)),
                         kwb::test::paramName);

// The generator itself: pure, in range, and the same triples for the same seed.
TEST(PropertyShapes, DeterministicAndInRange) {
  EXPECT_EQ(propertyShapes(7), propertyShapes(7));
  EXPECT_NE(propertyShapes(7), propertyShapes(8));
  for (const Shape& s : propertyShapes(7)) {
    EXPECT_LE(s.m * s.n, kMaxC);
    EXPECT_LE(s.m * s.n * s.k, kMaxMacs);
  }
}
