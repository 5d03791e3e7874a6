// SPDX-License-Identifier: Apache-2.0
#pragma once
// The launcher contract of the one-dimensional problem families (reduce, scan): a vector of
// `count` elements of one element type in, one element (reduce) or `count` elements (scan) out.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "kwb/kernel_descriptor.h"

namespace kwb {

enum class ElementType { kFloat32, kInt32 };
std::string_view toString(ElementType t);             // "f32", "i32"
ElementType parseElementType(std::string_view text);  // throws InputError naming the text
inline std::size_t elementBytes(ElementType) { return 4; }

// Everything a 1-D launcher needs; the pipeline owns every buffer.
// - `in` holds `count` elements of `type`; the launcher never writes it.
// - `out` holds one element (reduce) or `count` elements (scan); the launcher writes all of
//   it (a reduce that accumulates with atomics clears it first, on the stream, or has its last
//   block write it).
// - `scratch` is scratchBytes(count, type) bytes of device memory whose contents are
//   undefined on entry (a launcher that needs zeros clears it on the stream).
// A launcher enqueues on `stream` only: no synchronisation, allocation or host work that
// depends on the GPU, so a CUDA graph can capture it. count may be 0.
struct VectorArgs {
  std::int64_t count = 0;
  ElementType type = ElementType::kFloat32;
  const void* in = nullptr;
  void* out = nullptr;
  void* scratch = nullptr;
  std::size_t scratchBytes = 0;
  CUstream_st* stream = nullptr;
};

// VectorLaunchFn and ScratchBytesFn (kwb/kernel_descriptor.h): a launcher, and the scratch a
// launch of `count` elements of `type` needs (0 for none).

}  // namespace kwb
