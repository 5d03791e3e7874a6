// SPDX-License-Identifier: Apache-2.0
#include "kwb/shape.h"

#include <charconv>

#include "kwb/error.h"
#include "kwb/text.h"

namespace kwb {
namespace {

[[noreturn]] void bad(std::string_view text, const std::string& why) {
  throw InputError("bad shape '" + std::string(text) + "': " + why +
                   " (expected N for N×N×N or MxNxK, each from 1 to 2147483647)");
}

std::int64_t parseDim(std::string_view whole, std::string_view part, const char* name) {
  if (part.empty()) bad(whole, std::string("dimension ") + name + " is empty");
  if (part.front() == '-') bad(whole, std::string("dimension ") + name + " is negative");
  std::int64_t v = 0;
  const auto* end = part.data() + part.size();
  const auto [ptr, ec] = std::from_chars(part.data(), end, v);
  if (ec == std::errc::result_out_of_range ||
      (ec == std::errc{} && ptr == end && v > kMaxDimension))
    bad(whole, std::string("dimension ") + name + " is above 2^31 - 1");
  if (ec != std::errc{} || ptr != end)
    bad(whole,
        std::string("dimension ") + name + " '" + std::string(part) + "' is not a whole number");
  if (v < 1) bad(whole, std::string("dimension ") + name + " must be at least 1");
  return v;
}

}  // namespace

Shape parseShape(std::string_view text) {
  const std::string_view t = trim(text);
  if (t.empty()) bad(text, "it is empty");
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= t.size();) {
    // Separators: 'x', 'X', or the UTF-8 multiplication sign (C3 97).
    std::size_t sepLen = 0;
    if (i < t.size() && (t[i] == 'x' || t[i] == 'X')) sepLen = 1;
    if (i + 1 < t.size() && t.substr(i, 2) == "\xC3\x97") sepLen = 2;
    if (i == t.size() || sepLen > 0) {
      parts.push_back(t.substr(start, i - start));
      if (i == t.size()) break;
      i += sepLen;
      start = i;
    } else {
      ++i;
    }
  }
  if (parts.size() == 1) {
    const std::int64_t v = parseDim(text, parts[0], "N");
    return Shape{v, v, v};
  }
  if (parts.size() != 3)
    bad(text, "it has " + std::to_string(parts.size()) + " dimensions, not 1 or 3");
  return Shape{parseDim(text, parts[0], "M"), parseDim(text, parts[1], "N"),
               parseDim(text, parts[2], "K")};
}

std::vector<Shape> parseShapeList(std::string_view text) {
  std::vector<Shape> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    const std::string_view item =
        text.substr(start, comma == std::string_view::npos ? text.npos : comma - start);
    out.push_back(parseShape(item));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

Shape checkedShape(std::int64_t m, std::int64_t n, std::int64_t k) {
  const Shape s{m, n, k};
  const std::int64_t dims[] = {m, n, k};
  const char* names[] = {"M", "N", "K"};
  for (int i = 0; i < 3; ++i) {
    if (dims[i] < 1) bad(toString(s), std::string("dimension ") + names[i] + " must be at least 1");
    if (dims[i] > kMaxDimension)
      bad(toString(s), std::string("dimension ") + names[i] + " is above 2^31 - 1");
  }
  return s;
}

std::string shapeText(const Shape& s) {
  if (s.m == s.n && s.n == s.k) return std::to_string(s.m) + "\xC2\xB3";
  return std::to_string(s.m) + "\xC3\x97" + std::to_string(s.n) + "\xC3\x97" + std::to_string(s.k);
}

std::string toString(const Shape& s) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
}

}  // namespace kwb
