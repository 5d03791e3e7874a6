// SPDX-License-Identifier: Apache-2.0
#pragma once
// Host helper shared by the SGEMM launchers.
#include <cstdint>
#include <string>

#include "kwb/error.h"
#include "kwb/shape.h"

namespace kwb::kernels {

// Every SGEMM kernel walks a 1-D grid of output tiles in row-major tile order. Why 1-D:
// gridDim.y is capped at 65535, which would cap M (or N) at 65535 tiles; gridDim.x goes to
// 2^31 − 1. Row-major order also lets consecutive blocks share A's row panel in L2.
struct TileGrid {
  unsigned blocks = 0;
  int tilesN = 0;  // tiles along N: block b computes tile (b / tilesN, b % tilesN)
};

inline TileGrid tileGrid(const Shape& s, int tileM, int tileN) {
  const std::int64_t tilesN = (s.n + tileN - 1) / tileN;
  const std::int64_t tiles = tilesN * ((s.m + tileM - 1) / tileM);
  if (s.m < 1 || s.n < 1 || s.k < 1 || tiles > 0x7FFFFFFF)
    throw InputError("shape " + toString(s) + " cannot be launched as a grid of " +
                     std::to_string(tileM) + "x" + std::to_string(tileN) + " tiles");
  return {unsigned(tiles), int(tilesN)};
}

// Outputs of C computed by the busiest SM when a grid of tileM×tileN tiles spreads over `sms`
// multiprocessors: the critical path of a grid that fits on the GPU at once (all the stages
// that use this have small enough blocks for every block of such a grid to be resident).
inline std::int64_t busiestSmOutputs(const Shape& s, int tileM, int tileN, int sms) {
  const std::int64_t tiles = ((s.m + tileM - 1) / tileM) * ((s.n + tileN - 1) / tileN);
  const std::int64_t perSm = sms > 0 ? (tiles + sms - 1) / sms : tiles;
  return perSm * tileM * tileN;
}

// Whether a block tile half the size in each dimension (a quarter of the outputs) should replace
// the larger one for this shape: only when it at least halves the busiest SM's share of C. The
// smaller tile reads twice the operand bytes per output and keeps half the values per register,
// so it wins only where the larger grid leaves SMs idle (512³ on 132 SMs: 64 tiles of 64×64,
// 256 of 32×32), never where both grids fill the GPU evenly (1024³: 8,192 outputs either way).
inline bool smallerTilePays(const Shape& s, int tileM, int tileN, int sms) {
  return 2 * busiestSmOutputs(s, tileM / 2, tileN / 2, sms) <=
         busiestSmOutputs(s, tileM, tileN, sms);
}

}  // namespace kwb::kernels
