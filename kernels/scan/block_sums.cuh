// SPDX-License-Identifier: Apache-2.0
#pragma once
// The recursive block-sums pass of the two per-block scans (Hillis-Steele, Blelloch): each
// block scans its tile and writes the tile's total; the totals are scanned the same way (one
// level down, recursively until one block holds them all); then every tile but the first adds
// the inclusive total of the tiles before it. Scratch holds one array of totals per level.
#include "reduce/vector_common.cuh"

namespace kwb::kernels::scan {

// Scratch for the levels of totals of an n-element scan with `tile` elements per block.
inline std::size_t blockSumsBytes(std::int64_t n, int tile) {
  std::size_t bytes = 0;
  for (std::int64_t m = n; m > tile;) {
    m = (m + tile - 1) / tile;
    bytes += vec::alignUp(std::size_t(m) * 4);
  }
  return bytes;
}

// Block b adds scanned[b] (the inclusive total of tiles 0..b) to tile b + 1.
template <typename T>
__global__ void addTileOffsets(T* out, std::int64_t n, const T* __restrict__ scanned, int tile) {
  const T offset = scanned[blockIdx.x];
  const std::int64_t begin = (std::int64_t(blockIdx.x) + 1) * tile;
  const std::int64_t end = begin + tile < n ? begin + tile : n;
  for (std::int64_t i = begin + threadIdx.x; i < end; i += blockDim.x)
    out[i] = vec::add(offset, out[i]);
}

// tileScan(in, out, n, sums, blocks) launches the per-block scan: `blocks` tiles of kTile
// elements, tile b's total to sums[b] when sums is not null. In place (in == out) must work.
template <typename T, int kTile, typename TileScan>
void scanWithBlockSums(const T* in, T* out, std::int64_t n, char* scratch, cudaStream_t stream,
                       TileScan tileScan) {
  const std::int64_t blocks = (n + kTile - 1) / kTile;
  if (blocks <= 1) {
    tileScan(in, out, n, static_cast<T*>(nullptr), blocks);
    return;
  }
  T* sums = reinterpret_cast<T*>(scratch);
  tileScan(in, out, n, sums, blocks);
  scanWithBlockSums<T, kTile>(sums, sums, blocks, scratch + vec::alignUp(std::size_t(blocks) * 4),
                              stream, tileScan);
  addTileOffsets<T><<<unsigned(blocks - 1), 256, 0, stream>>>(out, n, sums, kTile);
  KWB_CHECK_LAUNCH();
}

}  // namespace kwb::kernels::scan
