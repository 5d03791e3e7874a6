// SPDX-License-Identifier: Apache-2.0
#pragma once
// A test-only SGEMM with a planted out-of-bounds read that leaves C right (never in the user
// registry): only compute-sanitizer catches it (sanitizer_test.cpp). CUDA side, no core headers.
#include <cuda_runtime_api.h>

namespace kwb::test {

// 16×16 shared-memory tiles, ceiling division, every store guarded: C is right for every
// shape. The bug: A's load guard is `kcol <= k`, so when K % 16 != 0 the thread at column K
// of the last tile reads one float past its row of A, and in the last row one float past the
// end of A's allocation. B's guard zeroes row K of its tile, so the stray value is multiplied
// by 0. Returns cudaGetLastError() after the launch.
cudaError_t launchPlantedReadSgemm(int m, int n, int k, float alpha, const float* a, const float* b,
                                   float beta, float* c, cudaStream_t stream);

}  // namespace kwb::test
