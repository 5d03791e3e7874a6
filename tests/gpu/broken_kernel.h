// SPDX-License-Identifier: Apache-2.0
#pragma once
// A deliberately broken SGEMM for the proof tests only (never in the user registry).
#include <cuda_runtime_api.h>

namespace kwb::test {

// 16×16 shared-memory tiles with floor instead of ceiling division: the last partial tile in
// M, N (never written) and K (never accumulated) is skipped. Correct when M, N, K are all
// multiples of 16. Returns cudaGetLastError() after the launch.
cudaError_t launchBrokenSgemm(int m, int n, int k, float alpha, const float* a, const float* b,
                              float beta, float* c, cudaStream_t stream);

}  // namespace kwb::test
