// SPDX-License-Identifier: Apache-2.0
#pragma once
// sgemm.mma_multistage — stage 8: FP16 in, FP32 accumulate on the tensor cores through
// mma.sync.m16n8k16, fragments loaded with ldmatrix, tiles brought in by a STAGES-deep
// cp.async pipeline (the CUTLASS sm80 "multistage" design). The kernel is templated on the
// element type E: sgemm.mma_multistage_bf16 runs it with BF16 inputs (mma's .bf16 form; the
// tiles, swizzle and fragments are those of any 16-bit type).
//
// Shared memory per stage: A tile BM×BK and B tile BK×BN, both row-major as in global memory,
// in 16-byte chunks (8 halves) whose position within a row is XOR-swizzled with the row index.
// Why: ldmatrix reads 8 rows × 16 bytes per 8×8 matrix; with rows 64, 128 or 512 bytes apart
// the 8 rows of one chunk column would sit in the same 4 banks (8-way conflict). The swizzle
// makes the 8 chunks of one matrix fall in 8 distinct 16-byte bank groups, for ldmatrix reads
// and for the cp.async writes alike, with no padding.
//
// Fragments: A (row-major, m16×k16) comes from ldmatrix.x4: lanes 0–15 address rows 0–15 at
// k 0–7, lanes 16–31 the same rows at k 8–15, which yields a0..a3 in mma's order. B is
// row-major K×N in shared memory while mma wants it "col" (k fastest per thread), so it is
// loaded with ldmatrix.x4.trans: lanes 0–15 address k rows 0–15 at n 0–7, lanes 16–31 at
// n 8–15, which yields {b0, b1} of two adjacent n8 tiles.
//
// Pipeline: STAGES−1 tiles are requested before the loop; iteration t waits until tile t has
// landed (cp.async.wait_group STAGES−2; a group is committed every iteration, empty or not,
// so the count stays exact at the tail), then a barrier, then it requests tile t+STAGES−1
// into the stage tile t−1 used (the barrier proves every warp is done with it) and computes
// tile t. Edges: cp.async with src-size 0 zero-fills a chunk outside the matrix, so partial
// tiles need K and N to be multiples of 8 (a chunk is wholly in or out, and 16-byte aligned)
// but no other guard; the launcher sends other shapes to the FP32 warp-tiled stage.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <type_traits>

#include "detail/element16.h"
#include "detail/gemm_tile_io.cuh"
#include "kwb/cuda/check.h"
#include "kwb/kernel_descriptor.h"
#include "descriptors.h"
#include "tile_grid.h"

namespace kwb::kernels {

template <int BM_, int BN_, int BK_, int WM_, int WN_, int STAGES_>
struct MmaConfig {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_, STAGES = STAGES_;
  static constexpr int kThreads = (BM / WM) * (BN / WN) * 32;
  static constexpr int kMTiles = WM / 16;  // m16 tiles per warp
  static constexpr int kNTiles = WN / 8;   // n8 tiles per warp
  static constexpr int kAChunksPerRow = BK / 8;
  static constexpr int kBChunksPerRow = BN / 8;
  static constexpr int kAStageBytes = BM * BK * 2;
  static constexpr int kStageBytes = kAStageBytes + BK * BN * 2;
  static constexpr std::size_t kSmemBytes = std::size_t(STAGES) * kStageBytes;
  static constexpr int kAChunks = BM * kAChunksPerRow / kThreads;  // per thread per stage
  static constexpr int kBChunks = BK * kBChunksPerRow / kThreads;

  static_assert(BM % WM == 0 && BN % WN == 0 && WM % 16 == 0 && WN % 16 == 0);
  static_assert(BK == 32 || BK == 64, "the A swizzle is written for 64- and 128-byte rows");
  static_assert(BN >= 64, "the B swizzle needs at least 8 chunks per row");
  static_assert(STAGES >= 2);
  static_assert((BM * kAChunksPerRow) % kThreads == 0 && (BK * kBChunksPerRow) % kThreads == 0,
                "cp.async chunks split evenly over the threads");
};

namespace mma_detail {

// Byte offset of 16-byte chunk `chunk` of row `row` in a row-major tile of C chunks per row.
template <int C>
__device__ __forceinline__ std::uint32_t swizzled(int row, int chunk) {
  if constexpr (C >= 8) {
    // Rows of 128 bytes or more: flip the low 3 chunk bits with row % 8.
    return std::uint32_t(row * C + (chunk ^ (row & 7))) * 16u;
  } else {
    static_assert(C == 4, "64-byte rows");
    // Two 64-byte rows share a 128-byte bank line: rows 2j and 2j+1 take halves 0 and 1,
    // and the chunk inside the half is flipped with j % 4.
    return std::uint32_t(row * C + (chunk ^ ((row >> 1) & 3))) * 16u;
  }
}

__device__ __forceinline__ void cpAsync16(std::uint32_t dst, const void* src, bool valid) {
  // src-size 0 reads nothing and fills the 16 bytes with zeros.
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src),
               "r"(valid ? 16 : 0)
               : "memory");
}
__device__ __forceinline__ void cpAsyncCommit() {
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}
template <int N>
__device__ __forceinline__ void cpAsyncWait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}
__device__ __forceinline__ void ldmatrixX4(std::uint32_t (&r)[4], std::uint32_t addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}
__device__ __forceinline__ void ldmatrixX4Trans(std::uint32_t (&r)[4], std::uint32_t addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}
template <class E>
__device__ __forceinline__ void mma16816(float (&d)[4], const std::uint32_t (&a)[4],
                                         std::uint32_t b0, std::uint32_t b1) {
  if constexpr (std::is_same_v<E, __nv_bfloat16>)
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
        "{%8, %9}, {%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
  else
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
        "{%8, %9}, {%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

}  // namespace mma_detail

// Requires K % 8 == 0 and N % 8 == 0 (the launcher checks); any M. E: __half or __nv_bfloat16.
template <class Cfg, class E>
__global__ void __launch_bounds__(Cfg::kThreads)
    hgemmMmaMultistageKernel(int m, int n, int k, float alpha, const E* __restrict__ a,
                             const E* __restrict__ b, float beta, float* __restrict__ c, int tilesM,
                             int tilesN) {
  using namespace mma_detail;
  constexpr int BM = Cfg::BM, BN = Cfg::BN, BK = Cfg::BK, WM = Cfg::WM, WN = Cfg::WN;
  constexpr int STAGES = Cfg::STAGES, CA = Cfg::kAChunksPerRow, CB = Cfg::kBChunksPerRow;
  extern __shared__ __align__(128) unsigned char smem[];
  const std::uint32_t smemBase = std::uint32_t(__cvta_generic_to_shared(smem));

  const int tid = int(threadIdx.x);
  const detail::TileCoord tile = detail::groupedTile(blockIdx.x, tilesM, tilesN, 8);
  const int row0 = tile.tileRow * BM;
  const int col0 = tile.tileCol * BN;
  const int warp = tid / 32, lane = tid % 32;
  const int warpRow = warp / (BN / WN), warpCol = warp % (BN / WN);

  auto loadStage = [&](int stage, int kTile) {
    const int k0 = kTile * BK;
    const std::uint32_t sA = smemBase + std::uint32_t(stage * Cfg::kStageBytes);
    const std::uint32_t sB = sA + std::uint32_t(Cfg::kAStageBytes);
#pragma unroll
    for (int j = 0; j < Cfg::kAChunks; ++j) {
      const int i = tid + j * Cfg::kThreads;
      const int r = i / CA, ch = i % CA;
      const int gRow = row0 + r, gCol = k0 + ch * 8;
      const bool valid = gRow < m && gCol < k;
      // Out of range: a valid address all the same, though src-size 0 reads nothing.
      const E* src = valid ? a + std::int64_t(gRow) * k + gCol : a;
      cpAsync16(sA + swizzled<CA>(r, ch), src, valid);
    }
#pragma unroll
    for (int j = 0; j < Cfg::kBChunks; ++j) {
      const int i = tid + j * Cfg::kThreads;
      const int r = i / CB, ch = i % CB;
      const int gRow = k0 + r, gCol = col0 + ch * 8;
      const bool valid = gRow < k && gCol < n;
      const E* src = valid ? b + std::int64_t(gRow) * n + gCol : b;
      cpAsync16(sB + swizzled<CB>(r, ch), src, valid);
    }
  };

  const int kTiles = (k + BK - 1) / BK;
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < kTiles) loadStage(s, s);
    cpAsyncCommit();
  }

  float acc[Cfg::kMTiles][Cfg::kNTiles][4] = {};

  for (int t = 0; t < kTiles; ++t) {
    cpAsyncWait<STAGES - 2>();  // this thread's copies of tile t have landed
    __syncthreads();            // everyone's have, and everyone is done with tile t−1
    {
      const int next = t + STAGES - 1;
      if (next < kTiles) loadStage(next % STAGES, next);
      cpAsyncCommit();
    }
    const std::uint32_t sA = smemBase + std::uint32_t((t % STAGES) * Cfg::kStageBytes);
    const std::uint32_t sB = sA + std::uint32_t(Cfg::kAStageBytes);
#pragma unroll
    for (int ks = 0; ks < BK / 16; ++ks) {
      std::uint32_t af[Cfg::kMTiles][4];
      std::uint32_t bf[Cfg::kNTiles / 2][4];
#pragma unroll
      for (int mi = 0; mi < Cfg::kMTiles; ++mi) {
        const int r = warpRow * WM + mi * 16 + (lane & 15);
        ldmatrixX4(af[mi], sA + swizzled<CA>(r, ks * 2 + (lane >> 4)));
      }
#pragma unroll
      for (int nj = 0; nj < Cfg::kNTiles / 2; ++nj) {
        const int r = ks * 16 + (lane & 15);
        ldmatrixX4Trans(bf[nj], sB + swizzled<CB>(r, (warpCol * WN + nj * 16) / 8 + (lane >> 4)));
      }
#pragma unroll
      for (int mi = 0; mi < Cfg::kMTiles; ++mi)
#pragma unroll
        for (int ni = 0; ni < Cfg::kNTiles; ++ni)
          mma16816<E>(acc[mi][ni], af[mi], bf[ni / 2][(ni % 2) * 2], bf[ni / 2][(ni % 2) * 2 + 1]);
    }
  }

  // Accumulator fragment: c0, c1 at (lane / 4, 2·(lane % 4) + {0, 1}), c2, c3 eight rows
  // below. N % 8 == 0 and the column is even, so a pair is wholly inside or outside and its
  // float2 store is 8-byte aligned; each 4-lane quad writes one full 32-byte sector.
#pragma unroll
  for (int mi = 0; mi < Cfg::kMTiles; ++mi)
#pragma unroll
    for (int ni = 0; ni < Cfg::kNTiles; ++ni)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int row = row0 + warpRow * WM + mi * 16 + (lane >> 2) + h * 8;
        const int col = col0 + warpCol * WN + ni * 8 + (lane & 3) * 2;
        if (row >= m || col >= n) continue;
        float2* q = reinterpret_cast<float2*>(c + std::int64_t(row) * n + col);
        float2 v = make_float2(alpha * acc[mi][ni][2 * h], alpha * acc[mi][ni][2 * h + 1]);
        if (beta != 0.f) {
          const float2 old = *q;
          v.x = fmaf(beta, old.x, v.x);
          v.y = fmaf(beta, old.y, v.y);
        }
        *q = v;
      }
}

// True when the tensor-core path takes the shape. The kernel itself needs only K % 8 == 0 and
// N % 8 == 0 (rows of A and B in whole 16-byte chunks; any M), but a descriptor's alignment
// promises the fast path exactly when every dimension is a multiple of it, and the verdict
// and the tests hold the stage to that promise.
inline bool mmaShapeSupported(const Shape& s) { return s.multipleOf(8); }

// The default configuration (sgemm_mma_multistage.cu says why), for FP16 and BF16 alike.
using MmaDefaultConfig = MmaConfig<128, 128, 32, 64, 64, 4>;

// Runs configuration Cfg on inputs of type E (the GemmArgs copies Element16<E> names); other
// shapes run the FP32 warp-tiled stage and say so.
template <class Cfg, class E = __half>
LaunchInfo launchMmaMultistage(const GemmArgs& g, std::string_view id) {
  if (!mmaShapeSupported(g.shape)) {
    LaunchInfo ran = launchSgemmWarpTiled(g);
    ran.fallback = true;
    return ran;
  }
  const E* a = static_cast<const E*>(Element16<E>::a(g));
  const E* b = static_cast<const E*>(Element16<E>::b(g));
  if (!a || !b)
    throw std::invalid_argument(std::string(id) + " needs the " + std::string(Element16<E>::kName) +
                                " copies of A and B");
  const TileGrid grid = tileGrid(g.shape, Cfg::BM, Cfg::BN);
  const int tilesM = int((g.shape.m + Cfg::BM - 1) / Cfg::BM);
  auto* kernel = &hgemmMmaMultistageKernel<Cfg, E>;
  if constexpr (Cfg::kSmemBytes > 48 * 1024) {
    KWB_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        int(Cfg::kSmemBytes)));
  }
  kernel<<<grid.blocks, Cfg::kThreads, Cfg::kSmemBytes, g.stream>>>(
      int(g.shape.m), int(g.shape.n), int(g.shape.k), g.alpha, a, b, g.beta, g.c, tilesM,
      grid.tilesN);
  KWB_CHECK_LAUNCH();
  return {false, id};
}

}  // namespace kwb::kernels
