// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "kwb/family.h"

namespace kwb::kernels {

// The GEMM family: its declaration (axes m, n, k; GFLOP/s against the compute peak; cuBLAS
// SGEMM the reference) and its work (gemm_family.cpp).
Family gemmFamily();

}  // namespace kwb::kernels
