// SPDX-License-Identifier: Apache-2.0
#pragma once
// sgemm.wgmma's epilogues (sm_90a): how a consumer warpgroup's accumulators reach C, through
// the TMA unit (beta = 0) or straight from registers (any beta). Included by sgemm_wgmma.cu.
#include <cuda.h>

#include <cstdint>

#include "detail/wgmma_ptx.cuh"  // defines KWB_WGMMA_TARGET

namespace kwb::kernels::wgmma {

// The TMA epilogue stages C through shared memory in boxes of 32 FP32 columns (one 128-byte
// swizzled row each), 16 KB per consumer warpgroup: for tiles up to 128 wide each warp writes its
// own 16 rows (no barrier across the warpgroup), for wider ones the warpgroup writes 64. Measured
// on an H200 against the warpgroup's boxes everywhere (kernels/PERF_NOTES.md): one tile a CTA at
// 768^3-1024^3 2.4-2.8% faster; the wide tiles' persistent grids 0.2-0.4% slower with the warp's
// boxes (four times the stores), hence the width; 3000^3 (128x128 in 2x2 clusters, 4.4 tiles a
// CTA) 1.4% slower. Choosing the boxes at launch by tiles per CTA instead, both kinds in every
// instance, made the one-tile grids 2-4% slower than either. A warp of a 128-row tile stores its
// 16 rows as two boxes of 8 (cuBLAS's height; four buffers a warp): 768^3 and 1024^3 (128x64)
// 2.1-2.3% faster than 16-row boxes; on the 64-row tiles 8 rows were 4-6% slower (256^3, 512^3,
// 1000^3, 256x384x640), so they keep 16.
template <int BN>
constexpr bool kCBoxPerWarp = BN <= 128;
constexpr int kCBoxCols = 32;
template <int BM, int BN>
constexpr int kCBoxRows = !kCBoxPerWarp<BN> ? 64
                          : BM == 128       ? 8
                                            : 16;
constexpr int kCStagingPerConsumer = 2 * 64 * kCBoxCols * 4;  // 16 KB
// Buffers a writer (a warp, or the warpgroup) alternates over: its share of the 16 KB in boxes.
template <int BM, int BN>
constexpr int kCBuffers = kCStagingPerConsumer / (kCBoxPerWarp<BN> ? 4 : 1) /
                          (kCBoxRows<BM, BN> * kCBoxCols * 4);
static_assert(kCBuffers<128, 64> == 4 && kCBuffers<64, 64> == 2 && kCBuffers<128, 256> == 2,
              "at least two buffers a writer");

#if KWB_WGMMA_TARGET
// Accumulator layout of m64nNk16 (per warp the m16n8 C fragment, repeated along N): d[4j + 2h
// + e] is row 16·warp + lane/4 + 8h, column 8j + 2·(lane % 4) + e of the warpgroup's 64 × N.

// Epilogue for beta = 0: alpha·d goes into a 128B-swizzled box in shared memory (16-byte chunk
// c of row r at c ^ (r % 8), the layout mapC is encoded with: a lane quad's 32 bytes land in two
// chunks, the 8 rows of a warp instruction spread over all 32 banks), and the box's first thread
// hands it to the TMA unit. A warp's box needs no barrier across the warpgroup (__syncwarp); a
// warpgroup's, a named barrier. The stores then run while the warpgroup is already on the next
// tile's wgmmas; a buffer is rewritten only after the TMA unit has read it (kCBuffers per writer,
// taken in turn over the boxes of every tile, `box` counting them; wait_group.read kCBuffers - 1
// keeps the newer stores in flight). TMA clips rows ≥ M and columns ≥ N itself. `staging`: the
// consumer warpgroup's kCStagingPerConsumer bytes, 1024-byte aligned.
template <int BM, int BN>
__device__ __forceinline__ void storeTileTma(const float (&d)[BN / 2], const CUtensorMap* mapC,
                                             std::uint32_t staging, int consumer, int row0,
                                             int col0, float alpha, int& box) {
  constexpr bool kPerWarp = kCBoxPerWarp<BN>;
  constexpr int kBoxRows = kCBoxRows<BM, BN>, kBoxBytes = kBoxRows * kCBoxCols * 4;
  constexpr int kBuffers = kCBuffers<BM, BN>;
  constexpr int kRowBoxes = kPerWarp ? 16 / kBoxRows : 1;  // boxes down a writer's rows
  constexpr int kHalves = 2 / kRowBoxes;                   // a thread's row pairs in a box
  const int tid = int(threadIdx.x) % 128, lane = tid % 32, warp = tid / 32;
  const int boxRow = kPerWarp ? 0 : 16 * warp;  // + lane/4 + 8h: the thread's rows in the box
  const bool issuer = kPerWarp ? lane == 0 : tid == 0;
  const std::uint32_t mine = staging + std::uint32_t(kPerWarp ? warp * kBuffers * kBoxBytes : 0);
  const int outerRow = row0 + 64 * consumer + (kPerWarp ? 16 * warp : 0);
  const int byteInChunk = (lane & 1) * 8;  // column 2·(lane % 4) of 4 per 16-byte chunk
  auto syncWriters = [&] {
    if constexpr (kPerWarp)
      __syncwarp();
    else
      namedBarrier(1 + consumer, 128);
  };
#pragma unroll
  for (int q = 0; q < BN / kCBoxCols; ++q) {
#pragma unroll
    for (int rb = 0; rb < kRowBoxes; ++rb, ++box) {
      const std::uint32_t buf = mine + std::uint32_t(unsigned(box) % kBuffers * kBoxBytes);
      if (issuer) bulkWaitRead<kBuffers - 1>();  // the store issued from this buffer before
      syncWriters();
#pragma unroll
      for (int jj = 0; jj < kCBoxCols / 8; ++jj) {
        const int j = q * (kCBoxCols / 8) + jj;
        const int chunk = 2 * jj + (lane % 4) / 2;
#pragma unroll
        for (int hh = 0; hh < kHalves; ++hh) {
          const int h = rb * kHalves + hh, r = boxRow + lane / 4 + 8 * hh;
          storeShared(buf + std::uint32_t(r * 128 + ((chunk ^ (r & 7)) << 4) + byteInChunk),
                      alpha * d[4 * j + 2 * h], alpha * d[4 * j + 2 * h + 1]);
        }
      }
      fenceProxyAsync();
      syncWriters();
      if (issuer) {
        tmaStore2d(mapC, buf, col0 + q * kCBoxCols, outerRow + rb * kBoxRows);
        bulkCommit();
      }
    }
  }
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
