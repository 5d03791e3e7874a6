// SPDX-License-Identifier: Apache-2.0
#include "dependent_launch_kernels.h"

#include <cuda_runtime.h>

#include <cstdint>

#include "detail/grid_dependency.cuh"
#include "kwb/cuda/check.h"

namespace kwb::test {
namespace {

namespace dep = kwb::kernels::detail;

__device__ void copyHalves(std::uint16_t* dst, const std::uint16_t* src, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    dst[i] = src[i];
}

__global__ void lateCopy(std::uint16_t* dst, const std::uint16_t* src, std::size_t n,
                         long long spinCycles) {
  dep::launchDependents();
  const long long start = clock64();
  while (clock64() - start < spinCycles) {
  }
  copyHalves(dst, src, n);
}

__global__ void dependentCopy(std::uint16_t* dst, const std::uint16_t* src, std::size_t n,
                              bool wait) {
  if (wait) dep::waitForPriorGrids();
  copyHalves(dst, src, n);
}

}  // namespace

void loadDependentLaunchKernels() {
  cudaFuncAttributes attributes{};
  KWB_CUDA_CHECK(cudaFuncGetAttributes(&attributes, lateCopy));
  KWB_CUDA_CHECK(cudaFuncGetAttributes(&attributes, dependentCopy));
}

void launchLateCopy(void* dst, const void* src, std::size_t bytes, long long spinCycles,
                    CUstream_st* stream) {
  lateCopy<<<1, 256, 0, stream>>>(static_cast<std::uint16_t*>(dst),
                                  static_cast<const std::uint16_t*>(src), bytes / 2, spinCycles);
  KWB_CUDA_CHECK(cudaGetLastError());
}

void launchDependentCopy(void* dst, const void* src, std::size_t bytes, bool wait,
                         CUstream_st* stream) {
  cudaLaunchAttribute attr{};
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(64);
  cfg.blockDim = dim3(256);
  cfg.stream = stream;
  dep::makeDependent(cfg, attr);
  KWB_CUDA_CHECK(cudaLaunchKernelEx(&cfg, dependentCopy, static_cast<std::uint16_t*>(dst),
                                    static_cast<const std::uint16_t*>(src), bytes / 2, wait));
}

}  // namespace kwb::test
