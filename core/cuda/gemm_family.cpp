// SPDX-License-Identifier: Apache-2.0
// The GEMM family's declaration and work: C (M×N) = A (M×K) · B (K×N). Its pipeline (inputs,
// cuBLAS and FP64 references, device-side comparison) is the GEMM session beside it, so the
// case loop registers it itself; its kernels are kernels/sgemm_*.cu and cublas_refs.cpp.
#include "kwb/cuda/gemm_family.h"

#include "kwb/family_info.h"
#include "kwb/results.h"

namespace kwb::cuda {
namespace {

// 2·M·N·K FLOPs; A and B read once (2 bytes an element for FP16 and BF16 inputs), C written once.
Work gemmWork(const CaseResult& c) {
  const Shape s = c.shape();
  const double inputBytes = inputElementBytes(c.precision);
  const double m = double(s.m), n = double(s.n), k = double(s.k);
  return {s.flops(), inputBytes * (m * k + k * n) + 4.0 * m * n};
}

}  // namespace

Family gemmFamily() {
  Family f;
  static_cast<FamilyInfo&>(f) = *legacyFamilyInfo("gemm");
  f.work = gemmWork;
  return f;
}

}  // namespace kwb::cuda
