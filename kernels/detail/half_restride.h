// SPDX-License-Identifier: Apache-2.0
#pragma once
// FP16 (or BF16: the copy moves 16-bit elements, whatever they encode) operands re-laid with
// row strides TMA can describe. A TMA tensor map's row stride must
// be a multiple of 16 bytes, so an FP16 A (M×K) or B (K×N) whose K or N is not a multiple of 8
// cannot be loaded by sgemm.wgmma as it lies. This copies such an operand into a buffer whose
// rows are padded to a multiple of 8 elements (the padding is never read: the tensor map keeps
// the operand's own width, and TMA zero-fills past it), so the tensor cores serve every shape.
// The copy is part of the launch, and so of its time: it moves 4 bytes per element of each
// operand it re-lays.
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

// `n` rounded up to a multiple of 8: the row stride TMA can describe for FP16.
constexpr std::int64_t tmaStride(std::int64_t n) { return (n + 7) / 8 * 8; }

// Bytes of scratch relayHalves needs for these operands (0: both already have TMA strides).
std::size_t relayBytes(std::int64_t m, std::int64_t n, std::int64_t k);

// A (m×k) and B (k×n), each copied into `scratch` (relayBytes of it, 16-byte aligned) by one
// kernel on `stream` where its row stride is not a multiple of 8 elements, else used in place.
HalfOperands relayHalves(const void* a, const void* b, std::int64_t m, std::int64_t n,
                         std::int64_t k, void* scratch, cudaStream_t stream);

}  // namespace kwb::kernels::detail
