// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kwb {

// A GEMM problem: C (M×N) = A (M×K) · B (K×N), all row-major.
struct Shape {
  std::int64_t m = 0;
  std::int64_t n = 0;
  std::int64_t k = 0;

  friend bool operator==(const Shape&, const Shape&) = default;
  friend auto operator<=>(const Shape&, const Shape&) = default;

  double flops() const { return 2.0 * double(m) * double(n) * double(k); }
  // Fewest bytes a GEMM must move: read A and B once, write C once (element size given).
  double minBytes(double elementBytes) const {
    return elementBytes * (double(m) * double(k) + double(k) * double(n) + double(m) * double(n));
  }
  bool multipleOf(std::int64_t q) const { return m % q == 0 && n % q == 0 && k % q == 0; }
};

// "512" means 512×512×512; "256x384x640" is M×N×K ('x', 'X' or '×' separate).
// Throws InputError quoting the text for anything else.
Shape parseShape(std::string_view text);
// Comma-separated list of shapes ("512,256x384x640").
std::vector<Shape> parseShapeList(std::string_view text);
// The same rules for dimensions that are already numbers (a file, an event): each from 1 to
// kMaxDimension, or InputError with parseShape's message.
Shape checkedShape(std::int64_t m, std::int64_t n, std::int64_t k);
// "512x512x512", the inverse of parseShape: what a command line or a file carries.
std::string toString(const Shape& s);
// For people (UTF-8): "1024³" for a cube, else "256×384×640".
std::string shapeText(const Shape& s);

inline constexpr std::int64_t kMaxDimension = (std::int64_t{1} << 31) - 1;

}  // namespace kwb
