// SPDX-License-Identifier: Apache-2.0
#pragma once
// A test-only SGEMM that can lose the CUDA context on purpose (never in the user registry), for
// kwb_fault (fault_command_registry.cpp): verify and tune with a fault in the middle of their
// plans. CUDA side, no core headers.
#include <cuda_runtime_api.h>

namespace kwb::test {

// One thread per element of C, right at every shape; with `fault`, thread (0, 0) also writes far
// outside any allocation, an illegal address that loses the CUDA context. Returns
// cudaGetLastError() after the launch.
cudaError_t launchFaultingSgemm(int m, int n, int k, float alpha, const float* a, const float* b,
                                float beta, float* c, bool fault, cudaStream_t stream);

}  // namespace kwb::test
