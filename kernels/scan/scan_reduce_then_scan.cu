// SPDX-License-Identifier: Apache-2.0
// Stage 3: reduce-then-scan, three kernels over tiles of 4096 elements held in registers.
// (1) every block sums one tile (16-byte loads, no shared-memory tree) and writes the total;
// (2) one block scans the tile totals; (3) every block loads its tile again, scans it in
// registers (serial within a thread, shuffles within a warp, one warp across the block) and
// adds the total of the tiles before it. Compared with the per-block scans, the per-element work
// is mostly in registers, the loads are vectorised, the tiles are 4 to 8 times larger, and the
// output is written once: 3n elements move (read, read, write) instead of 4n and more.
#include "scan/scan_descriptors.h"
#include "scan/tile_scan.cuh"

namespace kwb::kernels {
namespace {

using namespace scan;

template <typename T>
__global__ void __launch_bounds__(kTileThreads)
    tileTotalsKernel(const T* in, std::int64_t n, bool vectors, T* totals) {
  Tile<T> v;
  loadTile(in, n, blockIdx.x, vectors, v);
  const T s = tileSum<T>(v);
  if (threadIdx.x == 0) totals[blockIdx.x] = s;
}

// One block walks the totals tile by tile, carrying the running sum: in place, inclusive.
template <typename T>
__global__ void __launch_bounds__(kTileThreads) scanTotalsKernel(T* totals, std::int64_t tiles) {
  T carry = T(0);  // meaningful in warp 0, which runs the prefix operation
  for (std::int64_t t = 0; t < tilesFor(tiles); ++t) {
    Tile<T> v;
    loadTile(totals, tiles, t, true, v);
    scanTile<T>(v, [&](T aggregate) {
      const T before = carry;
      carry = vec::add(carry, aggregate);
      return before;
    });
    storeTile(totals, tiles, t, true, v);
    __syncthreads();
  }
}

template <typename T>
__global__ void __launch_bounds__(kTileThreads)
    scanTilesKernel(const T* in, T* out, std::int64_t n, bool vectors, const T* scannedTotals) {
  Tile<T> v;
  loadTile(in, n, blockIdx.x, vectors, v);
  scanTile<T>(v, [&](T) { return blockIdx.x == 0 ? T(0) : scannedTotals[blockIdx.x - 1]; });
  storeTile(out, n, blockIdx.x, vectors, v);
}

std::size_t scratch(std::int64_t count, ElementType) {
  return vec::alignUp(std::size_t(tilesFor(count)) * 4);
}

LaunchInfo launch(const VectorArgs& a) {
  if (a.count == 0) return {false, "scan.reduce_then_scan"};
  const std::int64_t tiles = tilesFor(a.count);
  if (tiles > INT_MAX) throw std::invalid_argument("scan.reduce_then_scan: count too large");
  const bool vectors = vec::aligned16(a.in) && vec::aligned16(a.out);
  vec::dispatch(a.type, [&](auto zero) {
    using T = decltype(zero);
    const T* in = static_cast<const T*>(a.in);
    T* out = static_cast<T*>(a.out);
    T* totals = static_cast<T*>(a.scratch);  // 256-byte aligned: scratch from cudaMalloc
    tileTotalsKernel<T>
        <<<unsigned(tiles), kTileThreads, 0, a.stream>>>(in, a.count, vectors, totals);
    KWB_CHECK_LAUNCH();
    scanTotalsKernel<T><<<1, kTileThreads, 0, a.stream>>>(totals, tiles);
    KWB_CHECK_LAUNCH();
    scanTilesKernel<T>
        <<<unsigned(tiles), kTileThreads, 0, a.stream>>>(in, out, a.count, vectors, totals);
    KWB_CHECK_LAUNCH();
  });
  return {false, "scan.reduce_then_scan"};
}

}  // namespace

KernelDescriptor scanReduceThenScan() {
  return vectorDescriptor("scan.reduce_then_scan", "Reduce-then-scan", "scan", false,
                          "Three kernels: tile totals, scan of totals, tiles with their offset",
                          &launch, &scratch);
}

}  // namespace kwb::kernels
