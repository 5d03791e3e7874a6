// Stage 4: sgemm.bank_free with two shared-memory stages. While the block computes on tile t
// in one stage, the global loads of tile t + 1 are already in flight into registers; they are
// written to the other stage after the compute, so global-memory latency hides behind the
// FMAs, and one barrier per tile suffices instead of two.
//
// Why one barrier is enough: iteration t reads stage t&1 and writes stage (t+1)&1. Stage
// (t+1)&1 was last read in iteration t − 1, and every thread passed the barrier ending t − 1
// before anyone writes it in t; the barrier ending t orders those writes before the reads of
// t + 1. Shared layout and thread mapping are sgemm.bank_free's (see there: conflict-free).
#include <cstdint>

#include "kwb/cuda/check.h"
#include "sgemm_kernels.h"
#include "tile_grid.h"

namespace kwb::kernels {
namespace {

template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
    sgemmDoubleBufferKernel(int m, int n, int k, float alpha, const float* __restrict__ a,
                            const float* __restrict__ b, float beta, float* __restrict__ c,
                            int tilesN) {
  constexpr int kRowsT = BM / TM, kColsT = BN / TN;
  constexpr int kThreads = kRowsT * kColsT;
  constexpr int kALoads = BM * BK / kThreads, kBLoads = BK * BN / kThreads;
  static_assert(kThreads % BK == 0 && (BM * BK) % kThreads == 0, "A loads: whole rows per pass");
  static_assert(kThreads % BN == 0 && (BK * BN) % kThreads == 0, "B loads: whole rows per pass");
  static_assert(kRowsT % 4 == 0 && kColsT % 8 == 0 && BK == 32, "warp layout below");

  // 2 × (64·36 + 32·64) floats = 34,816 bytes: below the 48 KiB static limit.
  __shared__ float as[2][BM][BK + 4];  // pitch 36 as in sgemm.bank_free
  __shared__ float bs[2][BK][BN];

  const int tid = int(threadIdx.x);
  const std::int64_t row0 = std::int64_t(blockIdx.x / unsigned(tilesN)) * BM;
  const std::int64_t col0 = std::int64_t(blockIdx.x % unsigned(tilesN)) * BN;
  const int mRem = m - row0 < BM ? int(m - row0) : BM;
  const int nRem = n - col0 < BN ? int(n - col0) : BN;
  const int warp = tid / 32, lane = tid % 32;
  const int tr = (warp / (kColsT / 8)) * 4 + lane / 8;
  const int tc = (warp % (kColsT / 8)) * 8 + lane % 8;
  const int aCol = tid % BK, aRow = tid / BK;
  const int bCol = tid % BN, bRow = tid / BN;
  const float* aBase = a + row0 * k;
  const float* bBase = b + col0;

  // Registers that carry the next tile from global to shared memory.
  float aNext[kALoads], bNext[kBLoads];
  const int numTiles = k / BK + (k % BK != 0);

  // Global → registers: issues the loads of tile t (out-of-range elements are 0).
  auto loadTile = [&](int t) {
    const int kBase = t * BK, kRem = k - kBase;
#pragma unroll
    for (int p = 0; p < kALoads; ++p) {
      const int r = aRow + p * (kThreads / BK);
      aNext[p] = r < mRem && aCol < kRem ? aBase[std::int64_t(r) * k + kBase + aCol] : 0.0f;
    }
#pragma unroll
    for (int p = 0; p < kBLoads; ++p) {
      const int r = bRow + p * (kThreads / BN);
      bNext[p] = r < kRem && bCol < nRem ? bBase[std::int64_t(kBase + r) * n + bCol] : 0.0f;
    }
  };
  // Registers → shared stage s: a warp writes one row, consecutive words (conflict-free).
  auto storeTile = [&](int s) {
#pragma unroll
    for (int p = 0; p < kALoads; ++p) as[s][aRow + p * (kThreads / BK)][aCol] = aNext[p];
#pragma unroll
    for (int p = 0; p < kBLoads; ++p) bs[s][bRow + p * (kThreads / BN)][bCol] = bNext[p];
  };

  loadTile(0);
  storeTile(0);
  __syncthreads();

  float acc[TM][TN] = {};
  for (int t = 0; t < numTiles; ++t) {
    const int cur = t & 1;
    const bool more = t + 1 < numTiles;  // the same for the whole block
    if (more) loadTile(t + 1);           // in flight during the FMAs below
#pragma unroll
    for (int q = 0; q < BK; ++q) {
      float af[TM], bf[TN];
#pragma unroll
      for (int i = 0; i < TM; ++i) af[i] = as[cur][tr + i * kRowsT][q];
#pragma unroll
      for (int j = 0; j < TN; ++j) bf[j] = bs[cur][q][tc + j * kColsT];
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(af[i], bf[j], acc[i][j]);
    }
    if (more) storeTile(cur ^ 1);
    __syncthreads();
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
      // With beta = 0, C is not read (BLAS semantics; it may hold the canary).
      cRow[col] = beta == 0.0f ? alpha * acc[i][j] : fmaf(alpha, acc[i][j], beta * cRow[col]);
    }
  }
}

constexpr int kBm = 64, kBn = 64, kBk = 32, kTm = 4, kTn = 4;

}  // namespace

LaunchInfo launchSgemmDoubleBuffer(const GemmArgs& g) {
  const TileGrid grid = tileGrid(g.shape, kBm, kBn);
  sgemmDoubleBufferKernel<kBm, kBn, kBk, kTm, kTn>
      <<<grid.blocks, (kBm / kTm) * (kBn / kTn), 0, g.stream>>>(int(g.shape.m), int(g.shape.n),
                                                                int(g.shape.k), g.alpha, g.a, g.b,
                                                                g.beta, g.c, grid.tilesN);
  KWB_CHECK_LAUNCH();
  return {false, "sgemm.double_buffer"};
}

KernelDescriptor sgemmDoubleBuffer() {
  KernelDescriptor d;
  d.id = "sgemm.double_buffer";
  d.displayName = "Double-buffered";
  d.family = "sgemm";
  d.stage = 4;
  d.description = "sgemm.bank_free with two shared stages: tile t+1 loads while tile t computes";
  d.launch = &launchSgemmDoubleBuffer;
  return d;
}

}  // namespace kwb::kernels
