// SPDX-License-Identifier: Apache-2.0
#pragma once
// Measurement builds only (KWB_PERF_EXPERIMENT): sgemm.wgmma's persistent grid in another unit
// order, or with fewer CTAs, chosen by environment switches; other builds keep the grouped order
// and the full grid (the pass-through functions at the end). The order also needs
// -DKWB_WGMMA_ORDERED: the kernel's read of it made every tile kernel 2-4% slower at 512^3-1024^3,
// and a measurement build's kernels must be the release build's. Measured on an H200: neither
// pays (kernels/PERF_NOTES.md, "The Hilbert-curve order"). Included by sgemm_wgmma_kernel.cuh
// alone, whose one includer (sgemm_wgmma.cu) owns the device table below.
#ifdef KWB_PERF_EXPERIMENT
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "detail/gemm_tile_io.cuh"
#include "detail/hilbert_order.h"
#include "kwb/cuda/check.h"

namespace kwb::kernels::wgmma {

// Measurement builds only: an order of the work units the host uploads (KWB_WGMMA_ORDER=hilbert,
// detail/hilbert_order.h), entry u of a grid's order the unit (row << 16) | col; read where
// `group` is negative, the grid's order at offset -1 - group.
#ifdef KWB_WGMMA_ORDERED
inline constexpr int kMaxOrderedUnits = 16384;
__device__ std::uint32_t gUnitOrder[kMaxOrderedUnits];

// The unit at entry i of the table (the grid's offset plus the unit's place in its order).
__device__ __forceinline__ detail::TileCoord orderedTile(int i) {
  const std::uint32_t v = gUnitOrder[i];
  return {int(v >> 16), int(v & 0xFFFFu)};
}
#endif

// Measurement builds with KWB_WGMMA_ORDERED only: KWB_WGMMA_ORDER=hilbert walks the units of a
// unitsM x unitsN grid along a Hilbert curve (detail/hilbert_order.h). Each grid's order has its
// own place in the device's table, uploaded at its first launch, so that a CUDA graph captured for
// one shape still reads its own order after another shape's launches. Returns the group the kernel
// takes: -1 - the order's offset in the table, or `group` where the switch is off or the table is
// full.
inline int unitOrder(int unitsM, int unitsN, int group) {
  const char* e = std::getenv("KWB_WGMMA_ORDER");
  if (e == nullptr || std::string(e) != "hilbert") return group;
#ifndef KWB_WGMMA_ORDERED
  static const bool said = [] {
    std::fprintf(stderr,
                 "sgemm.wgmma: KWB_WGMMA_ORDER=hilbert needs a build with "
                 "-DKWB_WGMMA_ORDERED; the tiles run in grouped order\n");
    return true;
  }();
  (void)said, (void)unitsM, (void)unitsN;
  return group;
#else
  static std::map<std::tuple<int, int, int>, int> offsets;  // (device, rows, cols) -> offset
  static std::map<int, int> used;                           // device -> entries taken
  int device = 0;
  KWB_CUDA_CHECK(cudaGetDevice(&device));
  const auto key = std::make_tuple(device, unitsM, unitsN);
  auto it = offsets.find(key);
  if (it == offsets.end()) {
    const std::vector<std::uint32_t> order = detail::hilbertOrder(unitsM, unitsN);
    const int offset = used[device];
    if (order.empty() || offset + order.size() > std::size_t(kMaxOrderedUnits)) return group;
    KWB_CUDA_CHECK(cudaMemcpyToSymbol(gUnitOrder, order.data(),
                                      order.size() * sizeof(std::uint32_t),
                                      std::size_t(offset) * sizeof(std::uint32_t)));
    used[device] = offset + int(order.size());
    it = offsets.emplace(key, offset).first;
  }
  if (std::getenv("KWB_WGMMA_DEBUG"))
    std::fprintf(stderr, "sgemm.wgmma: %dx%d units in Hilbert order (table offset %d)\n", unitsM,
                 unitsN, it->second);
  return -1 - it->second;
#endif
}

// Measurement builds only: KWB_WGMMA_CTAS=N launches an unclustered grid of at most N CTAs.
inline unsigned forcedCtas(unsigned blocks) {
  if (const char* e = std::getenv("KWB_WGMMA_CTAS"))
    return std::min(blocks, unsigned(std::max(1, std::atoi(e))));
  return blocks;
}

}  // namespace kwb::kernels::wgmma
#else
namespace kwb::kernels::wgmma {
inline int unitOrder(int, int, int group) { return group; }
inline unsigned forcedCtas(unsigned blocks) { return blocks; }
}  // namespace kwb::kernels::wgmma
#endif
