// SPDX-License-Identifier: Apache-2.0
#pragma once
// The launcher contract of the radix sort family (docs/FAMILIES.md, "Sort"): `count` 32-bit keys
// (u32, or f32 in CUB's order), optionally with a u32 value each, sorted ascending and stably
// into separate outputs. A sort kernel's descriptor carries a SortLauncher in its `launcher`;
// the family's driver (sort_family.cpp) allocates what it asks for and calls it.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "kwb/kernel_descriptor.h"

namespace kwb::kernels::sort {

// The key type, by its axis word: "u32" or "f32" (raw bits either way).
enum class KeyType { kU32, kF32 };
std::string_view toString(KeyType t);
KeyType parseKeyType(std::string_view text);  // throws InputError naming the text

// Everything a sort launcher needs; the driver owns every buffer.
// - keysIn holds `count` keys (raw 32-bit words); valuesIn `count` values when `pairs`, else
//   null. A launcher never writes them.
// - keysOut (and valuesOut with pairs) receive the sorted sequence; every element is written.
// - scratch is scratchBytes(count, type, pairs) bytes of device memory, contents undefined on
//   entry (a launcher that needs zeros clears it on the stream).
// A launcher enqueues on `stream` only (no synchronisation, allocation or host work that waits
// for the GPU), so a CUDA graph can capture it. count may be 0.
struct SortArgs {
  std::int64_t count = 0;
  KeyType type = KeyType::kU32;
  bool pairs = false;
  const std::uint32_t* keysIn = nullptr;
  const std::uint32_t* valuesIn = nullptr;
  std::uint32_t* keysOut = nullptr;
  std::uint32_t* valuesOut = nullptr;
  void* scratch = nullptr;
  std::size_t scratchBytes = 0;
  CUstream_st* stream = nullptr;
};

using SortLaunchFn = LaunchInfo (*)(const SortArgs& args);
using SortScratchFn = std::size_t (*)(std::int64_t count, KeyType type, bool pairs);

// What a sort kernel's KernelDescriptor::launcher holds.
struct SortLauncher {
  SortLaunchFn launch = nullptr;
  SortScratchFn scratchBytes = nullptr;  // null: no scratch
};

// A sort kernel's descriptor (problem "sort"), its launcher in `launcher`.
KernelDescriptor sortDescriptor(std::string id, std::string name, bool reference,
                                std::string description, SortLaunchFn launch,
                                SortScratchFn scratch);

// The largest count a sort size may name (the count axis's range): 2^31 − 1.
inline constexpr std::int64_t kMaxSortCount = (std::int64_t{1} << 31) - 1;

}  // namespace kwb::kernels::sort
