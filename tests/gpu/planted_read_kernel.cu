// SPDX-License-Identifier: Apache-2.0
#include <cstdint>

#include "planted_read_kernel.h"

namespace kwb::test {
namespace {

constexpr int kTile = 16;

// The function name is what compute-sanitizer names in its report.
__global__ void plantedOobReadSgemm(int m, int n, int k, float alpha, const float* a,
                                    const float* b, float beta, float* c) {
  __shared__ float as[kTile][kTile];
  __shared__ float bs[kTile][kTile];
  const int tx = int(threadIdx.x), ty = int(threadIdx.y);
  const std::int64_t row = std::int64_t(blockIdx.y) * kTile + ty;
  const std::int64_t col = std::int64_t(blockIdx.x) * kTile + tx;
  float acc = 0.0f;
  for (int t = 0; t < (k + kTile - 1) / kTile; ++t) {
    const int ka = t * kTile + tx, kb = t * kTile + ty;
    // The planted bug: `<=` instead of `<`. At ka == k this reads A[row][k], which is
    // A[row + 1][0], or, in the last row, the first float past the end of A.
    as[ty][tx] = row < m && ka <= k ? a[row * k + ka] : 0.0f;
    // B's guard is right: row k of the tile is zero, so as[ty][k] · bs[k][tx] adds nothing
    // (A's values and the memory around them are finite).
    bs[ty][tx] = kb < k && col < n ? b[std::int64_t(kb) * n + col] : 0.0f;
    __syncthreads();
    for (int q = 0; q < kTile; ++q) acc = fmaf(as[ty][q], bs[q][tx], acc);
    __syncthreads();
  }
  if (row < m && col < n) {
    float* out = c + row * n + col;
    *out = beta == 0.0f ? alpha * acc : fmaf(alpha, acc, beta * *out);
  }
}

}  // namespace

cudaError_t launchPlantedReadSgemm(int m, int n, int k, float alpha, const float* a, const float* b,
                                   float beta, float* c, cudaStream_t stream) {
  const dim3 grid(unsigned((n + kTile - 1) / kTile), unsigned((m + kTile - 1) / kTile));
  plantedOobReadSgemm<<<grid, dim3(kTile, kTile), 0, stream>>>(m, n, k, alpha, a, b, beta, c);
  return cudaGetLastError();
}

}  // namespace kwb::test
