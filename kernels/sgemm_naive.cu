// SPDX-License-Identifier: Apache-2.0
// Stage 1: one thread per element of C, every operand read straight from global memory.
#include <cstdint>

#include "kwb/cuda/check.h"
#include "descriptors.h"
#include "tile_grid.h"

namespace kwb::kernels {
namespace {

template <int BX, int BY>
__global__ void __launch_bounds__(BX* BY)
    sgemmNaiveKernel(int m, int n, int k, float alpha, const float* __restrict__ a,
                     const float* __restrict__ b, float beta, float* __restrict__ c, int tilesN) {
  // threadIdx.x runs along a row of C: a warp reads one A element (a broadcast) and 32
  // consecutive B elements (one coalesced 128-byte line) per step of k.
  const std::int64_t row = std::int64_t(blockIdx.x / unsigned(tilesN)) * BY + threadIdx.y;
  const std::int64_t col = std::int64_t(blockIdx.x % unsigned(tilesN)) * BX + threadIdx.x;
  if (row >= m || col >= n) return;
  const float* ar = a + row * k;
  const float* bc = b + col;
  float acc = 0.0f;
  for (int q = 0; q < k; ++q) acc = fmaf(ar[q], bc[std::int64_t(q) * n], acc);
  float* out = c + row * n + col;
  // BLAS semantics: with beta = 0, C is not read (it may hold NaN or the canary).
  *out = beta == 0.0f ? alpha * acc : fmaf(alpha, acc, beta * *out);
}

constexpr int kBx = 32, kBy = 8;

LaunchInfo launch(const GemmArgs& g) {
  const TileGrid grid = tileGrid(g.shape, kBy, kBx);
  sgemmNaiveKernel<kBx, kBy><<<grid.blocks, dim3(kBx, kBy), 0, g.stream>>>(
      int(g.shape.m), int(g.shape.n), int(g.shape.k), g.alpha, g.a, g.b, g.beta, g.c, grid.tilesN);
  KWB_CHECK_LAUNCH();
  return {false, "sgemm.naive"};
}

}  // namespace

KernelDescriptor sgemmNaive() {
  KernelDescriptor d;
  d.id = "sgemm.naive";
  d.typicalFlopsPerS = 6e12;  // 5.4-6.7 TFLOP/s on an H200 from 1024³ (a tenth of its peak)
  d.displayName = "Naive";
  d.family = "sgemm";
  d.description = "One thread per element of C, operands from global memory";
  d.launch = &launch;
  return d;
}

}  // namespace kwb::kernels
