// SPDX-License-Identifier: Apache-2.0
#pragma once
// sgemm.warp_tiled — stage 7: warp tiling on top of register blocking (siboehm's kernel 10),
// with double-buffered shared memory and the next tiles prefetched into registers.
//
// Hierarchy: a block computes BM×BN of C; each warp a WM×WN slice of it; each warp's slice is
// walked in WMITER×WNITER sub-tiles of WSUBM×WSUBN, of which each thread owns TM×TN. Why warp
// tiles: the 32 threads of a warp read a compact WSUBM×K strip of As and K×WSUBN strip of Bs,
// so a warp's LDS.128s touch few distinct addresses (broadcasts), and the register blocking
// per thread (TM·WMITER values of A times TN·WNITER values of B per k) gives 128 FMAs for 6
// LDS.128 in the default configuration.
//
// Pipeline: while the FMAs of tile t run from shared buffer t%2, the global loads of tile t+1
// are already in flight into registers (issued before the FMAs, consumed after them), then
// stored into the other buffer. One __syncthreads per tile suffices: the barrier at the end
// of iteration t separates the reads of buffer t%2 (iteration t) from its overwrite
// (iteration t+1) and the writes of buffer (t+1)%2 from their reads (iteration t+1).
//
// Split-K (blockIdx.y > 0 exists only then): block (tile, z) sums K range [z·kChunk,
// min(K, (z+1)·kChunk)), kChunk a multiple of BK so every range but the last is whole tiles,
// and stores the raw sums into slice z of an FP32 workspace; a reduction kernel
// (sgemm_warp_tiled.cu) then applies alpha and beta. Without split-K, kChunk = K and the
// epilogue writes alpha·acc + beta·C itself.
//
// Edges: see detail/gemm_tile_io.cuh; the launcher picks kFull when every dimension is a
// multiple of the block tile, so the aligned case carries no guards.
//
// This header holds the kernel template and its launcher so the tuning configurations
// (kernels/tune) can instantiate it, each in its own translation unit.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "detail/gemm_tile_io.cuh"
#include "kwb/cuda/check.h"
#include "kwb/kernel_descriptor.h"
#include "descriptors.h"
#include "tile_grid.h"

namespace kwb::kernels {

template <int BM_, int BN_, int BK_, int WM_, int WN_, int WNITER_, int TM_, int TN_>
struct WarpTiledConfig {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_, WNITER = WNITER_, TM = TM_,
                       TN = TN_;
  static constexpr int kThreads = (BM / WM) * (BN / WN) * 32;
  static constexpr int kWmIter = (WM * WN) / (32 * TM * TN * WNITER);
  static constexpr int kWSubM = WM / kWmIter;
  static constexpr int kWSubN = WN / WNITER;
  static constexpr int kThreadsAlongN = kWSubN / TN;  // threads of a warp along a sub-tile row
  // As is [BK][BM + 4]: the 4-float pad spreads the transposing stores over more banks and
  // keeps every row 16-byte aligned for the LDS.128 reads.
  static constexpr int kAsStride = BM + 4;
  static constexpr int kStageFloats = BK * kAsStride + BK * BN;
  static constexpr std::size_t kSmemBytes = 2 * std::size_t(kStageFloats) * sizeof(float);
  static constexpr int kARowsPerPass = kThreads * 4 / BK;
  static constexpr int kALoads = BM / kARowsPerPass;
  static constexpr int kBRowsPerPass = kThreads / (BN / 4);
  static constexpr int kBLoads = BK / kBRowsPerPass;

  static_assert(BM % WM == 0 && BN % WN == 0, "warps must tile the block");
  static_assert(kWmIter >= 1 && (WM * WN) % (32 * TM * TN * WNITER) == 0 && WM % kWmIter == 0,
                "a warp tile must split into whole sub-tiles");
  static_assert(WN % WNITER == 0 && kWSubN % TN == 0 && kWSubM % TM == 0);
  static_assert(kThreadsAlongN * (kWSubM / TM) == 32, "a sub-tile is covered by one warp");
  static_assert(TM % 4 == 0 && TN % 4 == 0 && BK % 4 == 0 && BN % 4 == 0, "float4 accesses");
  static_assert((kThreads * 4) % BK == 0 && BM % kARowsPerPass == 0, "A loads split evenly");
  static_assert(kThreads % (BN / 4) == 0 && BK % kBRowsPerPass == 0, "B loads split evenly");
};

// kSplitK is a template parameter so the unsplit kernel, the one that matters at large
// shapes, compiles to exactly the code it had before split-K existed (49.8 TFLOP/s at 4096^3
// on an H200; the first split-K version made it 42.7).
template <class Cfg, detail::Edge E, bool kSplitK>
__global__ void __launch_bounds__(Cfg::kThreads)
    sgemmWarpTiledKernel(int m, int n, int k, float alpha, const float* __restrict__ a,
                         const float* __restrict__ b, float beta, float* __restrict__ c, int tilesM,
                         int tilesN, int kChunk, float* __restrict__ partial) {
  constexpr int BM = Cfg::BM, BN = Cfg::BN, BK = Cfg::BK, WM = Cfg::WM, WN = Cfg::WN;
  constexpr int WNITER = Cfg::WNITER, TM = Cfg::TM, TN = Cfg::TN;
  constexpr int kWmIter = Cfg::kWmIter, kWSubM = Cfg::kWSubM, kWSubN = Cfg::kWSubN;
  constexpr int kAsStride = Cfg::kAsStride;
  extern __shared__ __align__(16) float smem[];

  const int tid = int(threadIdx.x);
  const detail::TileCoord tile = detail::groupedTile(blockIdx.x, tilesM, tilesN, 8);
  const int row0 = tile.tileRow * BM;
  const int col0 = tile.tileCol * BN;

  const int warp = tid / 32, lane = tid % 32;
  const int warpRow = warp / (BN / WN), warpCol = warp % (BN / WN);
  const int tRow = lane / Cfg::kThreadsAlongN, tCol = lane % Cfg::kThreadsAlongN;
  // Offsets of this thread's first A value and first B value inside a tile row of As / Bs.
  const int aOff = warpRow * WM + tRow * TM;
  const int bOff = warpCol * WN + tCol * TN;

  const int aRow = tid / (BK / 4), aCol = tid % (BK / 4) * 4;
  const int bRow = tid / (BN / 4), bCol = tid % (BN / 4) * 4;

  float4 ra[Cfg::kALoads], rb[Cfg::kBLoads];
  auto loadGlobal = [&](int k0) {
#pragma unroll
    for (int i = 0; i < Cfg::kALoads; ++i)
      ra[i] = detail::loadRow4<E>(a, k, row0 + aRow + i * Cfg::kARowsPerPass, k0 + aCol, m, k);
#pragma unroll
    for (int i = 0; i < Cfg::kBLoads; ++i)
      rb[i] = detail::loadRow4<E>(b, n, k0 + bRow + i * Cfg::kBRowsPerPass, col0 + bCol, k, n);
  };
  auto storeShared = [&](float* as) {
    float* bs = as + BK * kAsStride;
#pragma unroll
    for (int i = 0; i < Cfg::kALoads; ++i) {
      float* dst = as + aCol * kAsStride + aRow + i * Cfg::kARowsPerPass;
      dst[0 * kAsStride] = ra[i].x;
      dst[1 * kAsStride] = ra[i].y;
      dst[2 * kAsStride] = ra[i].z;
      dst[3 * kAsStride] = ra[i].w;
    }
#pragma unroll
    for (int i = 0; i < Cfg::kBLoads; ++i)
      *reinterpret_cast<float4*>(bs + (bRow + i * Cfg::kBRowsPerPass) * BN + bCol) = rb[i];
  };

  float acc[kWmIter * TM][WNITER * TN] = {};
  float regM[kWmIter * TM], regN[WNITER * TN];

  // Unsplit, these are the constants 0 and k, and the loop below is the one measured at 98% of
  // cuBLAS on an H200; a form like `kEnd - k0 > BK` for `more` cost 15% there.
  const int kBegin = kSplitK ? int(blockIdx.y) * kChunk : 0;
  const int kEnd = kSplitK ? (k - kBegin < kChunk ? k : kBegin + kChunk) : k;
  loadGlobal(kBegin);
  storeShared(smem);
  __syncthreads();

  int stage = 0;
  for (int k0 = kBegin; k0 < kEnd; k0 += BK) {
    const bool more = k0 + BK < kEnd;
    if (more) loadGlobal(k0 + BK);  // in flight during the FMAs below

    const float* as = smem + stage * Cfg::kStageFloats;
    const float* bs = as + BK * kAsStride;
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
#pragma unroll
      for (int wm = 0; wm < kWmIter; ++wm)
#pragma unroll
        for (int i = 0; i < TM; i += 4)
          *reinterpret_cast<float4*>(&regM[wm * TM + i]) =
              *reinterpret_cast<const float4*>(as + kk * kAsStride + aOff + wm * kWSubM + i);
#pragma unroll
      for (int wn = 0; wn < WNITER; ++wn)
#pragma unroll
        for (int j = 0; j < TN; j += 4)
          *reinterpret_cast<float4*>(&regN[wn * TN + j]) =
              *reinterpret_cast<const float4*>(bs + kk * BN + bOff + wn * kWSubN + j);
#pragma unroll
      for (int i = 0; i < kWmIter * TM; ++i)
#pragma unroll
        for (int j = 0; j < WNITER * TN; ++j) acc[i][j] = fmaf(regM[i], regN[j], acc[i][j]);
    }

    if (more) storeShared(smem + (stage ^ 1) * Cfg::kStageFloats);
    __syncthreads();
    stage ^= 1;
  }

  // Split-K: raw sums into this split's slice (1·acc + 0 is exact and reads nothing).
  float* const out = kSplitK ? partial + std::int64_t(blockIdx.y) * m * n : c;
  const float outAlpha = kSplitK ? 1.0f : alpha, outBeta = kSplitK ? 0.0f : beta;
#pragma unroll
  for (int wm = 0; wm < kWmIter; ++wm)
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
      for (int wn = 0; wn < WNITER; ++wn)
#pragma unroll
        for (int j = 0; j < TN; j += 4) {
          const float* v = &acc[wm * TM + i][wn * TN + j];
          detail::storeRow4<E>(out, n, row0 + aOff + wm * kWSubM + i, col0 + bOff + wn * kWSubN + j,
                               m, n, make_float4(v[0], v[1], v[2], v[3]), outAlpha, outBeta);
        }
}

// splits > 1: K is cut into `splits` ranges of kChunk (a multiple of Cfg::BK) and `partial`
// receives splits slices of M·N raw sums (16-byte aligned); the caller reduces them.
template <class Cfg, detail::Edge E, bool kSplitK = false>
void launchWarpTiledKernel(const GemmArgs& g, int splits = 1, int kChunk = 0,
                           float* partial = nullptr) {
  const TileGrid grid = tileGrid(g.shape, Cfg::BM, Cfg::BN);
  const int tilesM = int((g.shape.m + Cfg::BM - 1) / Cfg::BM);
  auto* kernel = &sgemmWarpTiledKernel<Cfg, E, kSplitK>;
  if constexpr (Cfg::kSmemBytes > 48 * 1024) {
    // Above 48 KB a block gets dynamic shared memory only after raising the limit; once per
    // instantiation and device is enough, but the call is cheap and keeps this stateless.
    KWB_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        int(Cfg::kSmemBytes)));
  }
  kernel<<<dim3(grid.blocks, unsigned(kSplitK ? splits : 1)), Cfg::kThreads, Cfg::kSmemBytes,
           g.stream>>>(int(g.shape.m), int(g.shape.n), int(g.shape.k), g.alpha, g.a, g.b, g.beta,
                       g.c, tilesM, grid.tilesN, kSplitK ? kChunk : int(g.shape.k),
                       kSplitK ? partial : nullptr);
  KWB_CHECK_LAUNCH();
}

// True when the float4 paths can take the case: K and N multiples of 4 and the A, B, C bases
// 16-byte aligned (then every row start is), checked rather than assumed.
inline bool warpTiledVectorizable(const GemmArgs& g) {
  auto aligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  return g.shape.n % 4 == 0 && g.shape.k % 4 == 0 && aligned(g.a) && aligned(g.b) && aligned(g.c);
}

// Runs configuration Cfg on the edge path the shape needs. Without the scalar path (tuning
// configurations, to keep the build small) a shape with K or N not a multiple of 4 runs the
// registered default configuration instead, and the result says so.
template <class Cfg, bool WithScalarPath>
LaunchInfo launchWarpTiled(const GemmArgs& g, std::string_view id) {
  const Shape& s = g.shape;
  const bool vec = warpTiledVectorizable(g);
  if (vec && s.m % Cfg::BM == 0 && s.n % Cfg::BN == 0 && s.k % Cfg::BK == 0) {
    launchWarpTiledKernel<Cfg, detail::Edge::kFull>(g);
  } else if (vec) {
    launchWarpTiledKernel<Cfg, detail::Edge::kVec>(g);
  } else if constexpr (WithScalarPath) {
    launchWarpTiledKernel<Cfg, detail::Edge::kScalar>(g);
  } else {
    LaunchInfo ran = launchSgemmWarpTiled(g);
    ran.fallback = true;
    return ran;
  }
  return {false, id};
}

}  // namespace kwb::kernels
