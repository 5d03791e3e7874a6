// SPDX-License-Identifier: Apache-2.0
// kwb: entry=hgemm_simple block=16x16 tile=16x16 precision=fp16
//
// The FP16-input variant of the bring-your-own contract (docs/BRING_YOUR_OWN.md): A and B are
// __half, C and the accumulation FP32. One thread per element of C, 16x16 tiles of C staged
// through shared memory: a readable starting point, not a fast kernel.
//   kwb run --source resources/examples/hgemm_simple.cu --kernels cublas.hgemm_f32acc --shapes 1024
#include <cuda_fp16.h>

#ifndef TILE
#define TILE 16  // must match block=TILExTILE and tile=TILExTILE above
#endif

extern "C" __global__ void hgemm_simple(int m, int n, int k, float alpha, const __half* a,
                                        const __half* b, float beta, float* c) {
  __shared__ float as[TILE][TILE];
  __shared__ float bs[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < k; t += TILE) {
    const int ak = t + threadIdx.x, bk = t + threadIdx.y;
    as[threadIdx.y][threadIdx.x] =
        row < m && ak < k ? __half2float(a[(long long)row * k + ak]) : 0.0f;
    bs[threadIdx.y][threadIdx.x] =
        bk < k && col < n ? __half2float(b[(long long)bk * n + col]) : 0.0f;
    __syncthreads();
#pragma unroll
    for (int q = 0; q < TILE; ++q) acc = fmaf(as[threadIdx.y][q], bs[q][threadIdx.x], acc);
    __syncthreads();
  }
  if (row < m && col < n) {
    float* out = c + (long long)row * n + col;
    *out = beta == 0.0f ? alpha * acc : fmaf(alpha, acc, beta * *out);
  }
}
