// SPDX-License-Identifier: Apache-2.0
#include "broken_kernel.h"

#include <cstdint>

namespace kwb::test {
namespace {

constexpr int kTile = 16;

__global__ void brokenSgemm(int m, int n, int k, float alpha, const float* a, const float* b,
                            float beta, float* c) {
  __shared__ float as[kTile][kTile];
  __shared__ float bs[kTile][kTile];
  const int tx = int(threadIdx.x), ty = int(threadIdx.y);
  const std::int64_t row = std::int64_t(blockIdx.y) * kTile + ty;
  const std::int64_t col = std::int64_t(blockIdx.x) * kTile + tx;
  float acc = 0.0f;
  // The bug: k / kTile drops the partial last tile of K. Loads stay in bounds because the
  // grid (floor too) only covers whole tiles.
  for (int t = 0; t < k / kTile; ++t) {
    as[ty][tx] = a[row * k + t * kTile + tx];
    bs[ty][tx] = b[std::int64_t(t * kTile + ty) * n + col];
    __syncthreads();
    for (int q = 0; q < kTile; ++q) acc = fmaf(as[ty][q], bs[q][tx], acc);
    __syncthreads();
  }
  float* out = c + row * n + col;
  *out = beta == 0.0f ? alpha * acc : fmaf(alpha, acc, beta * *out);
}

}  // namespace

cudaError_t launchBrokenSgemm(int m, int n, int k, float alpha, const float* a, const float* b,
                              float beta, float* c, cudaStream_t stream) {
  const dim3 grid(unsigned(n / kTile), unsigned(m / kTile));  // the bug again: floor
  brokenSgemm<<<grid, dim3(kTile, kTile), 0, stream>>>(m, n, k, alpha, a, b, beta, c);
  return cudaGetLastError();
}

}  // namespace kwb::test
