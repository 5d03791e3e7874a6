// SPDX-License-Identifier: Apache-2.0
#pragma once
// The FP64 reference through cuBLAS DGEMM: A and B widened to double on the device (exact),
// C = A·B accumulated in double (FP64 tensor cores on Hopper: IEEE FP64 FMAs), rounded once
// to float. An order of magnitude faster than the plain FP64 kernel (core/cuda/reference_fp64.cu)
// at large shapes, which stays the fallback when the double copies do not fit.
#include "kwb/kernel_descriptor.h"

namespace kwb::cuda {

// C (args.c) = A·B for alpha = 1, beta = 0. Returns false, having launched nothing, when the
// double copies (8·(MK + KN + MN) bytes) do not fit in free device memory. Synchronises
// args.stream. Throws CudaError on a CUDA or cuBLAS failure.
bool referenceDgemm(const GemmArgs& args);

}  // namespace kwb::cuda
