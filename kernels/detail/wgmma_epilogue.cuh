// SPDX-License-Identifier: Apache-2.0
#pragma once
// sgemm.wgmma's epilogues (sm_90a): how a consumer warpgroup's accumulators reach C, through
// the TMA unit (beta = 0) or straight from registers (any beta). Included by sgemm_wgmma.cu.
#include <cuda.h>

#include <cstdint>

#include "detail/wgmma_ptx.cuh"  // defines KWB_WGMMA_TARGET

namespace kwb::kernels::wgmma {

// How a consumer warpgroup's accumulators reach C: from registers (any beta), or for beta = 0
// through the TMA unit in boxes of 32 FP32 columns (one 128-byte swizzled row each) staged in
// shared memory, two buffers per writer, 16 KB per consumer warpgroup either way. Where every CTA
// stores at most one tile, each warp writes its own 16 rows (no barrier across the warpgroup:
// 2.3-2.8% faster at 768^3-1024^3 on an H200); on a persistent grid the warpgroup writes 64, whose
// epilogue overlaps the next tile's wgmmas and issues a quarter of the stores (the warp's boxes
// there: 0.4-1.4% slower at 2048^3-4096^3 and 3000^3).
enum class CStore : int { kRegisters, kWarpgroupBoxes, kWarpBoxes };
constexpr int kCBoxCols = 32;
constexpr int kCStagingPerConsumer = 2 * 64 * kCBoxCols * 4;  // 16 KB
__host__ __device__ constexpr int cBoxRows(CStore s) { return s == CStore::kWarpBoxes ? 16 : 64; }

#if KWB_WGMMA_TARGET
// Accumulator layout of m64nNk16 (per warp the m16n8 C fragment, repeated along N): d[4j + 2h
// + e] is row 16·warp + lane/4 + 8h, column 8j + 2·(lane % 4) + e of the warpgroup's 64 × N.

// Epilogue for beta = 0: alpha·d goes into a 128B-swizzled box in shared memory (16-byte chunk
// c of row r at c ^ (r % 8), the layout mapC is encoded with: a lane quad's 32 bytes land in two
// chunks, the 8 rows of a warp instruction spread over all 32 banks), and the box's first thread
// hands it to the TMA unit. A warp's box needs no barrier across the warpgroup (__syncwarp); a
// warpgroup's, a named barrier. The stores then run while the warpgroup is already on the next
// tile's wgmmas; a buffer is rewritten only after the TMA unit has read it (two per writer,
// alternating over the boxes of every tile, `box` counting them; wait_group.read 1 keeps the
// newest store in flight). TMA clips rows ≥ M and columns ≥ N itself. `staging`: the consumer
// warpgroup's kCStagingPerConsumer bytes, 1024-byte aligned.
template <int BN, bool kPerWarp>
__device__ __forceinline__ void storeBoxes(const float (&d)[BN / 2], const CUtensorMap* mapC,
                                           std::uint32_t staging, int consumer, int row0, int col0,
                                           float alpha, int& box) {
  constexpr int kBoxBytes =
      cBoxRows(kPerWarp ? CStore::kWarpBoxes : CStore::kWarpgroupBoxes) * kCBoxCols * 4;
  const int tid = int(threadIdx.x) % 128, lane = tid % 32, warp = tid / 32;
  const int boxRow = kPerWarp ? 0 : 16 * warp;  // + lane/4 + 8h: the thread's rows in the box
  const bool issuer = kPerWarp ? lane == 0 : tid == 0;
  const std::uint32_t mine = staging + std::uint32_t(kPerWarp ? warp * 2 * kBoxBytes : 0);
  const int outerRow = row0 + 64 * consumer + (kPerWarp ? 16 * warp : 0);
  const int byteInChunk = (lane & 1) * 8;  // column 2·(lane % 4) of 4 per 16-byte chunk
  auto syncWriters = [&] {
    if constexpr (kPerWarp)
      __syncwarp();
    else
      namedBarrier(1 + consumer, 128);
  };
#pragma unroll
  for (int q = 0; q < BN / kCBoxCols; ++q, ++box) {
    const std::uint32_t buf = mine + std::uint32_t((box & 1) * kBoxBytes);
    if (issuer) bulkWaitRead<1>();  // the store issued from this buffer two boxes ago
    syncWriters();
#pragma unroll
    for (int jj = 0; jj < kCBoxCols / 8; ++jj) {
      const int j = q * (kCBoxCols / 8) + jj;
      const int chunk = 2 * jj + (lane % 4) / 2;
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int r = boxRow + lane / 4 + 8 * h;
        storeShared(buf + std::uint32_t(r * 128 + ((chunk ^ (r & 7)) << 4) + byteInChunk),
                    alpha * d[4 * j + 2 * h], alpha * d[4 * j + 2 * h + 1]);
      }
    }
    fenceProxyAsync();
    syncWriters();
    if (issuer) {
      tmaStore2d(mapC, buf, col0 + q * kCBoxCols, outerRow);
      bulkCommit();
    }
  }
}
template <int BN>
__device__ __forceinline__ void storeTileTma(const float (&d)[BN / 2], const CUtensorMap* mapC,
                                             CStore how, std::uint32_t staging, int consumer,
                                             int row0, int col0, float alpha, int& box) {
  if (how == CStore::kWarpBoxes)
    storeBoxes<BN, true>(d, mapC, staging, consumer, row0, col0, alpha, box);
  else
    storeBoxes<BN, false>(d, mapC, staging, consumer, row0, col0, alpha, box);
}

// Epilogue straight from registers: any beta (C is read only when beta != 0: BLAS lets C hold
// NaN when beta == 0), rows and columns guarded. With N even a thread's column pair is wholly
// inside or outside and is one 8-byte store (a lane quad writes one 32-byte sector); with N odd
// (re-laid operands) the rows are not 8-byte aligned and each column is stored alone.
template <int BN>
__device__ __forceinline__ void storeTileDirect(const float (&d)[BN / 2], float* c, int m, int n,
                                                int consumer, int row0, int col0, float alpha,
                                                float beta) {
  const int tid = int(threadIdx.x) % 128, lane = tid % 32;
  const int rowBase = row0 + consumer * 64 + (tid / 32) * 16 + lane / 4;
  const int colBase = col0 + 2 * (lane % 4);
#pragma unroll
  for (int j = 0; j < BN / 8; ++j) {
    const int col = colBase + 8 * j;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int row = rowBase + 8 * h;
      if (row >= m || col >= n) continue;
      float* p = c + std::int64_t(row) * n + col;
      const float x = alpha * d[4 * j + 2 * h], y = alpha * d[4 * j + 2 * h + 1];
      if (n % 2 != 0) {  // odd N: rows are not 8-byte aligned, one column at a time
        p[0] = beta != 0.f ? fmaf(beta, p[0], x) : x;
        if (col + 1 < n) p[1] = beta != 0.f ? fmaf(beta, p[1], y) : y;
        continue;
      }
      float2* q = reinterpret_cast<float2*>(p);
      float2 v = make_float2(x, y);
      if (beta != 0.f) {
        const float2 old = *q;
        v.x = fmaf(beta, old.x, v.x);
        v.y = fmaf(beta, old.y, v.y);
      }
      *q = v;
    }
  }
}
#endif

}  // namespace kwb::kernels::wgmma
