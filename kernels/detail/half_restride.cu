// SPDX-License-Identifier: Apache-2.0
// The FP16 operand copies of kernels/detail/half_restride.h.
#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include "detail/grid_dependency.cuh"
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

// A copy moves 16-byte chunks of the destination: 8 elements of a row, the last chunk of a row
// zero-filled past `cols` (the padding is never read; writing it keeps every store whole).
__host__ __device__ std::int64_t chunksOf(const Copy& c) {
  return std::int64_t(c.rows) * ((c.cols + 7) / 8);
}

constexpr int kThreads = 256;
constexpr int kChunksInFlight = 4;  // per thread: loads issued before their stores

std::size_t bytesOf(std::int64_t rows, std::int64_t cols, int multiple) {
  // Each buffer starts 256-byte aligned (a tensor map's base must be 16-byte aligned).
  return std::size_t((rows * paddedStride(cols, multiple) * 2 + 255) / 256 * 256);
}

// Chunk j of row r. `aligned`: every source row starts 16-byte aligned (cols a multiple of 8;
// the launcher checks the bases), so one 16-byte load; else eight 2-byte loads, which the
// neighbouring threads' make one coalesced span.
template <bool aligned>
__device__ uint4 loadChunk(const Copy& c, std::int64_t r, int j) {
  const auto* row = reinterpret_cast<const unsigned short*>(c.src) + r * c.cols;
  if constexpr (aligned) {
    return __ldg(reinterpret_cast<const uint4*>(row) + j);
  } else {
    unsigned w[4];
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const int col = 8 * j + 2 * e;
      const unsigned lo = col < c.cols ? __ldg(row + col) : 0u;
      const unsigned hi = col + 1 < c.cols ? __ldg(row + col + 1) : 0u;
      w[e] = lo | hi << 16;
    }
    return make_uint4(w[0], w[1], w[2], w[3]);
  }
}

// Every thread of the grid's row copies chunks first, first + stride, ..., kChunksInFlight of them
// loaded before any is stored. `Index` is 32-bit where the chunks fit: a 64-bit division costs
// tens of instructions.
template <bool aligned, typename Index>
__device__ void copyChunks(const Copy& c, Index chunks, Index first, Index stride) {
  const Index perRow = Index((c.cols + 7) / 8);
  for (Index base = first; base < chunks; base += kChunksInFlight * stride) {
    uint4 v[kChunksInFlight];
#pragma unroll
    for (int u = 0; u < kChunksInFlight; ++u)
      if (const Index i = base + Index(u) * stride; i < chunks)
        v[u] = loadChunk<aligned>(c, i / perRow, int(i % perRow));
#pragma unroll
    for (int u = 0; u < kChunksInFlight; ++u)
      if (const Index i = base + Index(u) * stride; i < chunks) {
        const Index r = i / perRow, j = i - r * perRow;
        reinterpret_cast<uint4*>(c.dst + std::int64_t(r) * c.ld)[j] = v[u];
      }
  }
}

template <bool aligned>
__device__ void copyOperand(const Copy& c) {
  const std::int64_t chunks = chunksOf(c);
  const std::int64_t first = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  if (chunks + kChunksInFlight * stride <= std::int64_t(UINT32_MAX))
    copyChunks<aligned, std::uint32_t>(c, std::uint32_t(chunks), std::uint32_t(first),
                                       std::uint32_t(stride));
  else
    copyChunks<aligned, std::int64_t>(c, chunks, first, stride);
}

// blockIdx.y picks the operand; the blocks of a row of the grid share its copy. `c` is a value,
// not a reference into the parameters: picking one of two parameter structs by reference made
// every thread copy both to local memory (the first version moved 58 MB through L2 for a 4 MB
// copy: 11.7 us at 1024x1024x1000 on an H100).
//
// The GEMM that reads the copies is launched as a programmatic dependent (wgmma::dependentLaunch)
// and waits in the kernel for this grid to end and its writes to be visible: saying at once that
// it may start lets its CTAs set up their rings while the copy runs.
__global__ void __launch_bounds__(kThreads) relayKernel(Copy a, Copy b) {
  launchDependents();
  const Copy c = blockIdx.y == 0 ? a : b;
  if (c.dst == nullptr) return;
  if (c.cols % 8 == 0)
    copyOperand<true>(c);
  else
    copyOperand<false>(c);
}

// relayMultiple, or in measurement builds the multiple KWB_WGMMA_RELAY forces (8 or 64).
int activeRelayMultiple(std::int64_t n, std::int64_t k) {
#ifdef KWB_PERF_EXPERIMENT
  if (const char* e = std::getenv("KWB_WGMMA_RELAY");
      e && (std::atoi(e) == 8 || std::atoi(e) == 64))
    return std::atoi(e);
#endif
  return relayMultiple(n, k);
}

}  // namespace

std::size_t relayBytes(std::int64_t m, std::int64_t n, std::int64_t k) {
  const int multiple = activeRelayMultiple(n, k);
  return (k % multiple != 0 ? bytesOf(m, k, multiple) : 0) +
         (n % multiple != 0 ? bytesOf(k, n, multiple) : 0);
}

HalfOperands relayHalves(const void* a, const void* b, std::int64_t m, std::int64_t n,
                         std::int64_t k, void* scratch, cudaStream_t stream) {
  const int multiple = activeRelayMultiple(n, k);
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
  // Enough threads for kChunksInFlight chunks each, up to 8 blocks a multiprocessor.
  const std::int64_t chunks =
      std::max(ca.dst ? chunksOf(ca) : std::int64_t{0}, cb.dst ? chunksOf(cb) : std::int64_t{0});
  const std::int64_t perBlock = std::int64_t(kThreads) * kChunksInFlight;
  const unsigned blocks = unsigned(
      std::clamp<std::int64_t>((chunks + perBlock - 1) / perBlock, 1, multiprocessors() * 8));
  relayKernel<<<dim3(blocks, 2), kThreads, 0, stream>>>(ca, cb);
  KWB_CHECK_LAUNCH();
  return ops;
}

}  // namespace kwb::kernels::detail
