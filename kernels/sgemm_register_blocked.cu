// SPDX-License-Identifier: Apache-2.0
// sgemm.register_blocked — stage 6: 2-D block tiling with register blocking and 16-byte loads
// (siboehm's kernel 6), with stage 4's pipelining kept and a smaller tile for small grids.
//
// A block of 256 threads computes a BM×BN tile of C; each thread owns a TM×TN sub-tile held in
// accumulator registers. Per step of the K loop the block stages a BM×BK slice of A and a
// BK×BN slice of B in shared memory; each thread then reads TM values of A and TN values of B
// per k and does TM·TN FMAs with them, so every shared-memory load feeds TM or TN FMAs.
//
// Why A is stored transposed (As[k][m]): the TM values a thread needs for one k are then
// contiguous, LDS.128s instead of strided LDS.32s. Global loads stay row-wise float4
// (coalesced), and the transpose happens on the store into shared memory. The row of As is
// padded by 4 floats: the threads that load the float4s of one A row would otherwise write the
// same bank (BM·4 bytes is a multiple of 128); 4 keeps float4 alignment.
//
// Why the pipeline: stage 4 (double_buffer) overlaps the global loads of the next tile with
// the FMAs of the current one; a later stage without it would expose the global latency once
// per 8-wide k step. Here the next slice is loaded into registers (one float4 of A and one of B
// per thread in the large tile) before the FMAs and stored into the other shared buffer after
// them: one barrier per k step instead of two (see sgemm_warp_tiled.cuh for why one suffices).
//
// Why two tiles: 128×128 with 8×8 per thread gives the most reuse, but at 1024³ it makes 64
// blocks for 132 SMs on an H200, and at 512³ 16: most of the GPU idles, which is why this stage
// lost to double_buffer below 2048³. When the large grid would leave more than a quarter of the
// SMs idle, the launcher takes 64×64 tiles with 4×4 per thread (256 threads, BK = 32): the
// parallelism of double_buffer's grid, with contiguous float4 fragment reads of A and B (2
// LDS.128 per 16 FMAs; double_buffer reads B element-wise: 5 loads per 16 FMAs).
#include <cstdint>
#include <cstdlib>
#include <string>

#include "detail/gemm_tile_io.cuh"
#include "detail/multiprocessors.h"
#include "kwb/cuda/check.h"
#include "descriptors.h"
#include "tile_grid.h"

namespace kwb::kernels {

namespace {

using detail::Edge;

// MinBlocks caps the registers so that enough blocks fit on an SM: 2 for the 128×128 tile
// (≤ 128 registers), 3 for the 64×64 one (≤ 80; its grid is below 4 blocks per SM by
// construction, so more would buy nothing). The 128×128 tile's element-wise edge path needs
// 135 registers and spilled at 128: it runs 1 block per SM instead (MinBlocksScalar).
template <int BM_, int BN_, int BK_, int TM_, int TN_, int MinBlocks_, int MinBlocksScalar_>
struct RbTile {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, TM = TM_, TN = TN_;
  static constexpr int kMinBlocks = MinBlocks_, kMinBlocksScalar = MinBlocksScalar_;
  static constexpr int kThreads = (BM / TM) * (BN / TN);
};

template <class T, Edge E>
__global__ void __launch_bounds__(T::kThreads,
                                  E == Edge::kScalar ? T::kMinBlocksScalar : T::kMinBlocks)
    sgemmRegisterBlockedKernel(int m, int n, int k, float alpha, const float* __restrict__ a,
                               const float* __restrict__ b, float beta, float* __restrict__ c,
                               int tilesN) {
  constexpr int BM = T::BM, BN = T::BN, BK = T::BK, TM = T::TM, TN = T::TN;
  constexpr int kThreads = T::kThreads;
  constexpr int kAStride = kThreads * 4 / BK;  // rows of A one pass of the block loads
  constexpr int kBStride = kThreads / (BN / 4);
  constexpr int kALoads = BM / kAStride, kBLoads = BK / kBStride;
  static_assert(BK % 4 == 0 && BN % 4 == 0 && TN % 4 == 0 && TM % 4 == 0);
  static_assert((kThreads * 4) % BK == 0 && BM % kAStride == 0,
                "A tile must split evenly into float4 rows");
  static_assert(kThreads % (BN / 4) == 0 && BK % kBStride == 0,
                "B tile must split evenly into float4 rows");
  // The transposing store of A, conflict-free by an XOR swizzle instead of padding. A warp's
  // loaders hold float4s of kARowsPerWarp consecutive rows of A (m) × BK/4 chunks (k); each
  // writes its 4 values down column m of as rows k..k+3. Unswizzled, the warp's 32 stores to
  // one as row k touch only kARowsPerWarp distinct m (the other threads of that store write
  // rows k + 4j, which with a pitch of BM ≡ 0 mod 32 words fall in the same banks): a
  // 32 / kARowsPerWarp-way conflict (8-way for the 32-deep tiles; padding the pitch to BM + 4
  // only halved it). Stored at column m ^ swizzle(k), with swizzle(k) = (k / 4) · kARowsPerWarp,
  // the chunk j = k / 4 of the warp's rows lands in banks j·kARowsPerWarp + (m mod
  // kARowsPerWarp): 32 distinct banks. The swizzle is a multiple of 4 below 32, so a float4 of
  // 4 consecutive m (what the compute loop reads) stays contiguous, 16-byte aligned and inside
  // its 32-word block.
  constexpr int kARowsPerWarp = 32 / (BK / 4);
  static_assert(kARowsPerWarp % 4 == 0 && BM % 32 == 0 && kAStride % kARowsPerWarp == 0,
                "swizzle: whole float4s within 32-word blocks, warps on aligned row groups");
  auto swz = [](int kRow) { return kRow / 4 * kARowsPerWarp; };
  __shared__ __align__(16) float as[2][BK][BM];
  __shared__ __align__(16) float bs[2][BK][BN];

  const int tid = int(threadIdx.x);
  const int row0 = int(blockIdx.x) / tilesN * BM;
  const int col0 = int(blockIdx.x) % tilesN * BN;

  // Loader roles: each thread copies float4s at fixed (row, col) offsets of the tiles.
  const int aRow = tid / (BK / 4), aCol = tid % (BK / 4) * 4;
  const int bRow = tid / (BN / 4), bCol = tid % (BN / 4) * 4;

  // Compute role: this thread's TM×TN sub-tile of the block tile.
  const int tRow = tid / (BN / TN) * TM;
  const int tCol = tid % (BN / TN) * TN;

  // The next k slice travels global → registers → shared: loaded before the FMAs of the
  // current slice, stored after them.
  float4 ra[kALoads], rb[kBLoads];
  auto loadGlobal = [&](int k0) {
#pragma unroll
    for (int i = 0; i < kALoads; ++i)
      ra[i] = detail::loadRow4<E>(a, k, row0 + aRow + i * kAStride, k0 + aCol, m, k);
#pragma unroll
    for (int i = 0; i < kBLoads; ++i)
      rb[i] = detail::loadRow4<E>(b, n, k0 + bRow + i * kBStride, col0 + bCol, k, n);
  };
  auto storeShared = [&](int s) {
#pragma unroll
    for (int i = 0; i < kALoads; ++i) {
      const int col = (aRow + i * kAStride) ^ swz(aCol);  // swz(aCol + c) == swz(aCol), c < 4
      as[s][aCol + 0][col] = ra[i].x;
      as[s][aCol + 1][col] = ra[i].y;
      as[s][aCol + 2][col] = ra[i].z;
      as[s][aCol + 3][col] = ra[i].w;
    }
#pragma unroll
    for (int i = 0; i < kBLoads; ++i)
      *reinterpret_cast<float4*>(&bs[s][bRow + i * kBStride][bCol]) = rb[i];
  };

  float acc[TM][TN] = {};
  float regM[TM], regN[TN];

  loadGlobal(0);
  storeShared(0);
  __syncthreads();

  const int numTiles = k / BK + (k % BK != 0);  // no k + BK − 1: it could overflow int
  for (int t = 0; t < numTiles; ++t) {
    const int cur = t & 1;
    const bool more = t + 1 < numTiles;  // the same for the whole block
    if (more) loadGlobal((t + 1) * BK);  // in flight during the FMAs below
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
#pragma unroll
      for (int i = 0; i < TM; i += 4)
        *reinterpret_cast<float4*>(&regM[i]) =
            *reinterpret_cast<const float4*>(&as[cur][kk][(tRow + i) ^ swz(kk)]);
#pragma unroll
      for (int j = 0; j < TN; j += 4)
        *reinterpret_cast<float4*>(&regN[j]) =
            *reinterpret_cast<const float4*>(&bs[cur][kk][tCol + j]);
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(regM[i], regN[j], acc[i][j]);
    }
    // Buffer cur ^ 1 was last read in iteration t − 1, which every thread finished before
    // the barrier that ended it; this barrier orders these stores before their reads in t + 1
    // and the reads of cur above before its overwrite in t + 1.
    if (more) storeShared(cur ^ 1);
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

using LargeTile = RbTile<128, 128, 8, 8, 8, 2, 1>;   // 256 threads, 64 accumulators each
using MediumTile = RbTile<64, 64, 32, 4, 4, 3, 3>;   // 256 threads, 16 accumulators each
using SmallTile = RbTile<32, 32, 32, 4, 4, 12, 12>;  // 64 threads, 16 accumulators each

template <class T, Edge E>
void launchWith(const GemmArgs& g) {
  const TileGrid grid = tileGrid(g.shape, T::BM, T::BN);
  sgemmRegisterBlockedKernel<T, E><<<grid.blocks, T::kThreads, 0, g.stream>>>(
      int(g.shape.m), int(g.shape.n), int(g.shape.k), g.alpha, g.a, g.b, g.beta, g.c, grid.tilesN);
  KWB_CHECK_LAUNCH();
}

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

// The float4 paths read A and B and read-modify-write C through 16-byte accesses: every row
// start is 16-byte aligned only when the bases are and K, N are multiples of 4.
template <class T>
void launchTile(const GemmArgs& g) {
  const Shape& s = g.shape;
  const bool vec =
      s.n % 4 == 0 && s.k % 4 == 0 && aligned16(g.a) && aligned16(g.b) && aligned16(g.c);
  if (vec && s.m % T::BM == 0 && s.n % T::BN == 0 && s.k % T::BK == 0)
    launchWith<T, Edge::kFull>(g);
  else if (vec)
    launchWith<T, Edge::kVec>(g);
  else
    launchWith<T, Edge::kScalar>(g);
}

LaunchInfo launch(const GemmArgs& g) {
  // The largest tile whose grid keeps the busiest SM's share of C within a factor 2 of the
  // smallest share (see smallerTilePays): 128×128 from 2048³ up on 132 SMs, 64×64 at 1024³ and
  // 511×513×1025, 32×32 at 512³ and below: the same tile as double_buffer's, or a larger one.
#ifdef KWB_PERF_EXPERIMENT  // measurement builds only: force the tile (large, medium, small)
  if (const char* t = std::getenv("KWB_RB_TILE")) {
    const std::string tile = t;
    if (tile == "large")
      launchTile<LargeTile>(g);
    else if (tile == "medium")
      launchTile<MediumTile>(g);
    else
      launchTile<SmallTile>(g);
    return {false, "sgemm.register_blocked"};
  }
#endif
  const int sms = detail::multiprocessors();
  if (!smallerTilePays(g.shape, LargeTile::BM, LargeTile::BN, sms))
    launchTile<LargeTile>(g);
  else if (!smallerTilePays(g.shape, MediumTile::BM, MediumTile::BN, sms))
    launchTile<MediumTile>(g);
  else
    launchTile<SmallTile>(g);
  // Same kernel, same id on every path: only the tile size and the edge guards differ.
  return {false, "sgemm.register_blocked"};
}

}  // namespace

KernelDescriptor sgemmRegisterBlocked() {
  KernelDescriptor d;
  d.id = "sgemm.register_blocked";
  d.displayName = "Register blocked";
  d.family = "sgemm";
  d.precision = Precision::kFp32;
  d.alignment = 1;  // every shape runs this kernel; only its edge guards change
  d.description =
      "128x128x8 block tile (64x64x32 with 4x4 per thread when 128x128 leaves SMs idle), 8x8 "
      "outputs per thread in registers, float4 loads, A transposed in shared memory, next k "
      "slice prefetched into registers, double-buffered shared memory; K or N not a multiple "
      "of 4 takes element-wise loads";
  d.launch = &launch;
  d.progressionNotes = {
      {.why = "512^3 and below: about two blocks of two warps per SM (32x32 tiles), too few to "
              "hide loads staged through registers (global, registers, shared) where "
              "double_buffer's cp.async copies global to shared directly; measured on an H100 at "
              "512^3: 14.9 against 18.5 TFLOP/s with every tile tried (64x64: 13.2, 128x128: "
              "4.5). From 1024^3 its register reuse wins (32.3 against 30.5)",
       .maxFlops = 2.0 * 512 * 512 * 512}};
  return d;
}

}  // namespace kwb::kernels
