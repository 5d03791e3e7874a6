// SPDX-License-Identifier: Apache-2.0
// The cuBLAS references: what the progression is measured against. Row-major operands are
// passed to column-major cuBLAS as their transposes: Cᵀ (N×M) = Bᵀ (N×K) · Aᵀ (K×M), B
// first, no transposition flags, leading dimensions N, K, N.
#include <cublas_v2.h>

#include <stdexcept>

#include "kwb/cuda/check.h"
#include "kwb/cuda/cublas_gemm.h"
#include "descriptors.h"

namespace kwb::kernels {
namespace {

void gemmEx(const GemmArgs& g, const void* a, const void* b, cudaDataType inType,
            cublasComputeType_t compute) {
  if (!g.cublas) throw std::invalid_argument("cuBLAS references need args.cublas");
  if (!a || !b) throw std::invalid_argument("cuBLAS reference inputs are not prepared");
  const int m = int(g.shape.m), n = int(g.shape.n), k = int(g.shape.k);
  KWB_CUBLAS_CHECK(cublasGemmEx(g.cublas, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &g.alpha, b, inType, n,
                                a, inType, k, &g.beta, g.c, CUDA_R_32F, n, compute,
                                CUBLAS_GEMM_DEFAULT));
}

LaunchInfo launchSgemm(const GemmArgs& g) {
  cuda::sgemmRowMajor(g);
  return {false, "cublas.sgemm"};
}

LaunchInfo launchHgemmF32Acc(const GemmArgs& g) {
  gemmEx(g, g.aHalf, g.bHalf, CUDA_R_16F, CUBLAS_COMPUTE_32F);
  return {false, "cublas.hgemm_f32acc"};
}

LaunchInfo launchBgemmF32Acc(const GemmArgs& g) {
  gemmEx(g, g.aBf16, g.bBf16, CUDA_R_16BF, CUBLAS_COMPUTE_32F);
  return {false, "cublas.bgemm_f32acc"};
}

LaunchInfo launchTf32(const GemmArgs& g) {
  gemmEx(g, g.a, g.b, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32);
  return {false, "cublas.tf32"};
}

KernelDescriptor reference(const char* id, const char* name, Precision p, const char* what,
                           LaunchFn fn) {
  KernelDescriptor d;
  d.id = id;
  d.displayName = name;
  d.family = "cublas";
  d.precision = p;
  d.reference = true;
  d.description = what;
  d.launch = fn;
  return d;
}

}  // namespace

KernelDescriptor cublasSgemmRef() {
  return reference("cublas.sgemm", "cuBLAS SGEMM", Precision::kFp32, "cublasSgemm, FP32",
                   &launchSgemm);
}

KernelDescriptor cublasHgemmF32AccRef() {
  return reference("cublas.hgemm_f32acc", "cuBLAS FP16 (FP32 acc)", Precision::kFp16Fp32Acc,
                   "cublasGemmEx, FP16 in, FP32 accumulate and out: the tensor-core roof",
                   &launchHgemmF32Acc);
}

KernelDescriptor cublasBgemmF32AccRef() {
  return reference("cublas.bgemm_f32acc", "cuBLAS BF16 (FP32 acc)", Precision::kBf16Fp32Acc,
                   "cublasGemmEx, BF16 in, FP32 accumulate and out: the BF16 tensor-core roof",
                   &launchBgemmF32Acc);
}

KernelDescriptor cublasTf32Ref() {
  return reference("cublas.tf32", "cuBLAS TF32", Precision::kTf32,
                   "cublasGemmEx, FP32 storage, CUBLAS_COMPUTE_32F_FAST_TF32", &launchTf32);
}

}  // namespace kwb::kernels
