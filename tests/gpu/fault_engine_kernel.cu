// SPDX-License-Identifier: Apache-2.0
#include "fault_engine_kernel.h"

namespace kwb::test {
namespace {

__global__ void faultingSgemm(int m, int n, int k, float alpha, const float* a, const float* b,
                              float beta, float* c, bool fault) {
  const int row = int(blockIdx.y * 16 + threadIdx.y), col = int(blockIdx.x * 16 + threadIdx.x);
  // 2^40 floats past C: no allocation reaches there, so the write is an illegal address.
  if (fault && row == 0 && col == 0) c[1ll << 40] = 1.0f;
  if (row >= m || col >= n) return;
  float acc = 0.0f;
  for (int q = 0; q < k; ++q) acc = fmaf(a[(long long)row * k + q], b[(long long)q * n + col], acc);
  float* out = c + (long long)row * n + col;
  *out = beta == 0.0f ? alpha * acc : fmaf(alpha, acc, beta * *out);
}

}  // namespace

cudaError_t launchFaultingSgemm(int m, int n, int k, float alpha, const float* a, const float* b,
                                float beta, float* c, bool fault, cudaStream_t stream) {
  const dim3 block(16, 16), grid((n + 15) / 16, (m + 15) / 16);
  faultingSgemm<<<grid, block, 0, stream>>>(m, n, k, alpha, a, b, beta, c, fault);
  return cudaGetLastError();
}

}  // namespace kwb::test
