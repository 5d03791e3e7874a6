// SPDX-License-Identifier: Apache-2.0
#include "fault_kernels.h"

#include "kwb/cuda/check.h"

namespace {

// Writes through a null-based pointer: an illegal address that loses the CUDA context.
__global__ void illegalWriteKernel(float* c) { c[threadIdx.x] = 1.0f; }

__global__ void neverRunsKernel(float* c) { c[0] = 0.0f; }

__global__ void sideStreamWork(float* scratch) { scratch[threadIdx.x] += 1.0f; }

}  // namespace

void launchIllegalWrite(CUstream_st* stream) {
  illegalWriteKernel<<<1, 32, 0, stream>>>(reinterpret_cast<float*>(0x10));
  KWB_CHECK_LAUNCH();
}

// 4096 threads per block exceed every device's limit: the launch fails (cudaErrorInvalidValue
// from CUDA 13 on an H200), which leaves the context usable.
void launchBadConfig(CUstream_st* stream, float* c) {
  neverRunsKernel<<<1, 4096, 0, stream>>>(c);
  KWB_CHECK_LAUNCH();
}

void launchOnSideStream() {
  static cudaStream_t side = [] {
    cudaStream_t s = nullptr;
    KWB_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    return s;
  }();
  static float* scratch = [] {
    float* p = nullptr;
    KWB_CUDA_CHECK(cudaMalloc(&p, 32 * sizeof(float)));
    return p;
  }();
  sideStreamWork<<<1, 32, 0, side>>>(scratch);
  KWB_CHECK_LAUNCH();
}
