// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <memory>

#include "kwb/family.h"

namespace kwb::cuda {

class FamilyDriver;

// The GEMM family: its declaration (axes m, n, k; GFLOP/s against the compute peak; cuBLAS
// SGEMM the reference) and its work (core/cuda/gemm_family.cpp).
Family gemmFamily();
// Its driver (core/cuda/gemm_driver.cpp). The driver catalog registers it itself
// (family_driver.cpp): GEMM's pipeline is this library's own.
std::shared_ptr<FamilyDriver> gemmDriver();

}  // namespace kwb::cuda
