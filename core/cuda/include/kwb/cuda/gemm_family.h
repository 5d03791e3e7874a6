// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "kwb/family.h"

namespace kwb::cuda {

// The GEMM family: its declaration (axes m, n, k; GFLOP/s against the compute peak; cuBLAS
// SGEMM the reference) and its work (core/cuda/gemm_family.cpp). runPlan registers it.
Family gemmFamily();

}  // namespace kwb::cuda
