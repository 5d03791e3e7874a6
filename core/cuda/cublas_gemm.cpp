// SPDX-License-Identifier: Apache-2.0
#include "kwb/cuda/cublas_gemm.h"

#include <cublas_v2.h>

#include <stdexcept>

#include "kwb/cuda/check.h"

namespace kwb::cuda {

void sgemmRowMajor(const GemmArgs& a) {
  if (!a.cublas) throw std::invalid_argument("sgemmRowMajor: args.cublas is not set");
  const int m = int(a.shape.m), n = int(a.shape.n), k = int(a.shape.k);
  // Column-major view: Cᵀ (n×m, ld n) = Bᵀ (n×k, ld n) · Aᵀ (k×m, ld k).
  KWB_CUBLAS_CHECK(cublasSgemm(a.cublas, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &a.alpha, a.b, n, a.a,
                               k, &a.beta, a.c, n));
}

}  // namespace kwb::cuda
