// SPDX-License-Identifier: Apache-2.0
#pragma once
// What every sort kernel shares: CUB's order of 32-bit keys, the digit of a key, the launcher's
// switch over key type and payload, and carving scratch into aligned pieces.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "kwb/cuda/check.h"
#include "sort/sort_args.h"

namespace kwb::kernels::sort {

constexpr int kRadixBits = 8;
constexpr int kRadixDigits = 1 << kRadixBits;
constexpr int kPasses = 32 / kRadixBits;  // LSD passes over a 32-bit key

// A key's position in CUB's ascending order as an unsigned number (cub::DeviceRadixSort's
// bit twiddle): u32 as is; f32 with its sign bit flipped when positive and every bit flipped
// when negative, so -inf < negatives < -0 = +0 < positives < +inf, NaNs by their bits at the
// ends (negative-signed NaNs first, positive last). CUB treats -0.0 and +0.0 as equal: both
// take +0.0's position, and a stable sort keeps them in input order.
template <bool kFloat>
__host__ __device__ inline std::uint32_t orderedBits(std::uint32_t key) {
  if constexpr (!kFloat) {
    return key;
  } else {
    const std::uint32_t o = key ^ ((key & 0x80000000u) ? 0xffffffffu : 0x80000000u);
    return o == 0x7fffffffu ? 0x80000000u : o;  // -0.0 counts as +0.0
  }
}

// The key that sorts after every key (pads a partial tile): digit 255 in every pass.
template <bool kFloat>
constexpr std::uint32_t kMaxKey = kFloat ? 0x7fffffffu : 0xffffffffu;

// The 8-bit digit of a raw key at `shift`, in CUB's order; the extractor CUB's block ranks take.
template <bool kFloat>
struct DigitOf {
  std::uint32_t shift = 0;
  __device__ __forceinline__ std::uint32_t Digit(std::uint32_t key) const {
    return (orderedBits<kFloat>(key) >> shift) & (kRadixDigits - 1);
  }
};

// Calls f(std::bool_constant<isFloat>{}, std::bool_constant<pairs>{}) for the args' case.
template <typename F>
void dispatch(const SortArgs& a, F&& f) {
  const bool isFloat = a.type == KeyType::kF32;
  if (isFloat && a.pairs)
    f(std::true_type{}, std::true_type{});
  else if (isFloat)
    f(std::true_type{}, std::false_type{});
  else if (a.pairs)
    f(std::false_type{}, std::true_type{});
  else
    f(std::false_type{}, std::false_type{});
}

constexpr std::size_t alignUp(std::size_t b) { return (b + 255) & ~std::size_t(255); }

// Hands out 256-byte-aligned pieces of a scratch block in order; with a null base it only
// counts (the scratch-size function and the launcher share one layout).
class ScratchCarver {
 public:
  explicit ScratchCarver(void* base = nullptr) : m_base(static_cast<char*>(base)) {}
  template <typename T>
  T* take(std::size_t count) {
    T* p = m_base ? reinterpret_cast<T*>(m_base + m_used) : nullptr;
    m_used += alignUp(count * sizeof(T));
    return p;
  }
  std::size_t used() const { return m_used; }

 private:
  char* m_base;
  std::size_t m_used = 0;
};

// Throws when the driver gave less scratch than the kernel's scratch function asked for.
inline void checkScratch(const SortArgs& a, std::size_t used, const char* id) {
  if (a.scratchBytes < used)
    throw std::invalid_argument(std::string(id) + ": scratch smaller than its scratchBytes()");
}

// The buffers a pass of an LSD sort reads and writes: pass 0 reads the input, the last pass
// writes the output, and the passes between ping-pong through the scratch copy so that the
// last (an odd number of hand-overs later) lands in the output.
struct PassBuffers {
  const std::uint32_t* keysIn;
  const std::uint32_t* valuesIn;
  std::uint32_t* keysOut;
  std::uint32_t* valuesOut;
};
inline PassBuffers passBuffers(const SortArgs& a, int pass, std::uint32_t* altKeys,
                               std::uint32_t* altValues) {
  static_assert(kPasses % 2 == 0, "the last pass must write the output");
  const bool toAlt = pass % 2 == 0;  // 0: in→alt, 1: alt→out, 2: out→alt, 3: alt→out
  PassBuffers b{};
  b.keysIn = pass == 0 ? a.keysIn : (toAlt ? a.keysOut : altKeys);
  b.valuesIn = pass == 0 ? a.valuesIn : (toAlt ? a.valuesOut : altValues);
  b.keysOut = toAlt ? altKeys : a.keysOut;
  b.valuesOut = toAlt ? altValues : a.valuesOut;
  return b;
}

}  // namespace kwb::kernels::sort
