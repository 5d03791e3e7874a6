// SPDX-License-Identifier: Apache-2.0
#include "kwb/seeded.h"
#include "kwb/splitmix.h"

#include <bit>
#include <stdexcept>
#include <string>

namespace kwb {

namespace {
std::uint64_t mix(std::uint64_t z) { return splitmixFinalise(z); }
constexpr std::uint64_t kGolden = kSplitmixGolden;
}  // namespace

std::uint64_t SeededRng::next() {
  m_state += kGolden;
  return mix(m_state);
}

std::int64_t SeededRng::uniformInt(std::int64_t lo, std::int64_t hi) {
  if (lo > hi) throw std::invalid_argument("SeededRng::uniformInt: lo > hi");
  const std::uint64_t span = std::uint64_t(hi - lo) + 1;
  // Modulo bias is below 2^-40 for the spans tests use; determinism matters more here.
  return lo + std::int64_t(span == 0 ? next() : next() % span);
}

std::uint64_t seededBase(std::uint64_t seed, SeedStream stream) {
  return mix(seed ^ mix(std::uint64_t(stream) * kGolden));
}

float seededValue(std::uint64_t base, std::int64_t index) {
  const std::uint64_t r = splitmixAt(base, index);
  const auto k = std::int64_t(r % 4097) - 2048;  // -2048 … 2048
  return float(k) / 2048.0f;                     // exact: a power-of-two division
}

std::vector<float> seededMatrix(std::uint64_t seed, SeedStream stream, std::int64_t count) {
  if (count < 0) throw std::invalid_argument("seededMatrix: negative count");
  std::vector<float> out(static_cast<std::size_t>(count));
  // Counter-based: element i is a hash of (seed, stream, i), so any element can be recomputed.
  const std::uint64_t base = seededBase(seed, stream);
  for (std::int64_t i = 0; i < count; ++i) out[std::size_t(i)] = seededValue(base, i);
  return out;
}

std::uint16_t exactHalfBits(float v) {
  const auto bits = std::bit_cast<std::uint32_t>(v);
  const auto sign = std::uint16_t((bits >> 16) & 0x8000u);
  if ((bits & 0x7FFFFFFFu) == 0) return sign;
  const int exponent = int((bits >> 23) & 0xFFu) - 127;
  const std::uint32_t mantissa = bits & 0x7FFFFFu;
  // FP16 normals have exponents -14 … 15 and 10 mantissa bits: the 13 low bits must be 0.
  if (exponent < -14 || exponent > 15 || (mantissa & 0x1FFFu) != 0)
    throw std::invalid_argument("value " + std::to_string(v) +
                                " is not exactly representable as a normal FP16 value");
  return std::uint16_t(sign | std::uint16_t(exponent + 15) << 10 | std::uint16_t(mantissa >> 13));
}

float halfBitsToFloat(std::uint16_t h) {
  const std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16;
  const std::uint32_t exponent = (h >> 10) & 0x1Fu;
  const std::uint32_t mantissa = h & 0x3FFu;
  if (exponent == 0 && mantissa == 0) return std::bit_cast<float>(sign);
  if (exponent == 0 || exponent == 31)
    throw std::invalid_argument("halfBitsToFloat: subnormal, Inf and NaN are not supported");
  return std::bit_cast<float>(sign | (exponent - 15 + 127) << 23 | mantissa << 13);
}

std::vector<std::uint16_t> toHalfBits(std::span<const float> values) {
  std::vector<std::uint16_t> out(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) out[i] = exactHalfBits(values[i]);
  return out;
}

std::uint16_t bf16Bits(float v) {
  const auto bits = std::bit_cast<std::uint32_t>(v);
  if ((bits & 0x7FFFFFFFu) > 0x7F800000u) return std::uint16_t((bits >> 16) | 0x0040u);  // NaN
  // Add half of the dropped 16 bits' unit, minus one unless the kept part is odd: ties go to
  // the even neighbour. A carry into the exponent is the correct rounding up.
  const std::uint32_t rounded = bits + 0x7FFFu + ((bits >> 16) & 1u);
  return std::uint16_t(rounded >> 16);
}

float bf16BitsToFloat(std::uint16_t bits) {
  return std::bit_cast<float>(std::uint32_t(bits) << 16);
}

}  // namespace kwb
