// SPDX-License-Identifier: Apache-2.0
// The FP16 operand copies of kernels/detail/half_restride.h.
#include <cuda_fp16.h>

#include <algorithm>

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

std::size_t bytesOf(std::int64_t rows, std::int64_t cols) {
  // Each buffer starts 256-byte aligned (a tensor map's base must be 16-byte aligned).
  return std::size_t((rows * tmaStride(cols) * 2 + 255) / 256 * 256);
}

// blockIdx.y picks the operand; a block copies whole rows, its threads along the row.
__global__ void relayKernel(Copy a, Copy b) {
  const Copy& c = blockIdx.y == 0 ? a : b;
  if (c.dst == nullptr) return;
  for (int r = int(blockIdx.x); r < c.rows; r += int(gridDim.x)) {
    const __half* from = c.src + std::int64_t(r) * c.cols;
    __half* to = c.dst + std::int64_t(r) * c.ld;
    for (int col = int(threadIdx.x); col < c.cols; col += int(blockDim.x)) to[col] = from[col];
  }
}

}  // namespace

std::size_t relayBytes(std::int64_t m, std::int64_t n, std::int64_t k) {
  return (k % 8 != 0 ? bytesOf(m, k) : 0) + (n % 8 != 0 ? bytesOf(k, n) : 0);
}

HalfOperands relayHalves(const void* a, const void* b, std::int64_t m, std::int64_t n,
                         std::int64_t k, void* scratch, cudaStream_t stream) {
  HalfOperands ops{{a, k}, {b, n}, false};
  Copy ca{static_cast<const __half*>(a), nullptr, int(m), int(k), int(tmaStride(k))};
  Copy cb{static_cast<const __half*>(b), nullptr, int(k), int(n), int(tmaStride(n))};
  auto* next = static_cast<unsigned char*>(scratch);
  if (k % 8 != 0) {
    ca.dst = reinterpret_cast<__half*>(next);
    next += bytesOf(m, k);
    ops.a = {ca.dst, ca.ld};
  }
  if (n % 8 != 0) {
    cb.dst = reinterpret_cast<__half*>(next);
    ops.b = {cb.dst, cb.ld};
  }
  if (ca.dst == nullptr && cb.dst == nullptr) return ops;
  ops.relaid = true;
  const std::int64_t rows = std::max(ca.dst ? m : 0, cb.dst ? k : 0);
  const unsigned blocks = unsigned(std::min<std::int64_t>(rows, multiprocessors() * 16));
  relayKernel<<<dim3(blocks, 2), 256, 0, stream>>>(ca, cb);
  KWB_CHECK_LAUNCH();
  return ops;
}

}  // namespace kwb::kernels::detail
