// SPDX-License-Identifier: Apache-2.0
#include "measure_kernels.h"

#include "kwb/cuda/check.h"

namespace {

// Spins for a wall-clock duration read from the global nanosecond timer, so the length is
// known whatever the SM clock does (clock64 counts cycles, whose rate boosts and throttles).
__global__ void spinKernel(unsigned long long ns) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
}

// Reads every element once; the sum is written so the loads cannot be dropped.
__global__ void readKernel(const float4* in, std::size_t n, float* out) {
  float acc = 0.f;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const float4 v = in[i];
    acc += v.x + v.y + v.z + v.w;
  }
  if (acc == 12345.678f) out[0] = acc;  // practically never true; keeps the reads live
}

}  // namespace

void launchSpin(double ms, CUstream_st* stream) {
  spinKernel<<<1, 1, 0, stream>>>((unsigned long long)(ms * 1e6));
  KWB_CHECK_LAUNCH();
}

void launchRead(const float* in, std::size_t floats, float* out, CUstream_st* stream) {
  readKernel<<<1024, 256, 0, stream>>>(reinterpret_cast<const float4*>(in), floats / 4, out);
  KWB_CHECK_LAUNCH();
}
