// SPDX-License-Identifier: Apache-2.0
// Stage 5: tensor cores through WMMA (16×16×16 fragments), FP16 inputs, FP32 accumulation.
// A block of 4 warps computes a 64×64 tile of C; each warp a 32×32 sub-tile as 2×2
// accumulator fragments, so every A and B fragment loaded feeds two MMAs. Small shapes take a
// 32×32 block tile (four 16×16 warp tiles) so that the grid covers the SMs.
//
// WMMA has no partial fragments, so this path only runs when M, N and K are multiples of 16;
// any other shape runs sgemm.double_buffer (FP32) and the result says so (fallback).
// With that guarantee every 16-row or 16-column fragment is entirely inside or outside C, and
// every 8-half vector load is inside or outside A and B, which is what the bounds tests use.
#include <cuda_fp16.h>
#include <mma.h>

#include <cstdint>
#include <stdexcept>

#include "detail/multiprocessors.h"
#include "kwb/cuda/check.h"
#include "descriptors.h"
#include "tile_grid.h"

namespace kwb::kernels {
namespace {

using namespace nvcuda;

template <int BM, int BN, int BK, int WM, int WN>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32)
    sgemmTensorCoreKernel(int m, int n, int k, float alpha, const __half* __restrict__ a,
                          const __half* __restrict__ b, float beta, float* __restrict__ c,
                          int tilesN) {
  constexpr int kWarpsN = BN / WN;
  constexpr int kThreads = (BM / WM) * kWarpsN * 32;
  constexpr int kFragM = WM / 16, kFragN = WN / 16;
  // Pad rows by 8 halves (16 bytes): ldm stays a multiple of 8 halves as WMMA requires, every
  // row start stays 16-byte aligned for the vector stores, and the 8 rows one fragment load
  // touches start 80 (A) or 144 (B) bytes apart, i.e. in 8 different 16-byte bank groups.
  constexpr int kPad = 8;
  __shared__ __align__(128) __half as[BM][BK + kPad];
  __shared__ __align__(128) __half bs[BK][BN + kPad];
  static_assert(BK % 16 == 0 && WM % 16 == 0 && WN % 16 == 0, "whole fragments");
  static_assert(((BK + kPad) * 2 * 16) % 32 == 0 && ((BN + kPad) * 2 * 16) % 32 == 0,
                "fragment pointers must be 32-byte aligned");

  const int tid = int(threadIdx.x), warp = tid / 32;
  const int wm = warp / kWarpsN, wn = warp % kWarpsN;
  const std::int64_t row0 = std::int64_t(blockIdx.x / unsigned(tilesN)) * BM;
  const std::int64_t col0 = std::int64_t(blockIdx.x % unsigned(tilesN)) * BN;
  const int mRem = m - row0 < BM ? int(m - row0) : BM;  // multiples of 16
  const int nRem = n - col0 < BN ? int(n - col0) : BN;

  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[kFragM][kFragN];
#pragma unroll
  for (int i = 0; i < kFragM; ++i)
#pragma unroll
    for (int j = 0; j < kFragN; ++j) wmma::fill_fragment(acc[i][j], 0.0f);

  const int numTiles = k / BK + (k % BK != 0);
  for (int t = 0; t < numTiles; ++t) {
    const int kBase = t * BK, kRem = k - kBase;  // kRem: a multiple of 16
    // 16-byte vectors of 8 halves; consecutive threads take consecutive vectors of a row
    // (coalesced). Aligned: K, N, kBase, col0 and the vector offset are multiples of 8.
    for (int v = tid; v < BM * BK / 8; v += kThreads) {
      const int r = v / (BK / 8), cv = (v % (BK / 8)) * 8;
      uint4 val = make_uint4(0, 0, 0, 0);
      if (r < mRem && cv < kRem)
        val = *reinterpret_cast<const uint4*>(a + (row0 + r) * k + kBase + cv);
      *reinterpret_cast<uint4*>(&as[r][cv]) = val;
    }
    for (int v = tid; v < BK * BN / 8; v += kThreads) {
      const int r = v / (BN / 8), cv = (v % (BN / 8)) * 8;
      uint4 val = make_uint4(0, 0, 0, 0);
      if (r < kRem && cv < nRem)
        val = *reinterpret_cast<const uint4*>(b + std::int64_t(kBase + r) * n + col0 + cv);
      *reinterpret_cast<uint4*>(&bs[r][cv]) = val;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> af[kFragM];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> bf[kFragN];
#pragma unroll
      for (int i = 0; i < kFragM; ++i)
        wmma::load_matrix_sync(af[i], &as[wm * WM + i * 16][kk], BK + kPad);
#pragma unroll
      for (int j = 0; j < kFragN; ++j)
        wmma::load_matrix_sync(bf[j], &bs[kk][wn * WN + j * 16], BN + kPad);
#pragma unroll
      for (int i = 0; i < kFragM; ++i)
#pragma unroll
        for (int j = 0; j < kFragN; ++j) wmma::mma_sync(acc[i][j], af[i], bf[j], acc[i][j]);
    }
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < kFragM; ++i)
#pragma unroll
    for (int j = 0; j < kFragN; ++j) {
      const int r = wm * WM + i * 16, col = wn * WN + j * 16;
      if (r >= mRem || col >= nRem) continue;  // the same for the whole warp
      float* cp = c + (row0 + r) * n + col0 + col;
      // Accumulator fragments of one shape share their element-to-(row, col) mapping, so
      // alpha·acc + beta·C can be formed element by element. C is not read when beta = 0.
      if (beta != 0.0f) {
        wmma::fragment<wmma::accumulator, 16, 16, 16, float> cf;
        wmma::load_matrix_sync(cf, cp, unsigned(n), wmma::mem_row_major);
        for (int e = 0; e < cf.num_elements; ++e)
          acc[i][j].x[e] = fmaf(alpha, acc[i][j].x[e], beta * cf.x[e]);
      } else {
        for (int e = 0; e < acc[i][j].num_elements; ++e) acc[i][j].x[e] *= alpha;
      }
      wmma::store_matrix_sync(cp, acc[i][j], unsigned(n), wmma::mem_row_major);
    }
}

// 64×64 block tiles of four 32×32 warp tiles where that grid fills the GPU; 32×32 block
// tiles of four 16×16 warp tiles (a quarter of the outputs per block, four times the blocks)
// where it would leave SMs idle (smallerTilePays: 512³ and below on 132 SMs), as the FP32
// stages before it do.
template <int BM, int BN, int WM, int WN>
void launchWith(const GemmArgs& g) {
  constexpr int kBk = 32;
  const TileGrid grid = tileGrid(g.shape, BM, BN);
  sgemmTensorCoreKernel<BM, BN, kBk, WM, WN>
      <<<grid.blocks, (BM / WM) * (BN / WN) * 32, 0, g.stream>>>(
          int(g.shape.m), int(g.shape.n), int(g.shape.k), g.alpha,
          static_cast<const __half*>(g.aHalf), static_cast<const __half*>(g.bHalf), g.beta, g.c,
          grid.tilesN);
  KWB_CHECK_LAUNCH();
}

LaunchInfo launch(const GemmArgs& g) {
  if (!g.shape.multipleOf(16)) {
    launchSgemmDoubleBuffer(g);
    return {true, "sgemm.double_buffer"};
  }
  if (!g.aHalf || !g.bHalf)
    throw std::invalid_argument("sgemm.tensor_core needs the FP16 copies of A and B");
  if (smallerTilePays(g.shape, 64, 64, detail::multiprocessors()))
    launchWith<32, 32, 16, 16>(g);
  else
    launchWith<64, 64, 32, 32>(g);
  return {false, "sgemm.tensor_core"};
}

}  // namespace

KernelDescriptor sgemmTensorCore() {
  KernelDescriptor d;
  d.id = "sgemm.tensor_core";
  d.typicalFlopsPerS = 75e12;  // 72-81 TFLOP/s on an H200 at 4096³-8192³ (WMMA, no pipeline)
  d.displayName = "Tensor core (WMMA)";
  d.family = "sgemm";
  d.precision = Precision::kFp16Fp32Acc;
  d.alignment = 16;
  d.description =
      "WMMA 16x16x16, FP16 in, FP32 accumulate, 64x64 block tile (32x32 where 64x64 leaves "
      "SMs idle); shapes not a multiple of 16 run sgemm.double_buffer";
  d.launch = &launch;
  return d;
}

}  // namespace kwb::kernels
