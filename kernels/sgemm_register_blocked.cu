// sgemm.register_blocked — stage 6: 2-D block tiling with register blocking and 16-byte loads
// (siboehm's kernel 6).
//
// A block of 256 threads computes a BM×BN = 128×128 tile of C; each thread owns a TM×TN = 8×8
// sub-tile held in 64 accumulator registers. Per step of the K loop the block stages a
// BM×BK slice of A and a BK×BN slice of B in shared memory; each thread then reads TM values
// of A and TN values of B per k and does TM·TN FMAs with them, so every shared-memory load
// feeds 8 FMAs instead of 1 (stage 3 and 4 do one load per FMA).
//
// Why A is stored transposed (As[k][m]): the TM values a thread needs for one k are then
// contiguous, two LDS.128 instead of eight strided LDS.32. Global loads stay row-wise float4
// (coalesced), and the transpose happens on the store into shared memory. The row of As is
// padded by 4 floats: the two threads that load the two float4 halves of one A row would
// otherwise write the same bank (BM·4 bytes is a multiple of 128); 4 keeps float4 alignment.
#include "detail/gemm_tile_io.cuh"
#include "kwb/cuda/check.h"
#include "perf_kernels.h"
#include "tile_grid.h"

namespace kwb::kernels {

namespace {

using detail::Edge;

template <int BM, int BN, int BK, int TM, int TN, Edge E>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
    sgemmRegisterBlockedKernel(int m, int n, int k, float alpha, const float* __restrict__ a,
                               const float* __restrict__ b, float beta, float* __restrict__ c,
                               int tilesN) {
  constexpr int kThreads = (BM / TM) * (BN / TN);
  constexpr int kPadA = 4;
  static_assert(BK % 4 == 0 && BN % 4 == 0 && TN % 4 == 0 && TM % 4 == 0);
  static_assert((kThreads * 4) % BK == 0 && BM % (kThreads * 4 / BK) == 0,
                "A tile must split evenly into float4 rows");
  static_assert(kThreads % (BN / 4) == 0 && BK % (kThreads / (BN / 4)) == 0,
                "B tile must split evenly into float4 rows");
  __shared__ __align__(16) float as[BK][BM + kPadA];
  __shared__ __align__(16) float bs[BK][BN];

  const int tid = int(threadIdx.x);
  const int row0 = int(blockIdx.x) / tilesN * BM;
  const int col0 = int(blockIdx.x) % tilesN * BN;

  // Loader roles: each thread copies float4s at fixed (row, col) offsets of the tiles.
  const int aRow = tid / (BK / 4), aCol = tid % (BK / 4) * 4;
  constexpr int kAStride = kThreads * 4 / BK;
  const int bRow = tid / (BN / 4), bCol = tid % (BN / 4) * 4;
  constexpr int kBStride = kThreads / (BN / 4);

  // Compute role: this thread's TM×TN sub-tile of the block tile.
  const int tRow = tid / (BN / TN) * TM;
  const int tCol = tid % (BN / TN) * TN;

  float acc[TM][TN] = {};
  float regM[TM], regN[TN];

  for (int k0 = 0; k0 < k; k0 += BK) {
#pragma unroll
    for (int r = 0; r < BM; r += kAStride) {
      const float4 v = detail::loadRow4<E>(a, k, row0 + aRow + r, k0 + aCol, m, k);
      as[aCol + 0][aRow + r] = v.x;
      as[aCol + 1][aRow + r] = v.y;
      as[aCol + 2][aRow + r] = v.z;
      as[aCol + 3][aRow + r] = v.w;
    }
#pragma unroll
    for (int r = 0; r < BK; r += kBStride) {
      *reinterpret_cast<float4*>(&bs[bRow + r][bCol]) =
          detail::loadRow4<E>(b, n, k0 + bRow + r, col0 + bCol, k, n);
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
#pragma unroll
      for (int i = 0; i < TM; i += 4)
        *reinterpret_cast<float4*>(&regM[i]) = *reinterpret_cast<const float4*>(&as[kk][tRow + i]);
#pragma unroll
      for (int j = 0; j < TN; j += 4)
        *reinterpret_cast<float4*>(&regN[j]) = *reinterpret_cast<const float4*>(&bs[kk][tCol + j]);
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(regM[i], regN[j], acc[i][j]);
    }
    // The next iteration overwrites the tiles every thread is still reading.
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; j += 4)
      detail::storeRow4<E>(c, n, row0 + tRow + i, col0 + tCol + j, m, n,
                           make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]),
                           alpha, beta);
}

constexpr int kBm = 128, kBn = 128, kBk = 8, kTm = 8, kTn = 8;

template <Edge E>
void launchWith(const GemmArgs& g) {
  const TileGrid grid = tileGrid(g.shape, kBm, kBn);
  sgemmRegisterBlockedKernel<kBm, kBn, kBk, kTm, kTn, E>
      <<<grid.blocks, (kBm / kTm) * (kBn / kTn), 0, g.stream>>>(int(g.shape.m), int(g.shape.n),
                                                                int(g.shape.k), g.alpha, g.a, g.b,
                                                                g.beta, g.c, grid.tilesN);
  KWB_CHECK_LAUNCH();
}

LaunchInfo launch(const GemmArgs& g) {
  const Shape& s = g.shape;
  if (s.m % kBm == 0 && s.n % kBn == 0 && s.k % kBk == 0)
    launchWith<Edge::kFull>(g);
  else if (s.n % 4 == 0 && s.k % 4 == 0)
    launchWith<Edge::kVec>(g);
  else
    launchWith<Edge::kScalar>(g);
  // Same kernel, same tiling on every path: only the edge guards differ.
  return {false, "sgemm.register_blocked"};
}

}  // namespace

KernelDescriptor sgemmRegisterBlocked() {
  KernelDescriptor d;
  d.id = "sgemm.register_blocked";
  d.displayName = "Register blocked";
  d.family = "sgemm";
  d.stage = 6;
  d.precision = Precision::kFp32;
  d.alignment = 1;  // every shape runs this kernel; only its edge guards change
  d.description =
      "128x128x8 block tile, 8x8 outputs per thread in registers, float4 loads, A transposed "
      "in shared memory; K or N not a multiple of 4 takes element-wise loads";
  d.launch = &launch;
  return d;
}

}  // namespace kwb::kernels
