// SPDX-License-Identifier: Apache-2.0
#pragma once
// The single-pass scan of scan.decoupled_lookback as a template on its tile shape, look-back
// policy and cache hints: the stage instantiates one configuration (scan_decoupled_lookback.cu),
// scripts/scan-lookback-sweep.cu times several against CUB on the GPU.
//
// One block per tile, 2n elements moved (each read once, written once). A block takes its tile
// number from an atomic counter, not blockIdx: tiles then start in order, so every predecessor
// a look-back waits for is already running (the hardware does not promise to schedule blocks in
// index order, and waiting on a block that has not started could deadlock). It loads the tile
// (coalesced 16-byte loads), scans it in registers (tile_scan.cuh), and warp 0 publishes the
// tile's total and looks back (lookback.cuh) while the other warps wait at the tile scan's
// second barrier; no barrier is inside the wait. The float result depends on where each
// look-back found a PREFIX (timing): not bit-for-bit reproducible; int32 is exact.
#include <algorithm>
#include <climits>
#include <stdexcept>

#include "detail/multiprocessors.h"
#include "scan/lookback.cuh"
#include "scan/tile_scan.cuh"

namespace kwb::kernels::scan {

template <typename Shape, typename Policy, bool kStreaming>
struct LookbackScan {
  using Tiles = Shape;
  // The tile counter at 0, the chain's head mark (lookback::Policy::kNsPerTileBehind) on the
  // next 128-byte line, then the statuses.
  static constexpr std::size_t kCounterBytes = 256;
  static constexpr std::size_t kHeadOffset = 128;

  static std::int64_t tiles(std::int64_t count) { return tilesFor<Shape>(count); }

  static std::size_t scratchBytes(std::int64_t count) {
    return kCounterBytes + vec::alignUp(std::size_t(tiles(count)) * sizeof(lookback::Status));
  }

  template <typename T>
  static void launch(const T* in, T* out, std::int64_t count, void* scratch,
                     std::size_t scratchBytes, cudaStream_t stream, const char* id);
};

template <typename T, typename Shape, typename Policy, bool kStreaming>
__global__ void __launch_bounds__(Shape::kThreads, Shape::kMinBlocks)
    lookbackScanKernel(const T* in, T* out, std::int64_t n, bool vectors, lookback::Status* status,
                       unsigned* counter) {
  __shared__ int tileShared;
  if (threadIdx.x == 0) tileShared = int(atomicAdd(counter, 1u));
  __syncthreads();
  const int tile = tileShared;
  Tile<T, Shape> v;
  loadTile<Shape, kStreaming>(in, n, tile, vectors, v);
  // Warp 0 parks its tile in shared memory while it looks back: the look-back's registers then
  // come from the tile's, not on top of them, and the kernel fits the registers of more blocks.
  __shared__ vec::Vec4T<T> parked[Shape::kVectors][32];
  scanTile<T, Shape>(v, [&](T aggregate) {
#pragma unroll
    for (int k = 0; k < Shape::kVectors; ++k) parked[k][threadIdx.x] = v[k];
    // The mark's address from the kernel's parameter here, not held across the tile's load.
    auto* head = reinterpret_cast<unsigned*>(reinterpret_cast<char*>(counter) +
                                             LookbackScan<Shape, Policy, kStreaming>::kHeadOffset);
    const T prefix = lookback::lookBack<T, Policy>(status, head, tile, aggregate);
#pragma unroll
    for (int k = 0; k < Shape::kVectors; ++k) v[k] = parked[k][threadIdx.x];
    return prefix;
  });
  storeTile<Shape, kStreaming>(out, n, tile, vectors, v);
}

template <typename Shape, typename Policy, bool kStreaming>
template <typename T>
void LookbackScan<Shape, Policy, kStreaming>::launch(const T* in, T* out, std::int64_t count,
                                                     void* scratch, std::size_t scratchBytes,
                                                     cudaStream_t stream, const char* id) {
  if (count == 0) return;
  const std::int64_t n = tiles(count);
  if (n > INT_MAX) throw std::invalid_argument(std::string(id) + ": count too large");
  const std::size_t used = kCounterBytes + std::size_t(n) * sizeof(lookback::Status);
  if (scratchBytes < used)
    throw std::invalid_argument(std::string(id) + ": scratch smaller than scratchBytes()");
  // Counter and statuses start at zero ("no status yet") on every launch, on the stream: the
  // scratch comes uninitialised from cudaMalloc, so the kernel cannot tell a stale status from
  // a fresh one without it.
  KWB_CUDA_CHECK(cudaMemsetAsync(scratch, 0, used, stream));
  auto* counter = static_cast<unsigned*>(scratch);
  auto* status = reinterpret_cast<lookback::Status*>(static_cast<char*>(scratch) + kCounterBytes);
  const bool vectors = vec::aligned16(in) && vec::aligned16(out);
  lookbackScanKernel<T, Shape, Policy, kStreaming>
      <<<unsigned(n), Shape::kThreads, 0, stream>>>(in, out, count, vectors, status, counter);
  KWB_CHECK_LAUNCH();
}

// The configurations scan.decoupled_lookback registers, chosen by count (StageLookbackScan), from
// scripts/scan-lookback-sweep.cu on an H200 (2026-11-27, GPU time from CUDA graphs, % of CUB's
// InclusiveSum on float; kernels/PERF_NOTES.md, "Scan at CUB"):
// - More tiles than the GPU holds at once: CUB's own shape and delays, 128 threads x 6 float4
//   (tiles of 3072) at 12 blocks a SM (40 registers), one status a lane (a window of 32), a
//   1140 ns sleep before the first read and 688 ns between re-reads: 103.1% at 2^24, 106.2% at
//   2^28, 106.5% at 2^30. Where the grid fits in one wave, that first sleep is pure wait (78.7%
//   at 2^20).
// - One wave or less: 512 threads x 4 float4 (tiles of 8192) at 4 blocks a SM, a window of 128,
//   a 1 us first sleep, back-off 64-512 ns: 101.1% at 2^20 (99.4% at 2^24).
// The earlier single configuration (256 x 16, window 128, first sleep 1 us) took 91.7% at 2^20,
// 96.3% at 2^28 and 96.7% at 2^30 in the same sweep.
using LookbackScanManyWaves =
    LookbackScan<TileShape<128, 6, 12>, lookback::Policy<1, 688, 688, 1140>, false>;
using LookbackScanOneWave =
    LookbackScan<TileShape<512, 4, 4>, lookback::Policy<4, 64, 512, 1000>, false>;

// The stage: LookbackScanManyWaves where its tiles outnumber the blocks the device runs at once
// (the SMs times the 12 blocks asked of ptxas), else LookbackScanOneWave. The scratch holds
// either's statuses.
struct StageLookbackScan {
  static bool manyWaves(std::int64_t count) {
    return LookbackScanManyWaves::tiles(count) >
           std::int64_t(detail::multiprocessors()) * LookbackScanManyWaves::Tiles::kMinBlocks;
  }
  static std::size_t scratchBytes(std::int64_t count) {
    return std::max(LookbackScanManyWaves::scratchBytes(count),
                    LookbackScanOneWave::scratchBytes(count));
  }
  template <typename T>
  static void launch(const T* in, T* out, std::int64_t count, void* scratch,
                     std::size_t scratchBytes, cudaStream_t stream, const char* id) {
    if (count > 0 && manyWaves(count))
      LookbackScanManyWaves::launch<T>(in, out, count, scratch, scratchBytes, stream, id);
    else
      LookbackScanOneWave::launch<T>(in, out, count, scratch, scratchBytes, stream, id);
  }
};

}  // namespace kwb::kernels::scan
