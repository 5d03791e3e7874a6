// SPDX-License-Identifier: Apache-2.0
#include "kwb/launch_expr.h"

#include <gtest/gtest.h>

#include "kwb/error.h"

using namespace kwb;

namespace {
std::array<long long, 3> dims(const std::string& text, double m, double n, double k,
                              const std::map<std::string, std::string>& defines = {}) {
  return evaluateDims(parseLaunchExpr(text, "--grid"), {{{"M", m}, {"N", n}, {"K", k}}, &defines});
}
std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}
}  // namespace

TEST(LaunchExpr, GridXAlongMAsAuthorsWriteIt) {
  EXPECT_EQ(dims("ceil(M/32),ceil(N/32)", 1024, 2048, 512), (std::array<long long, 3>{32, 64, 1}));
  EXPECT_EQ(dims("ceil(N / 32), ceil(M / 32)", 1000, 2000, 1),
            (std::array<long long, 3>{63, 32, 1}));
  EXPECT_EQ(dims("ceil_div(N,BN),CEIL_DIV(M,BM)", 130, 257, 1, {{"BM", "64"}, {"BN", "2*64"}}),
            (std::array<long long, 3>{3, 3, 1}));
}

TEST(LaunchExpr, PrecedenceParenthesesMinMaxAndUnaryMinus) {
  EXPECT_EQ(dims("2+3*4", 1, 1, 1)[0], 14);
  EXPECT_EQ(dims("(2+3)*4", 1, 1, 1)[0], 20);
  EXPECT_EQ(dims("min(M,N)-max(1,2)+-(-3)", 10, 20, 1)[0], 11);
  EXPECT_EQ(dims("(128*128)/(8*8)", 1, 1, 1)[0], 256);
  EXPECT_EQ(dims("floor(K/3)", 1, 1, 10)[0], 3);
  EXPECT_EQ(dims("1,2,3", 1, 1, 1), (std::array<long long, 3>{1, 2, 3}));
}

// Division is exact: N/32 at N = 100 is not silently truncated to 3.
TEST(LaunchExpr, AFractionalDimensionIsAnErrorThatSaysToRound) {
  const std::string e = errorOf([] { dims("N/32", 1, 100, 1); });
  EXPECT_NE(e.find("--grid: x = 3.125"), std::string::npos) << e;
  EXPECT_NE(e.find("N=100"), std::string::npos) << e;
  EXPECT_NE(e.find("ceil(...)"), std::string::npos) << e;
}

TEST(LaunchExpr, SyntaxErrorsNameTheTokenAndItsColumn) {
  const std::string where = "k.cu:3: grid";
  auto e = errorOf([&] { parseLaunchExpr("ceil(N/32))", where); });
  EXPECT_NE(e.find("k.cu:3: grid: unexpected ')' at column 11"), std::string::npos) << e;
  e = errorOf([&] { parseLaunchExpr("ceil(N/32", where); });
  EXPECT_NE(e.find("expected ')' at the end"), std::string::npos) << e;
  e = errorOf([&] { parseLaunchExpr("sqrt(N)", where); });
  EXPECT_NE(e.find("unknown function 'sqrt'"), std::string::npos) << e;
  EXPECT_NE(e.find("column 1"), std::string::npos) << e;
  e = errorOf([&] { parseLaunchExpr("N % 2", where); });
  EXPECT_NE(e.find("unexpected '%' at column 3"), std::string::npos) << e;
  e = errorOf([&] { parseLaunchExpr("1,2,3,4", where); });
  EXPECT_NE(e.find("more than 3 dimensions"), std::string::npos) << e;
  EXPECT_THROW(parseLaunchExpr("", where), InputError);
}

TEST(LaunchExpr, UnknownNamesDivisionByZeroAndRangeAreErrors) {
  auto e = errorOf([] { dims("ceil(Q/32)", 1, 1, 1); });
  EXPECT_NE(e.find("unknown name 'Q'"), std::string::npos) << e;
  EXPECT_NE(e.find("known: K, M, N"), std::string::npos) << e;
  e = errorOf([] { dims("N/(M-M)", 4, 4, 1); });
  EXPECT_NE(e.find("division by zero"), std::string::npos) << e;
  e = errorOf([] { dims("1,70000", 1, 1, 1); });
  EXPECT_NE(e.find("y = 70000"), std::string::npos) << e;
  e = errorOf([] { dims("M-M", 4, 4, 1); });
  EXPECT_NE(e.find("x = 0"), std::string::npos) << e;
}

// Hostile input is bounded: deep nesting, a self-referring define, an overlong text.
TEST(LaunchExpr, DeepNestingAndSelfReferringDefinesEndWithAnError) {
  EXPECT_THROW(parseLaunchExpr(std::string(500, '(') + "1" + std::string(500, ')'), "--grid"),
               InputError);
  EXPECT_THROW(parseLaunchExpr(std::string(2000, '1'), "--grid"), InputError);
  const std::string e = errorOf([] { dims("A", 1, 1, 1, {{"A", "B+1"}, {"B", "A"}}); });
  EXPECT_NE(e.find("8 deep"), std::string::npos) << e;
  EXPECT_EQ(exprNames(parseLaunchExpr("ceil(M/BM)+M", "--grid")),
            (std::vector<std::string>{"M", "BM"}));
}
