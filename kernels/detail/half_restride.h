// SPDX-License-Identifier: Apache-2.0
#pragma once
// FP16 (or BF16: the copy moves 16-bit elements, whatever they encode) operands re-laid with
// row strides TMA can describe. A TMA tensor map's row stride must
// be a multiple of 16 bytes, so an FP16 A (M×K) or B (K×N) whose K or N is not a multiple of 8
// cannot be loaded by sgemm.wgmma as it lies. This copies such an operand into a buffer whose
// rows are padded (to a multiple of 64 elements: relayMultiple; the padding is never read: the
// tensor map keeps the operand's own width, and TMA zero-fills past it), so the tensor cores
// serve every shape. The copy is part of the launch, and so of its time: it moves 4 bytes per
// element of each operand it re-lays, in one kernel for both.
#include <cuda_runtime_api.h>

#include <cstdint>

namespace kwb::kernels::detail {

// An FP16 row-major matrix as the tensor map sees it: its base and its row stride in elements.
struct HalfOperand {
  const void* data = nullptr;
  std::int64_t ld = 0;
};

// The A and B an sgemm.wgmma launch loads.
struct HalfOperands {
  HalfOperand a, b;
  bool relaid = false;  // either was copied
};

// `n` rounded up to a multiple of `multiple` elements: 8 is the row stride TMA can describe for
// FP16 (16 bytes); 64 makes every row start on a 128-byte line, as the 128-byte swizzled boxes do.
constexpr std::int64_t paddedStride(std::int64_t n, int multiple) {
  return (n + multiple - 1) / multiple * multiple;
}
constexpr std::int64_t tmaStride(std::int64_t n) { return paddedStride(n, 8); }

// The row multiple sgemm.wgmma re-lays to: where TMA cannot load A (k) or B (n) as it lies (rows
// not a multiple of 8 elements), the copy is made anyway, and then each operand whose rows do
// not start on a 128-byte line is copied to rows of a multiple of 64 elements: TMA loads such
// rows far slower (on an H200, 511x513x1025 12.7% faster than with 8, 1000x1001x1000 15.8%).
// Else 8: both are loaded as they lie. Copying only for the 128-byte lines did not pay as a rule
// (1000^3 11% faster, 1024x1000x1024 and 1000x1000x4000 14-15% slower). Large products whose
// rows both start off the 32-byte sectors were copied too until the 2x2 clusters of 128x128,
// loading them as they lie, measured faster (kernels/PERF_NOTES.md, "Off the sectors: 2x2
// clusters as they lie, not the copy"; sgemm_wgmma_choice.cpp).
constexpr int relayMultiple(std::int64_t n, std::int64_t k) {
  return n % 8 != 0 || k % 8 != 0 ? 64 : 8;
}

// Bytes of scratch relayHalves needs for these operands (0: TMA loads both as they lie).
std::size_t relayBytes(std::int64_t m, std::int64_t n, std::int64_t k);

// A (m×k) and B (k×n), each copied into `scratch` (relayBytes of it, 16-byte aligned) by one
// kernel on `stream` where its row is not a multiple of relayMultiple(n, k) elements, else used
// in place.
HalfOperands relayHalves(const void* a, const void* b, std::int64_t m, std::int64_t n,
                         std::int64_t k, void* scratch, cudaStream_t stream);

}  // namespace kwb::kernels::detail
