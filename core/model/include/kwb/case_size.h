// SPDX-License-Identifier: Apache-2.0
#pragma once
// The size of one case, for every problem family: the family's id and its named axis values
// (m, n, k for GEMM; count and element type for reduce and scan; later bins, key bits, rows ×
// cols). A size describes itself: each axis carries its kind and unit, so its text, key,
// order and scaling position need no table of families (a document of a family this build
// does not know still reads, sorts and plots). Parsing a typed size needs the family's axis
// declarations (kwb/family_info.h).
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kwb/shape.h"

namespace kwb {

enum class AxisKind {
  kDimension,  // a matrix dimension, written in decimal: 384
  kCount,      // an element count, written 2^K for powers of two from 2^10: 2^20, 1000003
  kWord,       // one of a fixed set of words: f32, i32, uniform
};
std::string_view toString(AxisKind k);          // "dimension", "count", "word"
AxisKind parseAxisKind(std::string_view text);  // throws InputError naming the text

// One axis value of a size.
struct SizeAxis {
  std::string name;  // "m", "count", "type", "bins"
  AxisKind kind = AxisKind::kDimension;
  std::int64_t number = 0;  // kDimension, kCount
  std::string word = {};    // kWord
  // Written after the number: "bins" makes "256 bins". A number without a unit is an extent of
  // the problem: those are joined by '×' and give the size's place on a scaling axis.
  std::string unit = {};

  bool isNumber() const { return kind != AxisKind::kWord; }
  // Identity is the name and the value; kind and unit only say how to write it.
  friend bool operator==(const SizeAxis& a, const SizeAxis& b) {
    return a.name == b.name && a.number == b.number && a.word == b.word;
  }
  friend std::strong_ordering operator<=>(const SizeAxis& a, const SizeAxis& b);
};

struct CaseSize {
  std::string family;          // "gemm", "reduce", "scan", ...
  std::vector<SizeAxis> axes;  // in the family's axis order

  CaseSize() = default;
  CaseSize(std::string f, std::vector<SizeAxis> a) : family(std::move(f)), axes(std::move(a)) {}
  // A GEMM shape is a size of the gemm family (m, n, k): plans and tests name GEMM cases by it.
  CaseSize(const Shape& s);  // NOLINT(google-explicit-constructor)

  // The axis named `name`, or null.
  const SizeAxis* axis(std::string_view name) const;
  // Its number (0 when there is no such axis) / its word (empty when none).
  std::int64_t number(std::string_view name) const;
  std::string word(std::string_view name) const;
  bool empty() const { return family.empty(); }

  friend bool operator==(const CaseSize&, const CaseSize&) = default;
  // Family, then the axes in order: a GEMM size by M, N, K; a 1-D size by count, then type.
  friend std::strong_ordering operator<=>(const CaseSize& a, const CaseSize& b);
};

// For people (UTF-8): "1024³", "256×384×640", "2^20 f32", "2^24 256 bins u8".
std::string sizeText(const CaseSize& s);
// As a command line and a file write it: "512x512x512", "2^20 f32" (ASCII).
std::string sizeLabel(const CaseSize& s);
// A stable key of family and size, for maps and for matching cases across documents:
// "gemm 512x512x512", "reduce 2^20 f32".
std::string sizeKey(const CaseSize& s);
// Where the size sits on a scaling plot: the geometric mean of its unit-less numbers
// (∛(M·N·K) for GEMM, the count for a 1-D size); 0 for a size with none.
double scalingValue(const CaseSize& s);
// The FLOP-free measure of problem size "elements": the product of its unit-less numbers.
double extentProduct(const CaseSize& s);

// "2^20" for powers of two from 2^10, else the decimal number.
std::string countText(std::int64_t count);

// The GEMM family's size of a shape, and back (a non-GEMM size gives 0x0x0).
CaseSize gemmSize(const Shape& s);
Shape shapeOf(const CaseSize& s);
bool isGemm(const CaseSize& s);
// A 1-D family's size: `count` elements of `type` ("f32", "i32").
CaseSize vectorSize(std::string family, std::int64_t count, std::string type);

}  // namespace kwb
