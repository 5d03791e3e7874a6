// SPDX-License-Identifier: Apache-2.0
#pragma once
// The FP64 GPU reference that verifies the cuBLAS references themselves (not in the kernel
// registry): part of the verification pipeline. It reports launch errors by returning
// cudaGetLastError(), which the caller checks with KWB_CUDA_CHECK.
#include <cuda_runtime_api.h>

namespace kwb::cuda {

// C = alpha·A·B + beta·C, row-major FP32 storage, every product and sum in FP64, rounded
// to FP32 once. Reads C only when beta ≠ 0. Asynchronous on `stream`.
cudaError_t launchReferenceFp64(int m, int n, int k, float alpha, const float* a, const float* b,
                                float beta, float* c, cudaStream_t stream);

}  // namespace kwb::cuda
