// SPDX-License-Identifier: Apache-2.0
// Stage 2: shared-memory tiles and 2-D register blocking. A block computes a BM×BN tile of C;
// per step it stages a BM×BK slice of A and a BK×BN slice of B in shared memory, and each
// thread accumulates a TM×TN micro-tile in registers.
//
// This stage keeps A's tile in shared memory exactly as it sits in global memory (row-major,
// BK = 32 floats wide). That is the lesson of the next stage: the compute loop reads A down a
// column, and with a row pitch of 32 floats every row starts in bank 0, so the warp's 4
// distinct rows of A collide in one bank (a 4-way conflict on every A load). ncu:
// l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum. sgemm.bank_free pads it away.
#include <cstdint>

#include "detail/micro_tile.cuh"
#include "detail/multiprocessors.h"
#include "kwb/cuda/check.h"
#include "descriptors.h"
#include "tile_grid.h"

namespace kwb::kernels {
namespace {

template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
    sgemmTiledKernel(int m, int n, int k, float alpha, const float* __restrict__ a,
                     const float* __restrict__ b, float beta, float* __restrict__ c, int tilesN) {
  // A's shared rows are BK + 0 floats: as in global memory: the conflicting layout (see top).
  detail::tiledGemm<BM, BN, BK, TM, TN, 0>(m, n, k, alpha, a, b, beta, c, tilesN);
}

// 64×64 tiles (256 threads) where that grid fills the GPU; 32×32 tiles (64 threads, the same
// 4×4 micro-tile and warp layout) where it would leave SMs idle: see smallerTilePays.
constexpr int kBk = 32, kTm = 4, kTn = 4;

template <int BM, int BN>
void launchWith(const GemmArgs& g) {
  const TileGrid grid = tileGrid(g.shape, BM, BN);
  sgemmTiledKernel<BM, BN, kBk, kTm, kTn><<<grid.blocks, (BM / kTm) * (BN / kTn), 0, g.stream>>>(
      int(g.shape.m), int(g.shape.n), int(g.shape.k), g.alpha, g.a, g.b, g.beta, g.c, grid.tilesN);
  KWB_CHECK_LAUNCH();
}

LaunchInfo launch(const GemmArgs& g) {
  if (smallerTilePays(g.shape, 64, 64, detail::multiprocessors()))
    launchWith<32, 32>(g);
  else
    launchWith<64, 64>(g);
  return {false, "sgemm.tiled"};
}

}  // namespace

KernelDescriptor sgemmTiled() {
  KernelDescriptor d;
  d.id = "sgemm.tiled";
  d.displayName = "Shared-memory tiled";
  d.family = "sgemm";
  d.description =
      "64x64x32 shared-memory tiles (32x32 when 64x64 leaves SMs idle), 4x4 register micro-tiles "
      "(A loads conflict)";
  d.launch = &launch;
  return d;
}

}  // namespace kwb::kernels
