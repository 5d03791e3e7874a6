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
#include <climits>
#include <stdexcept>

#include "detail/grid_dependency.cuh"
#include "detail/multiprocessors.h"
#include "detail/workspace.h"
#include "scan/lookback.cuh"
#include "scan/tile_scan.cuh"

namespace kwb::kernels::scan {

// The state every launch shares on a device (detail/workspace.h, zero when made): one 64-bit
// word, the epoch (high half) above the tile counter (low half); the chain's head mark
// (lookback::Head) on the next 128-byte line; then the tiles' statuses. Nothing is cleared before
// a launch: a block takes its tile and the launch's epoch in one atomicAdd on the word, and the
// block that takes the last tile, which every other block's ticket preceded, turns the word to
// (epoch + 1, 0) for the next launch. The statuses carry the epoch (lookback.cuh).
inline detail::WorkspaceCache& lookbackState() {
  static detail::WorkspaceCache cache;
  return cache;
}
constexpr std::size_t kStateHeaderBytes = 256, kStateHeadOffset = 128;

// kDependent: the launch is a programmatic dependent of the kernel before it (where the device
// runs those; KWB_SCAN_PDL=0 turns it off in measurement builds). The kernel waits for the
// previous grids before its ticket either way.
template <typename Shape, typename Policy, Access kAccess, bool kDependent = false>
struct LookbackScan {
  using Tiles = Shape;

  static std::int64_t tiles(std::int64_t count) { return tilesFor<Shape>(count); }

  // The shared state a launch on `count` elements uses.
  static std::size_t stateBytes(std::int64_t count) {
    return kStateHeaderBytes + vec::alignUp(std::size_t(tiles(count)) * sizeof(lookback::Status));
  }

  template <typename T>
  static void launch(const T* in, T* out, std::int64_t count, cudaStream_t stream, const char* id);
};

template <typename T, typename Shape, typename Policy, Access kAccess>
__global__ void __launch_bounds__(Shape::kThreads, Shape::kMinBlocks)
    lookbackScanKernel(const T* in, T* out, std::int64_t n, bool vectors, char* state,
                       unsigned tiles) {
  detail::launchDependents();
  detail::waitForPriorGrids();  // the state and the input may be the previous grid's
  __shared__ unsigned long long ticketShared;
  if (threadIdx.x == 0) {
    auto* word = reinterpret_cast<unsigned long long*>(state);
    const unsigned long long ticket = atomicAdd(word, 1ull);
    // The last tile's block: every ticket is taken, so the counter reads `tiles`; this add
    // carries it into the epoch: (epoch, tiles) + (0x1'0000'0000 - tiles) = (epoch + 1, 0).
    if (unsigned(ticket) == tiles - 1) atomicAdd(word, (1ull << 32) - tiles);
    ticketShared = ticket;
  }
  __syncthreads();
  const int tile = int(unsigned(ticketShared));
  Tile<T, Shape> v;
  loadTile<Shape, kAccess>(in, n, tile, vectors, v);
  // Warp 0 parks its tile in shared memory while it looks back: the look-back's registers then
  // come from the tile's, not on top of them, and the kernel fits the registers of more blocks.
  __shared__ vec::Vec4T<T> parked[Shape::kVectors][32];
  scanTile<T, Shape>(v, [&](T aggregate) {
#pragma unroll
    for (int k = 0; k < Shape::kVectors; ++k) parked[k][threadIdx.x] = v[k];
    // The addresses from the kernel's parameter and the epoch from shared memory here, not
    // held in registers across the tile's load.
    const unsigned epoch = unsigned(ticketShared >> 32);
    auto* status = reinterpret_cast<lookback::Status*>(state + kStateHeaderBytes);
    auto* head = reinterpret_cast<lookback::Head*>(state + kStateHeadOffset);
    const T prefix = lookback::lookBack<T, Policy>(status, head, epoch, tile, aggregate);
#pragma unroll
    for (int k = 0; k < Shape::kVectors; ++k) v[k] = parked[k][threadIdx.x];
    return prefix;
  });
  storeTile<Shape, kAccess>(out, n, tile, vectors, v);
}

template <typename Shape, typename Policy, Access kAccess, bool kDependent>
template <typename T>
void LookbackScan<Shape, Policy, kAccess, kDependent>::launch(const T* in, T* out,
                                                              std::int64_t count,
                                                              cudaStream_t stream, const char* id) {
  if (count == 0) return;
  const std::int64_t n = tiles(count);
  if (n > INT_MAX) throw std::invalid_argument(std::string(id) + ": count too large");
  const detail::WorkspaceCache::Lease state = lookbackState().acquire(stateBytes(count), stream);
  if (state.data() == nullptr) throw std::runtime_error(std::string(id) + ": no device workspace");
  const bool vectors = vec::aligned16(in) && vec::aligned16(out);
  cudaLaunchAttribute attr{};
  const cudaLaunchConfig_t cfg =
      detail::launchConfig(unsigned(n), Shape::kThreads, stream, attr, "KWB_SCAN_PDL", kDependent);
  KWB_CUDA_CHECK(cudaLaunchKernelEx(&cfg, lookbackScanKernel<T, Shape, Policy, kAccess>, in, out,
                                    count, vectors, static_cast<char*>(state.data()), unsigned(n)));
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
// Only the many-wave configuration launches as a dependent: the one-wave grid as a dependent
// measured 25% slower at 2^20 and 13-16% slower at 2^22 than with a memset and no dependent
// launch, where without it (and without the memset) it is faster (H200, kwb ab and kwb run,
// 2026-12-02; kernels/PERF_NOTES.md, "Scan: no memset").
// The one-wave configuration stores its tile through __stwb (Access::kStoreV4): with plain
// assignments nvcc split one of its four float4 stores into four, and 2^21-2^22 ran 13-20%
// slower; the many-wave one keeps plain stores, 2% faster at 2^24 than with __stwb (kwb ab and
// the sweep, H200, 2026-12-02; PERF_NOTES, "Scan: the one-wave kernel's stores").
using LookbackScanManyWaves =
    LookbackScan<TileShape<128, 6, 12>, lookback::Policy<1, 688, 688, 1140>, Access::kPlain, true>;
using LookbackScanOneWave =
    LookbackScan<TileShape<512, 4, 4>, lookback::Policy<4, 64, 512, 1000>, Access::kStoreV4>;

// The stage: LookbackScanManyWaves where its tiles outnumber the blocks the device runs at once
// (the SMs times the 12 blocks asked of ptxas), else LookbackScanOneWave. Both share the
// device's state (lookbackState).
struct StageLookbackScan {
  static bool manyWaves(std::int64_t count) {
    return LookbackScanManyWaves::tiles(count) >
           std::int64_t(detail::multiprocessors()) * LookbackScanManyWaves::Tiles::kMinBlocks;
  }
  template <typename T>
  static void launch(const T* in, T* out, std::int64_t count, cudaStream_t stream, const char* id) {
    if (count > 0 && manyWaves(count))
      LookbackScanManyWaves::launch<T>(in, out, count, stream, id);
    else
      LookbackScanOneWave::launch<T>(in, out, count, stream, id);
  }
};

}  // namespace kwb::kernels::scan
