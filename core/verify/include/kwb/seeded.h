// SPDX-License-Identifier: Apache-2.0
#pragma once
// Seeded, pure input generation (CUB_SEED idea): the same (seed, stream, index) always gives
// the same value on every machine, so a failing case is reproduced from its seed alone.
#include <cstdint>
#include <span>
#include <vector>

namespace kwb {

// Independent streams drawn from one seed: the inputs of a case never share values by accident.
enum class SeedStream : std::uint64_t { kA = 1, kB = 2, kCPrefill = 3 };

// splitmix64: a tiny, well-mixed, counter-friendly generator.
class SeededRng {
 public:
  explicit SeededRng(std::uint64_t seed) : m_state(seed) {}
  std::uint64_t next();
  // Uniform integer in [lo, hi]; requires lo <= hi.
  std::int64_t uniformInt(std::int64_t lo, std::int64_t hi);

 private:
  std::uint64_t m_state;
};

// `count` values uniform on the grid {k / 2048 : k = -2048 … 2048} ⊂ [-1, 1].
// Why this grid: every value has at most 11 significant bits and an exponent ≥ -11, so it
// is exactly representable in FP16 (and in TF32). The FP16 and TF32 stages therefore see
// exactly the inputs the FP32 stages see, and their error is accumulation error only.
// Element i depends only on (seed, stream, i): pure and order-independent.
std::vector<float> seededMatrix(std::uint64_t seed, SeedStream stream, std::int64_t count);

// The counter-based core of seededMatrix, which the device generator (core/cuda/
// device_kernels.cu) repeats bit for bit: element i of a stream is seededValue(base, i) with
// base = seededBase(seed, stream), value = grid(splitmix64(base + i·golden) mod 4097).
std::uint64_t seededBase(std::uint64_t seed, SeedStream stream);
float seededValue(std::uint64_t base, std::int64_t index);

// The IEEE binary16 bits of `v`. Throws std::invalid_argument unless `v` is zero or a
// normal FP16 value exactly (no rounding ever happens silently).
std::uint16_t exactHalfBits(float v);
float halfBitsToFloat(std::uint16_t bits);  // normal values and zero
std::vector<std::uint16_t> toHalfBits(std::span<const float> values);

// The BF16 bits of `v` rounded to nearest, ties to even (as __float2bfloat16_rn for finite
// values: BF16 is FP32's top 16 bits), and the FP32 value those bits hold. BF16 keeps 8
// significant bits, so most values of the seeded grid round; a BF16 case's inputs, FP32 copies
// included, are these rounded values (kwb/cuda/device_kernels.h, launchFillSeededBf16). NaN
// stays a quiet NaN.
std::uint16_t bf16Bits(float v);
float bf16BitsToFloat(std::uint16_t bits);
inline float roundToBf16(float v) { return bf16BitsToFloat(bf16Bits(v)); }

}  // namespace kwb
