// SPDX-License-Identifier: Apache-2.0
// kwb: entry=sgemm_tiled_user block=256x1 tile=64x64
//
// The built-in stage sgemm.tiled (kernels/sgemm_tiled.cu with kernels/detail/micro_tile.cuh),
// copied into one file and adapted to the bring-your-own contract (docs/BRING_YOUR_OWN.md):
//   kwb run --source resources/examples/sgemm_tiled_user.cu --kernels sgemm.tiled,cublas.sgemm
// should time within noise of sgemm.tiled. The only change is the grid: the contract's 2-D grid
// (x: tiles along N, y: tiles along M) instead of the built-in's 1-D grid in the same tile order.
//
// A block computes a 64x64 tile of C; per step it stages a 64x32 slice of A and a 32x64 slice of
// B in shared memory, and each of its 256 threads accumulates a 4x4 micro-tile in registers.

constexpr int BM = 64, BN = 64, BK = 32, TM = 4, TN = 4;
constexpr int kRowsT = BM / TM, kColsT = BN / TN;  // 16 x 16 threads
constexpr int kThreads = kRowsT * kColsT;

extern "C" __global__ void __launch_bounds__(kThreads)
    sgemm_tiled_user(int m, int n, int k, float alpha, const float* __restrict__ a,
                     const float* __restrict__ b, float beta, float* __restrict__ c) {
  __shared__ float as[BM][BK];
  __shared__ float bs[BK][BN];

  const int tid = int(threadIdx.x);
  // A warp is 4 x 8 threads of the micro-tile grid (see kernels/detail/micro_tile.cuh).
  const int tr = (tid / 32 / (kColsT / 8)) * 4 + tid % 32 / 8;
  const int tc = (tid / 32 % (kColsT / 8)) * 8 + tid % 32 % 8;
  const long long row0 = (long long)blockIdx.y * BM;
  const long long col0 = (long long)blockIdx.x * BN;
  const int mRem = m - row0 < BM ? int(m - row0) : BM;
  const int nRem = n - col0 < BN ? int(n - col0) : BN;
  float acc[TM][TN] = {};

  const int aCol = tid % BK, aRow = tid / BK;
  const int bCol = tid % BN, bRow = tid / BN;
  const float* aTile = a + row0 * k;
  const float* bTile = b + col0;

  const int numTiles = k / BK + (k % BK != 0);
  for (int t = 0; t < numTiles; ++t) {
    const int kRem = k - t * BK;
#pragma unroll
    for (int p = 0; p < BM * BK / kThreads; ++p) {
      const int r = aRow + p * (kThreads / BK);
      as[r][aCol] = r < mRem && aCol < kRem ? aTile[(long long)r * k + aCol] : 0.0f;
    }
#pragma unroll
    for (int p = 0; p < BK * BN / kThreads; ++p) {
      const int r = bRow + p * (kThreads / BN);
      bs[r][bCol] = r < kRem && bCol < nRem ? bTile[(long long)r * n + bCol] : 0.0f;
    }
    __syncthreads();
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
    __syncthreads();
    aTile += BK;
    bTile += (long long)BK * n;
  }
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int r = tr + i * kRowsT;
    if (r >= mRem) continue;
    float* cRow = c + (row0 + r) * n + col0;
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      const int col = tc + j * kColsT;
      if (col >= nRem) continue;
      // With beta = 0, C is not read (it may hold the canary).
      cRow[col] = beta == 0.0f ? alpha * acc[i][j] : fmaf(alpha, acc[i][j], beta * cRow[col]);
    }
  }
}
