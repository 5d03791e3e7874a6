// SPDX-License-Identifier: Apache-2.0
#pragma once
// sgemm.wgmma's tile kernel (the design is described at the top of sgemm_wgmma.cu, whose
// launchers are its only includer): the persistent grid of 128- or 64-row tiles, unclustered or
// in clusters sharing A and B by TMA multicast, optionally split along K through a global
// workspace; with its shared-memory size and the work units of its grid, by which the launchers
// size their grids.
#include <cuda.h>

#include <cstddef>
#include <cstdint>

#include "detail/wgmma_epilogue.cuh"
#include "detail/wgmma_ptx.cuh"  // defines KWB_WGMMA_TARGET
#include "detail/wgmma_ring.cuh"
#include "detail/stream_k.h"
#include "detail/wgmma_splitk.cuh"
#include "detail/wgmma_trace.cuh"
#include "detail/wgmma_unit_order.cuh"
#include "tile_grid.h"

namespace kwb::kernels::wgmma {

template <int BM>
constexpr int kThreads = wgmma::TileM<BM>::kThreads;
// The TMA epilogue's C boxes, kCStagingPerConsumer a warpgroup: 32 KB for 128 rows, 16 KB for 64
// (parenthesised: clang-format 14 reads the product as a declaration).
template <int BM>
constexpr int kCStagingBytes = (wgmma::TileM<BM>::kConsumers * wgmma::kCStagingPerConsumer);

// The persistent kernel's shared memory: the ring, the C boxes of the TMA epilogue, barriers.
template <int BM, int BN>
constexpr std::size_t kSmemBytes = 1024  // slack to align the tiles to 1024 B
                                   + std::size_t(wgmma::Tile<BM, BN>::kRingBytes) +
                                   kCStagingBytes<BM> + wgmma::Tile<BM, BN>::kBarrierBytes;
static_assert(kSmemBytes<128, 48> <= 227 * 1024 && kSmemBytes<128, 64> <= 227 * 1024 &&
                  kSmemBytes<128, 128> <= 227 * 1024 && kSmemBytes<128, 192> <= 227 * 1024 &&
                  kSmemBytes<128, 256> <= 227 * 1024 && kSmemBytes<64, 96> <= 227 * 1024 &&
                  kSmemBytes<64, 128> <= 227 * 1024,
              "more shared memory than a Hopper block may have");
// Two 64-row CTAs per SM, each with the 1 KB the driver reserves per block, in an SM's 228 KB.
static_assert(2 * (kSmemBytes<64, 64> + 1024) <= 228 * 1024, "two 64-row CTAs must fit on an SM");
// CTAs per SM each tile height is built for (__launch_bounds__).
template <int BM>
constexpr int kMinCtasPerSm = BM == 64 ? 2 : 1;

// Work unit u of a CTA: without clusters tile u in grouped order; with clusters of CM × CN CTAs
// (CM along M, CN along N), the cluster's unit u is a block of CM × CN adjacent tiles (grouped
// order over those blocks, `group` high) and CTA rank r takes tile (r % CM, r / CM) of it. A tile
// whose rows or columns all lie beyond M or N still runs (TMA reads zeros, the stores are
// clipped): the cluster's CTAs must walk the same number of K slices, since each loads part of
// its peers' A or B.
// The work units of a grid of tilesM × tilesN tiles: blocks of CM × CN tiles, one per cluster.
template <int CM, int CN>
__host__ __device__ constexpr int clusterUnits(int tilesM, int tilesN) {
  return (tilesM + CM - 1) / CM * ((tilesN + CN - 1) / CN);
}
template <int CM, int CN>
__device__ __forceinline__ detail::TileCoord unitTile(int u, int tilesM, int tilesN, int group) {
  const detail::TileCoord t =
#if defined(KWB_PERF_EXPERIMENT) && defined(KWB_WGMMA_ORDERED)  // detail/wgmma_unit_order.cuh
      group < 0
          ? orderedTile(-1 - group + u)
          :
#endif
          detail::groupedTile(unsigned(u), (tilesM + CM - 1) / CM, (tilesN + CN - 1) / CN, group);
  const int rank = int(blockIdx.x) % (CM * CN);
  return {t.tileRow * CM + rank % CM, t.tileCol * CN + rank / CM};
}

// Any M, N and K: A and B are loaded through tensor maps whose row strides are multiples of 16
// bytes (the launcher re-lays an operand whose K or N is not a multiple of 8, and TMA zero-fills
// past the operand's own width). tmaStore (beta = 0, C 16-byte aligned, N % 4 == 0) chooses the TMA
// epilogue, mapC its tensor map. CM × CN: clusters sharing B along M and A along N by TMA
// multicast (detail/wgmma_ring.cuh): a stage is refilled only when the consumers of every CTA it
// was written into have released it, and a CTA exits once its producer saw every stage released
// (drainRing). STREAM (measurement builds, with SK): stream-K on the last partial wave
// (detail/stream_k.h). Compiled for sm_90a only: on any other target the body traps (never
// launched).
template <class E, int BM, int BN, int CM, bool SK = false, int CN = 1, bool STREAM = false>
__global__ void __launch_bounds__(kThreads<BM>, kMinCtasPerSm<BM>)
    hgemmWgmmaKernel(const __grid_constant__ CUtensorMap mapA,
                     const __grid_constant__ CUtensorMap mapB,
                     const __grid_constant__ CUtensorMap mapC, int m, int n, int k, float alpha,
                     float beta, float* __restrict__ c, int tilesM, int tilesN, int group,
                     bool tmaStore, SplitK split) {
#if KWB_WGMMA_TARGET
  extern __shared__ unsigned char smemRaw[];
  const std::uint32_t base = (smemAddr(smemRaw) + 1023u) & ~1023u;
  const Ring ring = ringAt<BM, BN>(base, kCStagingBytes<BM>);  // C boxes, then the barriers
  const std::uint32_t sC = ring.bars - kCStagingBytes<BM>;
  const int tid = int(threadIdx.x);
  constexpr int CS = CM * CN;  // CTAs per cluster
  if (tid == 0) KWB_WGMMA_MARK(trace::kEntry);
  openRing<BM, BN, CM, CN>(ring, &mapA, &mapB);
  if (tid == 0) KWB_WGMMA_MARK(trace::kReady);

  // With split-K (CM = 1 only) unit u is split u % splits of tile u / splits: a tile's splits run
  // on neighbouring CTAs at the same time, so its last arrival comes soon after its first.
  static_assert(!SK || CS == 1, "split-K runs without clusters");
  static_assert(!STREAM || SK, "stream-K's segments are summed as split-K's ranges");
  static_assert(BM == 128 || !SK, "the 64-row tile runs unsplit");
#ifndef KWB_PERF_EXPERIMENT  // measurement builds run the 64-row tiles in other clusters too
  static_assert(BM == 128 || CS == 1 || (BN == 128 && CM == 2 && CN == 1),
                "the 64-row tile runs in clusters only 128 wide, in pairs sharing B");
#endif
  const int splits = SK ? split.splits : 1;  // a constant 1 in the unsplit kernels
  const int kTiles = (k + kBK - 1) / kBK;
  // Stream-K: the loops below walk the whole waves' tiles (splits 1, whole K), then segments.
  const detail::StreamKSchedule streamK{tilesM * tilesN, int(gridDim.x), kTiles};
  const int units = STREAM ? streamK.wholeTiles() : clusterUnits<CM, CN>(tilesM, tilesN) * splits;
  const int firstUnit = int(blockIdx.x) / CS, unitStride = int(gridDim.x) / CS;
  const int rank = int(blockIdx.x) % CS;
  auto kRange = [&](int u, int& kBegin, int& kEnd) {  // this unit's k blocks
    kBegin = SK ? u % splits * split.kBlocksPerSplit : 0;
    kEnd = SK ? min(kTiles, kBegin + split.kBlocksPerSplit) : kTiles;
  };
  const int warpgroup = tid / 128;
  RingPos<BM, BN> pos;

  if (warpgroup == 0) {
    // Producer: one thread issues every copy. With 128 rows the whole warpgroup gives up
    // registers to the two consumers; the 64-row tile (launch bounds of 2 CTAs per SM) keeps
    // the register count ptxas gave the kernel.
    if constexpr (BM == 128) asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n" ::: "memory");
    if (tid == 0) {
      KWB_WGMMA_MARK(trace::kProducing);
      for (int u = firstUnit; u < units; u += unitStride) {
        const detail::TileCoord tc = unitTile<CM, CN>(u / splits, tilesM, tilesN, group);
        int kBegin = 0, kEnd = 0;
        kRange(u, kBegin, kEnd);
        produceKBlocks<BM, BN, CM, CN>(ring, &mapA, &mapB, tc.tileRow * BM, tc.tileCol * BN, kBegin,
                                       kEnd, rank, pos);
      }
      if constexpr (STREAM) {
        detail::StreamKCursor cursor(streamK, int(blockIdx.x), false);
        for (detail::StreamKWork w; cursor.next(w);) {
          const detail::TileCoord tc = unitTile<1, 1>(w.tile, tilesM, tilesN, group);
          produceKBlocks<BM, BN, 1, 1>(ring, &mapA, &mapB, tc.tileRow * BM, tc.tileCol * BN,
                                       w.kBegin, w.kEnd, rank, pos);
        }
      }
      if constexpr (CS > 1) drainRing(ring, pos);  // the CTA stays until its peers are done
      KWB_WGMMA_MARK(trace::kDrained);
    }
  } else {
    if constexpr (BM == 128) asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n" ::: "memory");
    const int consumer = warpgroup - 1;  // rows 64·consumer … +63 of the tile
    const std::uint16_t writers = clusterPeers<CM, CN>(rank).both();
    float d[BN / 2];  // FP32 accumulators
    int box = 0;      // the TMA epilogue's boxes so far: which of the warp's buffers is next
    for (int u = firstUnit; u < units; u += unitStride) {
      const detail::TileCoord tc = unitTile<CM, CN>(u / splits, tilesM, tilesN, group);
      const int row0 = tc.tileRow * BM, col0 = tc.tileCol * BN;
      int kBegin = 0, kEnd = 0;
      kRange(u, kBegin, kEnd);
      if (tid == 128 && u == firstUnit) KWB_WGMMA_MARK_FIRST_STAGE(ring, pos);
      consumeKBlocks<E, BM, BN, CS>(d, ring, consumer, tid % 32, kBegin, kEnd, pos, writers);
      if (tid == 128) KWB_WGMMA_MARK(trace::kLoopDone, u == firstUnit);
      // Split-K: only the warp that arrives last for its rows goes on, with the tile's sum.
      if constexpr (SK && !STREAM)
        if (!reduceSplits<BN>(d, split, u / splits, u % splits, tid / 32 - 4)) continue;

      if (tmaStore)
        storeTileTma<BM, BN>(d, &mapC, sC + std::uint32_t(consumer * wgmma::kCStagingPerConsumer),
                             consumer, row0, col0, alpha, box);
      else
        storeTileDirect<BN>(d, c, m, n, consumer, row0, col0, alpha, beta);
      if (tid == 128) KWB_WGMMA_MARK(trace::kStored, u == firstUnit);
    }
    if constexpr (STREAM) {  // the partial wave's segments: the warp that arrives last stores
      detail::StreamKCursor cursor(streamK, int(blockIdx.x), false);
      for (detail::StreamKWork w; cursor.next(w);) {
        const detail::TileCoord tc = unitTile<1, 1>(w.tile, tilesM, tilesN, group);
        consumeKBlocks<E, BM, BN, CS>(d, ring, consumer, tid % 32, w.kBegin, w.kEnd, pos, writers);
        if (reduceSegments<BN>(d, split, streamK.segmentStride(), w.slot, w.segment, w.segments,
                               tid / 32 - 4))
          storeTileDirect<BN>(d, c, m, n, consumer, tc.tileRow * BM, tc.tileCol * BN, alpha, beta);
      }
    }
    // The shared-memory boxes must outlive the TMA unit's reads of them (each warp's first lane
    // issued its boxes, or the warpgroup's first thread); the stores themselves complete with the
    // grid (as CUTLASS's epilogue tail waits).
    if (tmaStore && tid % 32 == 0) bulkWaitRead<0>();
  }
  if (tid == 128) KWB_WGMMA_MARK(trace::kExit);
#else
  __trap();
#endif
}

}  // namespace kwb::kernels::wgmma
