#pragma once
// An experiment on sgemm.warp_tiled's large-shape path (measurement builds only, KWB_WT_CFG=
// async<BK>x<STAGES>): a multistage cp.async pipeline in place of the register-staged double
// buffer, so no global load waits in registers across the FMAs and no thread transposes A.
//
// A stays K-contiguous in shared memory ([BM][BK + 4] floats): a thread reads 4 consecutive k
// of each of its 8 rows with one LDS.128 and uses them over 4 k steps. Its rows are tRow +
// 8·i (not 8 consecutive rows), so a warp's 8 distinct rows are consecutive: with the row
// stride of BK + 4 floats their 16-byte reads fall in 8 different bank quads (a multiple-of-4
// stride times 8 rows apart would put all 8 in one). B is row-major [BK][BN] as in the stage.
// One barrier per K tile: the wait for tile kt's copies and the fence before tile kt-1's stage
// is refilled are the same __syncthreads.
//
// Full tiles only (M, N multiples of 128, K of BK, 16-byte aligned rows); the launcher takes
// the stage's own code for anything else.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "detail/gemm_tile_io.cuh"
#include "kwb/cuda/check.h"
#include "kwb/kernel_descriptor.h"
#include "tile_grid.h"

namespace kwb::kernels {

template <int BK, int STAGES>
struct WarpTiledAsyncConfig {
  static constexpr int BM = 128, BN = 128, kThreads = 128;  // 4 warps of 64×64
  static constexpr int kAStride = BK + 4;                   // floats per A row in shared
  static constexpr int kStageFloats = BM * kAStride + BK * BN;
  static constexpr std::size_t kSmemBytes = std::size_t(STAGES) * kStageFloats * sizeof(float);
  static_assert(BK % 4 == 0 && STAGES >= 2);
};

__device__ __forceinline__ void cpAsync16(float* dst, const float* src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(
                   std::uint32_t(__cvta_generic_to_shared(dst))),
               "l"(src)
               : "memory");
}
__device__ __forceinline__ void cpAsyncCommit() {
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}
template <int N>
__device__ __forceinline__ void cpAsyncWait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

template <class Cfg, int BK, int STAGES>
__global__ void __launch_bounds__(128)
    sgemmWarpTiledAsyncKernel(int m, int n, int k, float alpha, const float* __restrict__ a,
                              const float* __restrict__ b, float beta, float* __restrict__ c,
                              int tilesM, int tilesN) {
  constexpr int BM = Cfg::BM, BN = Cfg::BN, kAStride = Cfg::kAStride;
  extern __shared__ __align__(16) float smem[];
  const int tid = int(threadIdx.x), warp = tid / 32, lane = tid % 32;
  const detail::TileCoord tile = detail::groupedTile(blockIdx.x, tilesM, tilesN, 8);
  const int row0 = tile.tileRow * BM, col0 = tile.tileCol * BN;
  const int warpRow = warp / 2, warpCol = warp % 2;
  const int tRow = lane / 4, tCol = lane % 4;

  // One K tile into stage s: A is BM rows × BK/4 chunks, B is BK rows × BN/4 chunks.
  auto load = [&](int kt, int s) {
    float* as = smem + s * Cfg::kStageFloats;
    float* bs = as + BM * kAStride;
    const int k0 = kt * BK;
#pragma unroll
    for (int j = 0; j < BM * BK / 4 / 128; ++j) {
      const int i = tid + 128 * j, r = i / (BK / 4), q = i % (BK / 4);
      cpAsync16(as + r * kAStride + 4 * q, a + std::int64_t(row0 + r) * k + k0 + 4 * q);
    }
#pragma unroll
    for (int j = 0; j < BK * BN / 4 / 128; ++j) {
      const int i = tid + 128 * j, r = i / (BN / 4), q = i % (BN / 4);
      cpAsync16(bs + r * BN + 4 * q, b + std::int64_t(k0 + r) * n + col0 + 4 * q);
    }
  };

  float acc[8][16] = {};
  const int kTiles = k / BK;
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < kTiles) load(s, s);
    cpAsyncCommit();
  }
  for (int kt = 0; kt < kTiles; ++kt) {
    cpAsyncWait<STAGES - 2>();
    __syncthreads();  // tile kt has landed for every thread; tile kt-1's stage is free
    const int next = kt + STAGES - 1;
    if (next < kTiles) load(next, next % STAGES);
    cpAsyncCommit();

    const float* as = smem + (kt % STAGES) * Cfg::kStageFloats;
    const float* bs = as + BM * kAStride;
#pragma unroll
    for (int k4 = 0; k4 < BK / 4; ++k4) {
      float4 ra[8];
#pragma unroll
      for (int i = 0; i < 8; ++i)
        ra[i] = *reinterpret_cast<const float4*>(as + (warpRow * 64 + tRow + 8 * i) * kAStride +
                                                 4 * k4);
#pragma unroll
      for (int kk = 0; kk < 4; ++kk) {
        float rb[16];
#pragma unroll
        for (int wn = 0; wn < 4; ++wn)
          *reinterpret_cast<float4*>(&rb[4 * wn]) = *reinterpret_cast<const float4*>(
              bs + (4 * k4 + kk) * BN + warpCol * 64 + wn * 16 + tCol * 4);
#pragma unroll
        for (int i = 0; i < 8; ++i) {
          const float av = kk == 0 ? ra[i].x : kk == 1 ? ra[i].y : kk == 2 ? ra[i].z : ra[i].w;
#pragma unroll
          for (int j = 0; j < 16; ++j) acc[i][j] = fmaf(av, rb[j], acc[i][j]);
        }
      }
    }
  }
  cpAsyncWait<0>();

#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int wn = 0; wn < 4; ++wn)
      detail::storeRow4<detail::Edge::kFull>(
          c, n, row0 + warpRow * 64 + tRow + 8 * i, col0 + warpCol * 64 + wn * 16 + tCol * 4, m, n,
          make_float4(acc[i][4 * wn], acc[i][4 * wn + 1], acc[i][4 * wn + 2], acc[i][4 * wn + 3]),
          alpha, beta);
}

// True when the experiment's full-tile kernel can take the case.
inline bool warpTiledAsyncFits(const GemmArgs& g, int bk) {
  auto aligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  return g.shape.m % 128 == 0 && g.shape.n % 128 == 0 && g.shape.k % bk == 0 && aligned(g.a) &&
         aligned(g.b) && aligned(g.c);
}

template <int BK, int STAGES>
void launchWarpTiledAsync(const GemmArgs& g) {
  using Cfg = WarpTiledAsyncConfig<BK, STAGES>;
  const TileGrid grid = tileGrid(g.shape, Cfg::BM, Cfg::BN);
  auto* kernel = &sgemmWarpTiledAsyncKernel<Cfg, BK, STAGES>;
  KWB_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      int(Cfg::kSmemBytes)));
  kernel<<<grid.blocks, Cfg::kThreads, Cfg::kSmemBytes, g.stream>>>(
      int(g.shape.m), int(g.shape.n), int(g.shape.k), g.alpha, g.a, g.b, g.beta, g.c,
      int(g.shape.m / Cfg::BM), grid.tilesN);
  KWB_CHECK_LAUNCH();
}

}  // namespace kwb::kernels
