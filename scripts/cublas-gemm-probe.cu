// SPDX-License-Identifier: Apache-2.0
// cuBLAS's FP16-in, FP32-accumulate GEMM called exactly as kwb's cublas.hgemm_f32acc calls it
// (row-major operands as their transposes, kernels/cublas_refs.cpp), five times, for Nsight
// Compute to name and disassemble the kernel cuBLAS picks for a shape. cuBLAS's nvjet kernels
// are not ELF images in libcublasLt's fat binary (cuobjdump -lelf lists none), so their SASS is
// read through ncu's source page (kernels/PERF_NOTES.md, "cuBLAS's 768³ kernel"):
//   nvcc -O2 -o /tmp/probe scripts/cublas-gemm-probe.cu -lcublas
//   ncu -k regex:nvjet --launch-skip 2 --launch-count 1 --section SourceCounters \
//       --page source --print-source sass --csv /tmp/probe 768 [N K]
#include <cublas_v2.h>
#include <cuda_fp16.h>

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  if (argc < 2 || std::atoi(argv[1]) <= 0) {
    std::fprintf(stderr, "usage: %s M [N K] (positive sizes)\n", argv[0]);
    return 2;
  }
  const int m = std::atoi(argv[1]), n = argc > 2 ? std::atoi(argv[2]) : m,
            k = argc > 3 ? std::atoi(argv[3]) : m;
  if (n <= 0 || k <= 0) {
    std::fprintf(stderr, "cublas-gemm-probe: N and K must be positive (got %d, %d)\n", n, k);
    return 2;
  }
  __half *a = nullptr, *b = nullptr;
  float* c = nullptr;
  if (cudaMalloc(&a, std::size_t(m) * k * 2) != cudaSuccess ||
      cudaMalloc(&b, std::size_t(k) * n * 2) != cudaSuccess ||
      cudaMalloc(&c, std::size_t(m) * n * 4) != cudaSuccess) {
    std::fprintf(stderr, "cublas-gemm-probe: cannot allocate %dx%dx%d\n", m, n, k);
    return 1;
  }
  cudaMemset(a, 0, std::size_t(m) * k * 2);
  cudaMemset(b, 0, std::size_t(k) * n * 2);
  cublasHandle_t h = nullptr;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "cublas-gemm-probe: cublasCreate failed\n");
    return 1;
  }
  const float alpha = 1.f, beta = 0.f;
  for (int i = 0; i < 5; ++i)
    if (cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, b, CUDA_R_16F, n, a, CUDA_R_16F,
                     k, &beta, c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F,
                     CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS) {
      std::fprintf(stderr, "cublas-gemm-probe: cublasGemmEx failed at %dx%dx%d\n", m, n, k);
      return 1;
    }
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("%dx%dx%d: %s\n", m, n, k, cudaGetErrorString(e));
  cublasDestroy(h);
  return e == cudaSuccess ? 0 : 1;
}
