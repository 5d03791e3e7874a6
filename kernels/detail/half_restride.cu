// SPDX-License-Identifier: Apache-2.0
// The FP16 operand copies of kernels/detail/half_restride.h.
#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>

#include "detail/half_restride.h"
#include "detail/multiprocessors.h"
#include "kwb/cuda/check.h"

namespace kwb::kernels::detail {
namespace {

struct Copy {
  const __half* src = nullptr;
  __half* dst = nullptr;  // null: nothing to copy
  int rows = 0, cols = 0, ld = 0;
};

// The units a copy moves: 16-byte chunks where every row starts 16-byte aligned (cols a multiple
// of 8; the bases are: the launcher checks A and B, and the scratch is), else elements.
__host__ __device__ std::int64_t unitsOf(const Copy& c) {
  return std::int64_t(c.rows) * (c.cols % 8 == 0 ? c.cols / 8 : c.cols);
}

std::size_t bytesOf(std::int64_t rows, std::int64_t cols, int multiple) {
  // Each buffer starts 256-byte aligned (a tensor map's base must be 16-byte aligned).
  return std::size_t((rows * paddedStride(cols, multiple) * 2 + 255) / 256 * 256);
}

// Unit i of `c` (a 16-byte chunk when `wide`, else an element), by every thread of the grid.
// `Index` is 32-bit where the units fit: a 64-bit division costs tens of instructions.
template <bool wide, typename Index>
__device__ void copyUnits(const Copy& c, Index units, Index first, Index stride) {
  const Index perRow = Index(wide ? c.cols / 8 : c.cols);
  for (Index i = first; i < units; i += stride) {
    const Index r = i / perRow, j = i - r * perRow;
    if constexpr (wide)
      reinterpret_cast<uint4*>(c.dst + std::int64_t(r) * c.ld)[j] =
          reinterpret_cast<const uint4*>(c.src)[i];
    else
      c.dst[std::int64_t(r) * c.ld + j] = c.src[i];
  }
}

// Copies `c` unit by unit (unitsOf): `wide` when the units are 16-byte chunks.
template <bool wide>
__device__ void copyOperand(const Copy& c) {
  const std::int64_t units = unitsOf(c);
  const std::int64_t first = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  if (units + stride <= std::int64_t(UINT32_MAX))
    copyUnits<wide, std::uint32_t>(c, std::uint32_t(units), std::uint32_t(first),
                                   std::uint32_t(stride));
  else
    copyUnits<wide, std::int64_t>(c, units, first, stride);
}

// blockIdx.y picks the operand; the blocks of a row of the grid share its copy. `c` is a value,
// not a reference into the parameters: picking one of two parameter structs by reference made
// every thread copy both to local memory (the first version moved 58 MB through L2 for a 4 MB
// copy: 11.7 us at 1024x1024x1000 on an H100).
__global__ void relayKernel(Copy a, Copy b) {
  const Copy c = blockIdx.y == 0 ? a : b;
  if (c.dst == nullptr) return;
  if (c.cols % 8 == 0)
    copyOperand<true>(c);
  else
    copyOperand<false>(c);
}

}  // namespace

std::size_t relayBytes(std::int64_t m, std::int64_t n, std::int64_t k) {
  const int multiple = relayMultiple(n, k);
  return (k % multiple != 0 ? bytesOf(m, k, multiple) : 0) +
         (n % multiple != 0 ? bytesOf(k, n, multiple) : 0);
}

HalfOperands relayHalves(const void* a, const void* b, std::int64_t m, std::int64_t n,
                         std::int64_t k, void* scratch, cudaStream_t stream) {
  const int multiple = relayMultiple(n, k);
  HalfOperands ops{{a, k}, {b, n}, false};
  Copy ca{static_cast<const __half*>(a), nullptr, int(m), int(k), int(paddedStride(k, multiple))};
  Copy cb{static_cast<const __half*>(b), nullptr, int(k), int(n), int(paddedStride(n, multiple))};
  auto* next = static_cast<unsigned char*>(scratch);
  if (k % multiple != 0) {
    ca.dst = reinterpret_cast<__half*>(next);
    next += bytesOf(m, k, multiple);
    ops.a = {ca.dst, ca.ld};
  }
  if (n % multiple != 0) {
    cb.dst = reinterpret_cast<__half*>(next);
    ops.b = {cb.dst, cb.ld};
  }
  if (ca.dst == nullptr && cb.dst == nullptr) return ops;
  ops.relaid = true;
  // Enough threads for one 16-byte chunk (or element) each up to 8 blocks of 256 a multiprocessor.
  const std::int64_t threads =
      std::max(ca.dst ? unitsOf(ca) : std::int64_t{0}, cb.dst ? unitsOf(cb) : std::int64_t{0});
  const unsigned blocks =
      unsigned(std::clamp<std::int64_t>((threads + 255) / 256, 1, multiprocessors() * 8));
  relayKernel<<<dim3(blocks, 2), 256, 0, stream>>>(ca, cb);
  KWB_CHECK_LAUNCH();
  return ops;
}

}  // namespace kwb::kernels::detail
