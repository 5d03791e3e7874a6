// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "kwb/error.h"
#include "kwb/shape.h"

using kwb::InputError;
using kwb::parseShape;
using kwb::Shape;

TEST(Shape, SingleNumberIsCube) { EXPECT_EQ(parseShape("512"), (Shape{512, 512, 512})); }

TEST(Shape, ThreeDimensionsAreMNK) {
  EXPECT_EQ(parseShape("256x384x640"), (Shape{256, 384, 640}));
  EXPECT_EQ(parseShape("1X128x1"), (Shape{1, 128, 1}));
  EXPECT_EQ(parseShape("2\xC3\x97"
                       "3\xC3\x97"
                       "4"),
            (Shape{2, 3, 4}));
  EXPECT_EQ(parseShape(" 7x8x9 "), (Shape{7, 8, 9}));
}

TEST(Shape, LargestDimensionAccepted) { EXPECT_EQ(parseShape("2147483647x1x1").m, 2147483647); }

class BadShape : public ::testing::TestWithParam<const char*> {};

TEST_P(BadShape, ThrowsQuotingTheText) {
  const std::string text = GetParam();
  try {
    parseShape(text);
    FAIL() << "accepted '" << text << "'";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'" + text + "'"), std::string::npos) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(Shape, BadShape,
                         ::testing::Values("0x5x5", "-3", "abc", "1x2", "5x5x5x5", "2147483648",
                                           "4294967296x1x1", "99999999999999999999", "", "x",
                                           "5x5x", "1.5", "5x-5x5", "12abc"));

TEST(Shape, MessageSaysWhatIsWrong) {
  try {
    parseShape("0x5x5");
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("at least 1"), std::string::npos) << e.what();
  }
  try {
    parseShape("1x2");
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("2 dimensions"), std::string::npos) << e.what();
  }
}

TEST(Shape, ListAndRoundTrip) {
  const auto v = kwb::parseShapeList("512,256x384x640");
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(kwb::toString(v[1]), "256x384x640");
  EXPECT_EQ(parseShape(kwb::toString(v[0])), v[0]);
  EXPECT_THROW(kwb::parseShapeList("512,,4"), InputError);
}

TEST(Shape, FlopsAndAlignment) {
  EXPECT_DOUBLE_EQ((Shape{2, 3, 4}).flops(), 48.0);
  EXPECT_TRUE((Shape{32, 16, 48}).multipleOf(16));
  EXPECT_FALSE((Shape{511, 513, 1025}).multipleOf(16));
}

TEST(ShapeText, CubesAndNonCubesForPeople) {
  EXPECT_EQ(kwb::shapeText({1024, 1024, 1024}), "1024\xC2\xB3");
  EXPECT_EQ(kwb::shapeText({256, 384, 640}),
            "256\xC3\x97"
            "384\xC3\x97"
            "640");
  // What people read parses back to the same shape.
  EXPECT_EQ(kwb::parseShape(kwb::shapeText({256, 384, 640})), (kwb::Shape{256, 384, 640}));
}

TEST(ShapeText, CheckedShapeAppliesTheRulesOfATypedOne) {
  EXPECT_EQ(kwb::checkedShape(2, 3, 4), (kwb::Shape{2, 3, 4}));
  EXPECT_THROW(kwb::checkedShape(0, 3, 4), kwb::InputError);
  EXPECT_THROW(kwb::checkedShape(2, -3, 4), kwb::InputError);
  EXPECT_THROW(kwb::checkedShape(2, 3, kwb::kMaxDimension + 1), kwb::InputError);
  try {
    kwb::checkedShape(2, 0, 4);
    FAIL();
  } catch (const kwb::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("dimension N must be at least 1"), std::string::npos);
  }
}
