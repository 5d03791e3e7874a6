// SPDX-License-Identifier: Apache-2.0
#pragma once
// A user kernel's launch dimensions written the way its author writes them
// (docs/BRING_YOUR_OWN.md, "Grid and block expressions"): `grid=ceil(M/32),ceil(N/32)` (x first),
// `block=32*32`. Numbers, the shape's M, N, K and the header's defines; + - * /, unary minus,
// parentheses, ceil, floor, min, max, ceil_div. Division is exact: a dimension that comes out
// fractional is an error that says to round it, never a silent C truncation.
#include <array>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace kwb {

struct LaunchExpr {
  struct Op {
    enum Kind { kNum, kVar, kAdd, kSub, kMul, kDiv, kNeg, kCeil, kFloor, kMin, kMax, kCeilDiv };
    Kind kind;
    double value = 0;
    std::string name;
  };
  std::string text;   // as written
  std::string where;  // "k.cu:3: grid" or "--grid": the start of every message about it
  std::vector<std::vector<Op>> dims;  // 1 to 3, x first; each in postfix order
};

// Parses 1 to 3 comma-separated expressions. Throws InputError naming `where`, the token and
// its column on a syntax error or an unknown function.
LaunchExpr parseLaunchExpr(std::string_view text, std::string where);

// The names an expression reads (M, N, K, defines), each once.
std::vector<std::string> exprNames(const LaunchExpr& e);

// Values of M, N, K; a define's value is itself an expression (read when used, at most 8 deep).
struct ExprEnv {
  std::map<std::string, double> vars;  // "M", "N", "K" when known
  const std::map<std::string, std::string>* defines = nullptr;
};

// The dimensions, x first; missing ones are 1. Throws InputError naming `where` on an unknown
// name, a division by zero, or a dimension that is not a whole number in 1 … `maxX` (x) or
// 1 … 65535 (y, z).
std::array<long long, 3> evaluateDims(const LaunchExpr& e, const ExprEnv& env,
                                      long long maxX = 2147483647LL);

}  // namespace kwb
