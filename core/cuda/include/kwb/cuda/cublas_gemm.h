// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "kwb/kernel_descriptor.h"

namespace kwb::cuda {

// C = alpha·A·B + beta·C, row-major FP32, through cublasSgemm on args.cublas (bound to
// args.stream). cuBLAS is column-major: a row-major M×N matrix is the column-major N×M
// matrix of its transpose, so it computes Cᵀ = Bᵀ·Aᵀ with the operands swapped and no
// transposition. One definition, shared by the `cublas.sgemm` reference and the verification
// pipeline, so the pipeline's reference is exactly the registered one. Throws CudaError.
void sgemmRowMajor(const GemmArgs& args);

}  // namespace kwb::cuda
