// SPDX-License-Identifier: Apache-2.0
// The ceiling of Ampere-style mma.sync on this GPU (kernels/PERF_NOTES.md, "Stage 8"): every warp
// issues mma.sync.m16n8k16 FP16 -> FP32 from registers only, in CHAINS independent accumulators
// so that the tensor pipe, not the instruction's latency, bounds it; no memory traffic at all.
// What it prints is the most any mma.sync GEMM can reach here. Build and run on the GPU machine:
//   nvcc -O3 -arch=sm_90a -o /tmp/mma-sync-peak scripts/mma-sync-peak.cu && /tmp/mma-sync-peak
#include <cuda_runtime.h>

#include <cstdio>

namespace {

constexpr int kChains = 8;
constexpr int kIterations = 4096;

__global__ void mmaSyncLoop(float* out, unsigned seed) {
  unsigned a[4], b[2];
  for (int i = 0; i < 4; ++i) a[i] = seed * (threadIdx.x + i + 1);
  for (int i = 0; i < 2; ++i) b[i] = seed ^ (threadIdx.x * 7 + i);
  float acc[kChains][4] = {};
  for (int it = 0; it < kIterations; ++it) {
#pragma unroll
    for (int c = 0; c < kChains; ++c)
      asm volatile(
          "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
          "{%8,%9}, {%0,%1,%2,%3};\n"
          : "+f"(acc[c][0]), "+f"(acc[c][1]), "+f"(acc[c][2]), "+f"(acc[c][3])
          : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  }
  float s = 0;
  for (int c = 0; c < kChains; ++c) s += acc[c][0] + acc[c][1] + acc[c][2] + acc[c][3];
  if (s == 1.2345f) out[threadIdx.x] = s;  // keeps the work; never true for these inputs
}

}  // namespace

int main() {
  cudaDeviceProp p{};
  cudaGetDeviceProperties(&p, 0);
  float* out = nullptr;
  cudaMalloc(&out, 1024 * sizeof(float));
  cudaEvent_t t0, t1;
  cudaEventCreate(&t0);
  cudaEventCreate(&t1);
  std::printf("%s, %d SMs\nwarps/SM  TFLOP/s (mma.sync m16n8k16 FP16 in, FP32 accumulate)\n",
              p.name, p.multiProcessorCount);
  for (int warps : {4, 8, 16}) {
    const int blocks = p.multiProcessorCount * 4;
    const int threads = warps * 32 / 4;         // 4 blocks per SM
    mmaSyncLoop<<<blocks, threads>>>(out, 3u);  // warm-up (clocks up)
    float best = 1e30f;
    for (int r = 0; r < 5; ++r) {
      cudaEventRecord(t0);
      mmaSyncLoop<<<blocks, threads>>>(out, 3u);
      cudaEventRecord(t1);
      cudaEventSynchronize(t1);
      float ms = 0;
      cudaEventElapsedTime(&ms, t0, t1);
      best = ms < best ? ms : best;
    }
    const double flops =
        2.0 * 16 * 8 * 16 * double(kChains) * kIterations * (double(blocks) * threads / 32);
    std::printf("%9d  %7.1f\n", warps, flops / (best * 1e-3) / 1e12);
  }
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) {
    std::printf("CUDA error: %s\n", cudaGetErrorString(e));
    return 1;
  }
  return 0;
}
