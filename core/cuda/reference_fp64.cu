// SPDX-License-Identifier: Apache-2.0
// FP64 reference GEMM: deliberately the simplest correct code (one thread per element of C,
// no tiling), so it can be trusted by reading it. Fast enough: it only runs once per
// (shape, seed) to check the cuBLAS references.
#include "kwb/cuda/reference_fp64.h"

#include <cstdint>

namespace kwb::cuda {
namespace {

__global__ void referenceFp64(int m, int n, int k, float alpha, const float* __restrict__ a,
                              const float* __restrict__ b, float beta, float* __restrict__ c,
                              int tilesN) {
  // 1-D grid of 32×8 tiles: gridDim.y (≤ 65535) would cap M; gridDim.x does not.
  const std::int64_t row = std::int64_t(blockIdx.x / unsigned(tilesN)) * 8 + threadIdx.y;
  const std::int64_t col = std::int64_t(blockIdx.x % unsigned(tilesN)) * 32 + threadIdx.x;
  if (row >= m || col >= n) return;
  // threadIdx.x runs along a row of C and B: the B loads of a warp are coalesced.
  const float* ar = a + row * k;
  double acc = 0.0;
  for (int q = 0; q < k; ++q) acc += double(ar[q]) * double(b[std::int64_t(q) * n + col]);
  double out = double(alpha) * acc;
  if (beta != 0.0f) out += double(beta) * double(c[row * n + col]);
  c[row * n + col] = float(out);
}

}  // namespace

cudaError_t launchReferenceFp64(int m, int n, int k, float alpha, const float* a, const float* b,
                                float beta, float* c, cudaStream_t stream) {
  const std::int64_t tilesN = (std::int64_t(n) + 31) / 32;
  const std::int64_t tiles = tilesN * ((std::int64_t(m) + 7) / 8);
  if (m < 1 || n < 1 || k < 1 || tiles > 0x7FFFFFFF) return cudaErrorInvalidValue;
  referenceFp64<<<unsigned(tiles), dim3(32, 8), 0, stream>>>(m, n, k, alpha, a, b, beta, c,
                                                             int(tilesN));
  return cudaGetLastError();
}

}  // namespace kwb::cuda
