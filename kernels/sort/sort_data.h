// SPDX-License-Identifier: Apache-2.0
#pragma once
// The sort family's device-side inputs and checks (sort_data.cu), used by its driver
// (sort_family.cpp): seeded keys with duplicates and, for f32, every special value; values that
// are each element's index; and one pass over an output that compares it with the reference
// and checks it independently (order, stability, permutation, multiset fingerprint).
#include <cstdint>

#include "sort/sort_args.h"

namespace kwb::kernels::sort {

// Seeded keys (from `base`, kwb::seededBase): u32 a quarter drawn from 1024 values
// (duplicates), the rest any value; f32 one in 16 a special value (±0, ±inf, quiet and
// signalling NaNs of both signs), a quarter duplicates from 64 small values, the rest any
// finite float. values[i] = i when values is not null. Enqueued on `stream`.
void fillSortInput(std::uint32_t* keys, std::uint32_t* values, std::int64_t count, KeyType type,
                   std::uint64_t base, CUstream_st* stream);

// A key's position in CUB's order as an unsigned number (the host's view of the kernels' one).
std::uint32_t orderedKey(std::uint32_t bits, KeyType type);

// What one check of an output found (all zero for a correct sort of a correct reference).
struct SortCheck {
  unsigned long long mismatches = 0;  // elements whose key or value bits differ from the reference
  unsigned long long unwritten = 0;   // output elements still holding the canary
  unsigned long long outOfOrder = 0;  // out[i-1] after out[i] in CUB's order
  unsigned long long unstable = 0;    // pairs: equal keys whose values (input indices) decrease
  unsigned long long notPermutation = 0;  // pairs: a value out of range or repeated, or
                                          // out key != in key at that value's index
  unsigned long long inputHash = 0;       // multiset fingerprints of the input and output keys
  unsigned long long outputHash = 0;
  long long firstMismatch = -1;               // the first mismatching index, -1 when none
  std::uint32_t gotKey = 0, expectedKey = 0;  // at firstMismatch
  std::uint32_t gotValue = 0, expectedValue = 0;
};

// The buffers one check reads. `seen` is ceil(count / 32) words of scratch (pairs only).
struct SortCheckArgs {
  std::int64_t count = 0;
  KeyType type = KeyType::kU32;
  bool pairs = false;
  const std::uint32_t* keysIn = nullptr;
  const std::uint32_t* keysOut = nullptr;
  const std::uint32_t* valuesOut = nullptr;
  const std::uint32_t* keysRef = nullptr;
  const std::uint32_t* valuesRef = nullptr;
  std::uint32_t* seen = nullptr;
  CUstream_st* stream = nullptr;
};

// Runs the check and waits for it: returns what it found. CUDA errors throw CudaError.
SortCheck checkSort(const SortCheckArgs& a, SortCheck* deviceResult);

// Swaps elements i and j of keys (and of values when not null), on the stream: the negative
// control's damage.
void swapElements(std::uint32_t* keys, std::uint32_t* values, std::int64_t i, std::int64_t j,
                  CUstream_st* stream);

// The canary word every output element holds before a launch (0xAA bytes).
inline constexpr std::uint32_t kSortCanary = 0xAAAAAAAAu;

}  // namespace kwb::kernels::sort
