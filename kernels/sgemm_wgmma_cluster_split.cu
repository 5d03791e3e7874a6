// SPDX-License-Identifier: Apache-2.0
// sgemm.wgmma's split-K across a thread-block cluster (sm_90a): the S CTAs of a cluster compute
// the same 128 × BN tile of C, each over a range of whole 64-wide k blocks, and sum their
// partials through distributed shared memory (DSMEM), in the same launch.
//
// Why not the global split (detail/wgmma_splitk.cuh): there each warp parks its partial in an L2
// workspace and the last to arrive reads the S − 1 others back and sums them alone, while the
// rest of its CTA has finished: measured 2.2-8.4 µs a split on an H200, more than the k blocks it
// saves at 512³. Here the partials never leave the cluster's shared memory, and every CTA of the
// cluster reduces a band of the tile's rows at once, all 256 consumer threads of it.
//
// One CTA per (tile, split); grid = tiles × S, clusters of S along x, so CTA rank z of cluster t
// takes split z of tile t (row-major tile order: the grids this serves are about one wave).
//   0. Set-up as the tile kernel's (openRing): the barriers, then the wait for the previous grid;
//      the launch is a programmatic dependent, so this overlaps that grid's end.
//   1. Main loop: the persistent kernel's TMA ring, producer and consumers
//      (detail/wgmma_ring.cuh), over k blocks ⌊z·kBlocks / S⌋ … ⌊(z+1)·kBlocks / S⌋ − 1:
//      balanced ranges, none empty (the launcher runs S ≤ kBlocks).
//   2. Park: the consumer warpgroups meet (named barrier: neither may overwrite a stage the
//      other's wgmmas still read), then each writes its FP32 fragment into the ring's bytes as
//      a row-major 128 × (BN + 8) float tile. Every TMA copy has landed by then (the consumers
//      waited for each one), so nothing else writes there. The 8 floats of padding put the
//      4 rows of a half-warp's 8-byte stores in 4 different 32-byte bank groups.
//   3. cluster barrier (arrive.release / wait.acquire): every partial of the cluster is visible.
//   4. Reduce: rank z sums rows [z·R, (z+1)·R) of the tile, R = ⌈128 / S⌉, clipped at M: each
//      consumer thread takes float4s of those rows, reads the S partials with mapa +
//      ld.shared::cluster, sums them in split order 0 … S−1 (the same bits on every launch,
//      whatever the timing), applies alpha and beta (beta = 0 never reads C) and stores with
//      the row and column guards of ragged M and N.
//   5. cluster barrier again: no CTA exits (its shared memory gone) while a peer still reads it.
#include "sgemm_wgmma_cluster_split.h"

#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "detail/element16.h"
#include "detail/wgmma_ptx.cuh"  // defines KWB_WGMMA_TARGET
#include "detail/wgmma_ring.cuh"
#include "kwb/cuda/check.h"
#include "kwb/error.h"
#include "sgemm_wgmma_choice.h"
#include "tile_grid.h"

namespace kwb::kernels {
namespace {

// The cluster split runs the stage's 128-row tile (detail/wgmma_ring.cuh): two consumer
// warpgroups.
constexpr int kBM = kWgmmaTileM;
constexpr int kThreads = wgmma::TileM<kBM>::kThreads;

// Floats per row of a parked partial: BN + 8 (see the file comment).
template <int BN>
constexpr int kPartialStride = BN + 8;

// The ring (whose bytes the partial reuses) and its barriers, 1024-byte aligned.
template <int BN>
constexpr std::size_t kSmemBytes =
    1024 + std::size_t(wgmma::Tile<kBM, BN>::kRingBytes) + wgmma::Tile<kBM, BN>::kBarrierBytes;

template <int BN>
constexpr bool kPartialFits =
    std::size_t(kBM) * kPartialStride<BN> * 4 <= wgmma::Tile<kBM, BN>::kRingBytes;
static_assert(kPartialFits<64> && kPartialFits<128> && kPartialFits<256>);
static_assert(kSmemBytes<64> <= 227 * 1024 && kSmemBytes<128> <= 227 * 1024 &&
                  kSmemBytes<256> <= 227 * 1024,
              "more shared memory than a Hopper block may have");

#if KWB_WGMMA_TARGET
using namespace wgmma;  // NOLINT(google-build-using-namespace): the PTX wrappers
constexpr int kConsumers = TileM<kBM>::kConsumers;

// Step 2: a consumer warpgroup's accumulators (m64nBNk16 layout: d[4j + 2h + e] is row
// 16·warp + lane/4 + 8h, column 8j + 2·(lane % 4) + e of its 64 rows) into the parked tile.
template <int BN>
__device__ __forceinline__ void parkPartial(const float (&d)[BN / 2], std::uint32_t partial,
                                            int consumer) {
  const int tid = int(threadIdx.x) % 128, lane = tid % 32;
  const int row = consumer * 64 + (tid / 32) * 16 + lane / 4;
#pragma unroll
  for (int j = 0; j < BN / 8; ++j)
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int r = row + 8 * h, col = 8 * j + 2 * (lane % 4);
      storeShared(partial + std::uint32_t((r * kPartialStride<BN> + col) * 4), d[4 * j + 2 * h],
                  d[4 * j + 2 * h + 1]);
    }
}

// The S partials of the float4 at `addr`, summed in split order 0 … S−1; every load is issued
// before the first add.
template <int S>
__device__ __forceinline__ float4 sumSplits(std::uint32_t addr) {
  float4 v[S];
#pragma unroll
  for (int z = 0; z < S; ++z) v[z] = loadCluster(addr, std::uint32_t(z));
  float4 sum = v[0];
#pragma unroll
  for (int z = 1; z < S; ++z) {
    sum.x += v[z].x;
    sum.y += v[z].y;
    sum.z += v[z].z;
    sum.w += v[z].w;
  }
  return sum;
}

// alpha·sum + beta·C for the float4 of C at p whose first column is col (C read only when
// beta != 0). vec4: C's rows take 16-byte stores (N % 4 == 0, C 16-byte aligned), so the whole
// float4 lies inside; otherwise column by column, clipped at N.
__device__ __forceinline__ void storeSum(float4 sum, float* p, int col, int n, float alpha,
                                         float beta, bool vec4) {
  if (vec4) {
    float4 out = make_float4(alpha * sum.x, alpha * sum.y, alpha * sum.z, alpha * sum.w);
    if (beta != 0.f) {
      const float4 old = *reinterpret_cast<const float4*>(p);
      out = make_float4(fmaf(beta, old.x, out.x), fmaf(beta, old.y, out.y),
                        fmaf(beta, old.z, out.z), fmaf(beta, old.w, out.w));
    }
    *reinterpret_cast<float4*>(p) = out;
    return;
  }
  const float s4[4] = {sum.x, sum.y, sum.z, sum.w};
#pragma unroll
  for (int e = 0; e < 4; ++e)
    if (col + e < n) p[e] = beta != 0.f ? fmaf(beta, p[e], alpha * s4[e]) : alpha * s4[e];
}

// Step 4 for the 256 consumer threads (t = 0 … 255): this CTA's band of rows, summed over the
// cluster's S partials, to C. The float4s go in groups whose loads (up to 16) are all issued
// before the first sum is needed: a thread's float4s are compile-time many, so the group is
// unrolled, and a float4 past the band loads the band's last one again (a valid address; its
// store is skipped) rather than branching around its loads.
template <int BN, int S>
__device__ __forceinline__ void reduceBand(std::uint32_t partial, int rank, int t, int m, int n,
                                           int row0, int col0, float alpha, float beta,
                                           float* __restrict__ c, bool vec4) {
  constexpr int kVecs = BN / 4;             // float4s per row
  constexpr int kBand = (kBM + S - 1) / S;  // rows per rank
  constexpr int kReducers = kConsumers * 128;
  constexpr int kIters = (kBand * kVecs + kReducers - 1) / kReducers;  // float4s per thread
  constexpr int kGroup = kIters < 16 / S ? kIters : 16 / S;            // S ≤ 8: at least 2
  const int first = rank * kBand, rows = min(min(kBand, kBM - first), m - row0 - first);
  const int total = rows * kVecs;
  if (total <= 0) return;
  auto at = [&](int i) {
    return partial +
           std::uint32_t(((first + i / kVecs) * kPartialStride<BN> + 4 * (i % kVecs)) * 4);
  };
#pragma unroll 1
  for (int g = 0; g < kIters; g += kGroup) {
    float4 sum[kGroup];
#pragma unroll
    for (int j = 0; j < kGroup; ++j)
      sum[j] = sumSplits<S>(at(min(t + (g + j) * kReducers, total - 1)));
#pragma unroll
    for (int j = 0; j < kGroup; ++j) {
      const int i = t + (g + j) * kReducers;
      const int col = col0 + 4 * (i % kVecs);
      if (i < total && col < n)
        storeSum(sum[j], c + std::int64_t(row0 + first + i / kVecs) * n + col, col, n, alpha, beta,
                 vec4);
    }
  }
}

// reduceBand for the launch's split count (2 … 8), as a template argument, so a thread's float4s
// and the loads in flight are compile-time counts (unrolled, in registers).
template <int BN, int S = 2>
__device__ __forceinline__ void reduceBandOf(int splits, std::uint32_t partial, int rank, int t,
                                             int m, int n, int row0, int col0, float alpha,
                                             float beta, float* __restrict__ c, bool vec4) {
  if (splits == S)
    reduceBand<BN, S>(partial, rank, t, m, n, row0, col0, alpha, beta, c, vec4);
  else if constexpr (S < kWgmmaMaxSplits)
    reduceBandOf<BN, S + 1>(splits, partial, rank, t, m, n, row0, col0, alpha, beta, c, vec4);
}
#endif

// A and B through the ring's tensor maps (any M, N, K: the launcher re-lays an operand whose K
// or N is not a multiple of 8; TMA zero-fills past the edges); C plain FP32, row-major.
// Compiled for sm_90a only: on any other target the body traps (never launched there).
template <class E, int BN>
__global__ void __launch_bounds__(kThreads, 1)
    hgemmWgmmaClusterSplitKernel(const __grid_constant__ CUtensorMap mapA,
                                 const __grid_constant__ CUtensorMap mapB, int m, int n, int k,
                                 float alpha, float beta, float* __restrict__ c, int tilesN,
                                 int splits, bool vec4) {
#if KWB_WGMMA_TARGET
  extern __shared__ unsigned char smemRaw[];
  const std::uint32_t base = (smemAddr(smemRaw) + 1023u) & ~1023u;
  const Ring ring = ringAt<kBM, BN>(base, 0);
  const std::uint32_t partial = base;  // the parked tile, over the ring's stages
  const int tid = int(threadIdx.x);
  // The tile kernel's set-up: thread 0 fetches the maps' descriptors and makes the barriers (each
  // CTA's ring is its own: no multicast, so no cluster barrier here), then every thread waits for
  // the previous grid (a dependent launch) before any load or store.
  openRing<kBM, BN, 1, 1>(ring, &mapA, &mapB);

  const int rank = int(clusterRank());  // the split; equal to blockIdx.x % splits
  const int tile = int(blockIdx.x) / splits;
  const int row0 = tile / tilesN * kBM, col0 = tile % tilesN * BN;
  const int kBlocks = (k + kBK - 1) / kBK;
  const int kBegin = rank * kBlocks / splits, kEnd = (rank + 1) * kBlocks / splits;
  const int warpgroup = tid / 128;
  RingPos<kBM, BN> pos;
  // Each role meets the cluster barriers in its own branch (barrier.cluster without .aligned):
  // ptxas holds code the producer can reach to the producer's 40 registers, and the reduction
  // needs more (its loads in flight spilled after a shared tail).
  if (warpgroup == 0) {
    // Producer: gives up registers; one thread issues every copy. It has nothing to reduce.
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n" ::: "memory");
    if (tid == 0) produceKBlocks<kBM, BN, 1>(ring, &mapA, &mapB, row0, col0, kBegin, kEnd, 0, pos);
    clusterSync();  // every partial of the cluster in place
    clusterSync();  // every peer done reading this CTA's partial
  } else {
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n" ::: "memory");
    const int consumer = warpgroup - 1;
    float d[BN / 2];
    consumeKBlocks<E, kBM, BN, 1>(d, ring, consumer, tid % 32, kBegin, kEnd, pos);
    namedBarrier(1, kConsumers * 128);  // both warpgroups' wgmmas are done with the ring
    parkPartial<BN>(d, partial, consumer);
    clusterSync();  // every partial of the cluster in place
    reduceBandOf<BN>(splits, partial, rank, tid - 128, m, n, row0, col0, alpha, beta, c, vec4);
    clusterSync();  // no CTA leaves while a peer still reads its partial
  }
#else
  __trap();
#endif
}

template <class E, int BN>
void launchWidth(const GemmArgs& g, const detail::HalfOperands& ops, int splits) {
  constexpr std::size_t kSmem = kSmemBytes<BN>;
  auto* kernel = &hgemmWgmmaClusterSplitKernel<E, BN>;
  const TileGrid grid = tileGrid(g.shape, kBM, BN);
  const std::int64_t blocks = std::int64_t(grid.blocks) * splits;
  if (blocks > 0x7FFFFFFF)
    throw InputError("shape " + toString(g.shape) + " cannot be launched as " +
                     std::to_string(grid.blocks) + " tiles in clusters of " +
                     std::to_string(splits));
  const wgmma::OperandMaps maps = wgmma::operandMaps<kBM, BN>(Element16<E>::kTmaType, g.shape, ops);
  const bool vec4 = g.shape.n % 4 == 0 && reinterpret_cast<std::uintptr_t>(g.c) % 16 == 0;
  KWB_CUDA_CHECK(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmem)));
  cudaLaunchAttribute attrs[2]{};
  const cudaLaunchConfig_t cfg =
      wgmma::dependentClusterLaunch(unsigned(blocks), splits, kSmem, g.stream, attrs);
#ifdef KWB_PERF_EXPERIMENT  // measurement builds only: whether the clusters fit in one wave
  if (std::getenv("KWB_WGMMA_DEBUG")) {
    int active = 0;
    KWB_CUDA_CHECK(cudaOccupancyMaxActiveClusters(&active, kernel, &cfg));
    std::fprintf(stderr, "sgemm.wgmma cluster split: %u clusters of %d, %d run at once\n",
                 grid.blocks, splits, active);
  }
#endif
  KWB_CUDA_CHECK(cudaLaunchKernelEx(&cfg, kernel, maps.a, maps.b, int(g.shape.m), int(g.shape.n),
                                    int(g.shape.k), g.alpha, g.beta, g.c, grid.tilesN, splits,
                                    vec4));
}

}  // namespace

template <class E>
void launchWgmmaClusterSplit(const GemmArgs& g, const detail::HalfOperands& ops, int tileN,
                             int splits) {
  if (splits < 2 || splits > kWgmmaMaxSplits || splits > wgmmaKBlocks(g.shape))
    throw InputError(std::string(Element16<E>::kWgmmaId) + ": no cluster split-K " +
                     std::to_string(splits) + " for shape " + toString(g.shape) +
                     " (2 to 8 splits, at most one per 64-wide k block)");
  if (tileN == 64)
    launchWidth<E, 64>(g, ops, splits);
  else if (tileN == 128)
    launchWidth<E, 128>(g, ops, splits);
  else
    launchWidth<E, 256>(g, ops, splits);
}

template void launchWgmmaClusterSplit<__half>(const GemmArgs&, const detail::HalfOperands&, int,
                                              int);
template void launchWgmmaClusterSplit<__nv_bfloat16>(const GemmArgs&, const detail::HalfOperands&,
                                                     int, int);

}  // namespace kwb::kernels
