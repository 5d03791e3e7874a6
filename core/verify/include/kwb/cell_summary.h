// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the device comparison reduces one cell of the error grid to (kwb/compare.h ErrorGrid):
// a plain struct of 64-bit words so the CUDA kernel can update it with atomics and the host
// can read it back as is. Merged into a CompareReport by reportFromCells (compare_summary.h).
#include <cstdint>

namespace kwb {

struct CellSummary {
  std::uint64_t mismatches = 0;
  std::uint64_t nonFinite = 0;   // non-finite mismatches (NaN or Inf on either side)
  std::uint64_t unwritten = 0;   // elements of `got` still holding the canary bits
  std::uint64_t maxAbsBits = 0;  // bits of the largest finite |x − r| (a double ≥ 0)
  std::uint64_t maxRelBits = 0;  // bits of the largest finite |x − r| / |r|, r ≠ 0
  std::uint64_t firstNot = 0;    // ~(row-major index of the first mismatch); 0: none
  std::uint64_t nanMarked = 0;   // 1 when a non-finite value mismatched in this cell
};

}  // namespace kwb
