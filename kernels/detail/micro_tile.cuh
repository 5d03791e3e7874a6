// SPDX-License-Identifier: Apache-2.0
#pragma once
// The register micro-tile shared by the 64×64 and 32×32 teaching stages (tiled, bank_free,
// double_buffer): the thread layout, the inner product over one shared-memory tile, and the
// guarded alpha/beta store. One definition, so those stages differ only in what they teach.
#include <cstdint>

namespace kwb::kernels::detail {

template <int BM, int BN, int TM, int TN>
struct MicroTile {
  static constexpr int kRowsT = BM / TM, kColsT = BN / TN;  // threads down / across: 16 × 16
  static constexpr int kThreads = kRowsT * kColsT;
  static_assert(kRowsT % 4 == 0 && kColsT % 8 == 0, "warp layout below");

  // A warp is 4 × 8 threads of the micro-tile grid: 4 rows of A and 8 columns of B per k, 48
  // distinct words, fewer than the 2 × 16 layout's 72. A thread's rows and columns are spread
  // (tr + i·kRowsT, tc + j·kColsT) so the 8 threads of a warp row read and write consecutive
  // columns: conflict-free B loads and 32-byte store segments for C.
  __device__ explicit MicroTile(int tid)
      : tr((tid / 32 / (kColsT / 8)) * 4 + tid % 32 / 8),
        tc((tid / 32 % (kColsT / 8)) * 8 + tid % 32 % 8) {}

  // acc += as[rows][0..BK) · bs[0..BK)[cols] for this thread's rows and columns.
  template <int BK, int APitch, int BRows>
  __device__ __forceinline__ void accumulate(const float (&as)[BM][APitch],
                                             const float (&bs)[BRows][BN]) {
#pragma unroll
    for (int q = 0; q < BK; ++q) {
      float af[TM], bf[TN];
#pragma unroll
      for (int i = 0; i < TM; ++i) af[i] = as[tr + i * kRowsT][q];
#pragma unroll
      for (int j = 0; j < TN; ++j) bf[j] = bs[q][tc + j * kColsT];
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(af[i], bf[j], acc[i][j]);
    }
  }

  // The same inner product over tiles whose rows sit at an offset of 0..3 floats in shared
  // memory (sgemm.double_buffer's 16-byte path for rows that do not start 16-byte aligned):
  // element (r, q) of A at as[r][q + aShift[i]] for this thread's row i, element (q, col) of B at
  // bs[q][col + bShift[q % 4]] (a row's offset depends on its k index mod 4 only). The offsets
  // are runtime values, so A is read one float at a time instead of as[r][q..q+3] at once.
  template <int BK, int APitch, int BRows, int BPitch>
  __device__ __forceinline__ void accumulateShifted(const float (&as)[BM][APitch],
                                                    const float (&bs)[BRows][BPitch],
                                                    const int (&aShift)[TM],
                                                    const int (&bShift)[4]) {
    const float* aRow[TM];
#pragma unroll
    for (int i = 0; i < TM; ++i) aRow[i] = &as[tr + i * kRowsT][aShift[i]];
#pragma unroll
    for (int q = 0; q < BK; ++q) {
      float af[TM], bf[TN];
      const float* bRow = &bs[q][tc + bShift[q % 4]];
#pragma unroll
      for (int i = 0; i < TM; ++i) af[i] = aRow[i][q];
#pragma unroll
      for (int j = 0; j < TN; ++j) bf[j] = bRow[j * kColsT];
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(af[i], bf[j], acc[i][j]);
    }
  }

  // C[row0 + r][col0 + col] = alpha·acc + beta·C for the rows and columns inside the matrix.
  __device__ __forceinline__ void store(float* c, int n, std::int64_t row0, std::int64_t col0,
                                        int mRem, int nRem, float alpha, float beta) const {
#pragma unroll
    for (int i = 0; i < TM; ++i) {
      const int r = tr + i * kRowsT;
      if (r >= mRem) continue;
      float* cRow = c + (row0 + r) * n + col0;
#pragma unroll
      for (int j = 0; j < TN; ++j) {
        const int col = tc + j * kColsT;
        if (col >= nRem) continue;
        // With beta = 0, C is not read (BLAS semantics; it may hold the canary).
        cRow[col] = beta == 0.0f ? alpha * acc[i][j] : fmaf(alpha, acc[i][j], beta * cRow[col]);
      }
    }
  }

  const int tr, tc;
  float acc[TM][TN] = {};
};

// The body of sgemm.tiled and sgemm.bank_free, which differ only in A's shared row pitch:
// BK + APad floats. Each kernel is a __global__ wrapper of its own, so profilers name them apart.
template <int BM, int BN, int BK, int TM, int TN, int APad>
__device__ __forceinline__ void tiledGemm(int m, int n, int k, float alpha,
                                          const float* __restrict__ a, const float* __restrict__ b,
                                          float beta, float* __restrict__ c, int tilesN) {
  using Tile = MicroTile<BM, BN, TM, TN>;
  constexpr int kThreads = Tile::kThreads;
  static_assert(kThreads % BK == 0 && (BM * BK) % kThreads == 0, "A loads: whole rows per pass");
  static_assert(kThreads % BN == 0 && (BK * BN) % kThreads == 0, "B loads: whole rows per pass");
  static_assert(BK == 32, "the bank arithmetic of the stage comments assumes 32-float rows");

  __shared__ float as[BM][BK + APad];
  __shared__ float bs[BK][BN];

  const int tid = int(threadIdx.x);
  const std::int64_t row0 = std::int64_t(blockIdx.x / unsigned(tilesN)) * BM;
  const std::int64_t col0 = std::int64_t(blockIdx.x % unsigned(tilesN)) * BN;
  const int mRem = m - row0 < BM ? int(m - row0) : BM;  // valid rows / columns of this tile
  const int nRem = n - col0 < BN ? int(n - col0) : BN;
  Tile tile(tid);

  // Global → shared: a warp copies 32 consecutive floats of one row (a 128-byte line) and
  // writes them to consecutive shared words; out-of-range elements become 0, so partial
  // tiles need no special case in the compute loop.
  const int aCol = tid % BK, aRow = tid / BK;
  const int bCol = tid % BN, bRow = tid / BN;
  const float* aTile = a + row0 * k;
  const float* bTile = b + col0;

  const int numTiles = k / BK + (k % BK != 0);  // no k + BK − 1: it could overflow int
  for (int t = 0; t < numTiles; ++t) {
    const int kRem = k - t * BK;
#pragma unroll
    for (int p = 0; p < BM * BK / kThreads; ++p) {
      const int r = aRow + p * (kThreads / BK);
      as[r][aCol] = r < mRem && aCol < kRem ? aTile[std::int64_t(r) * k + aCol] : 0.0f;
    }
#pragma unroll
    for (int p = 0; p < BK * BN / kThreads; ++p) {
      const int r = bRow + p * (kThreads / BN);
      bs[r][bCol] = r < kRem && bCol < nRem ? bTile[std::int64_t(r) * n + bCol] : 0.0f;
    }
    __syncthreads();  // the tile is complete before anyone reads it
    tile.template accumulate<BK>(as, bs);
    __syncthreads();  // everyone is done reading before the next tile overwrites it
    aTile += BK;
    bTile += std::int64_t(BK) * n;
  }
  tile.store(c, n, row0, col0, mRem, nRem, alpha, beta);
}

}  // namespace kwb::kernels::detail
