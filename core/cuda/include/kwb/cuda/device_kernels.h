// SPDX-License-Identifier: Apache-2.0
#pragma once
// Kernels of the correctness pipeline that run on the device (docs/VALIDATION.md, "On the
// device"): seeded inputs and one-pass comparison. Plain C++17 types, so nvcc and the host
// compiler both read this header. Every launcher throws CudaError when the launch fails.
#include <cstdint>

#include "kwb/cell_summary.h"

struct CUstream_st;

namespace kwb::cuda {

// The per-stream base of the seeded generator (kwb::seededBase); element i of the stream is
// a hash of base + i. Filling on the device gives seededMatrix's values bit for bit.
void launchFillSeeded(float* dst, std::int64_t count, std::uint64_t base, CUstream_st* stream);
// The same values as IEEE binary16 bits (exact: the generator's grid is FP16-representable).
void launchFillSeededHalf(std::uint16_t* dst, std::int64_t count, std::uint64_t base,
                          CUstream_st* stream);

// The same values rounded to BF16 (kwb::roundToBf16: 8 significant bits, so most grid values
// round): their BF16 bits into `bits` and the FP32 values of those bits into `values`.
void launchFillSeededBf16(float* values, std::uint16_t* bits, std::int64_t count,
                          std::uint64_t base, CUstream_st* stream);

// Element-wise conversions for the FP64 reference (exact widening, round-to-nearest narrowing).
void launchWiden(double* dst, const float* src, std::int64_t count, CUstream_st* stream);
void launchNarrow(float* dst, const double* src, std::int64_t count, CUstream_st* stream);

// Where the expected values come from, and whether `got` is the kernel's output or the
// negative control's mangled copy of the expected values.
struct DeviceCompareArgs {
  const float* got = nullptr;       // rows × cols, row-major; unused when mangle
  const float* expected = nullptr;  // rows × cols, row-major
  std::int64_t rows = 0, cols = 0;
  double rtol = 0, atol = 0;
  // alpha/beta: expected = float(alpha·ref + beta·prefill_i) in double, with prefill_i the
  // seeded C prefill (base prefillBase), when alphaBeta is set.
  bool alphaBeta = false;
  double alpha = 1, beta = 0;
  std::uint64_t prefillBase = 0;
  bool mangle = false;  // got = mangledCopy(expected) (kwb/compare.h), computed in place
};

// One pass over all elements: `cells` (device memory, gridRows × gridCols CellSummary, zeroed
// here first) receives the per-cell reduction. gridRows/gridCols as gridCellsFor(rows/cols).
void launchCompareCells(const DeviceCompareArgs& args, int gridRows, int gridCols,
                        CellSummary* cells, CUstream_st* stream);

// *best (device memory) = the smallest index after `after` whose element mismatches, or all
// ones when none does. The comparison's next mismatches, one pass each (only on a failure).
void launchFirstMismatchAfter(const DeviceCompareArgs& args, std::int64_t after,
                              unsigned long long* best, CUstream_st* stream);

}  // namespace kwb::cuda
