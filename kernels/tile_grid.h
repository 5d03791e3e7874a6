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

}  // namespace kwb::kernels
