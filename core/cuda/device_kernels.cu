// SPDX-License-Identifier: Apache-2.0
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "kwb/splitmix.h"
#include "kwb/cuda/check.h"
#include "kwb/cuda/device_kernels.h"

namespace kwb::cuda {
namespace {

constexpr int kThreads = 256;
constexpr std::uint32_t kCanary = 0xAAAAAAAAu;  // kwb::kCanaryBits

// The same splitmix64 (kwb/splitmix.h) and grid as kwb::seededMatrix (core/verify/src/seeded.cpp).
__device__ __forceinline__ float seededValue(std::uint64_t base, std::int64_t i) {
  const std::uint64_t r = splitmixAt(base, i);
  const auto k = std::int64_t(r % 4097u) - 2048;  // -2048 … 2048
  return float(k) / 2048.0f;                      // exact: a power-of-two division
}

int blocksFor(std::int64_t count) {
  const std::int64_t b = (count + kThreads - 1) / kThreads;
  return int(b < 1 ? 1 : (b > 16384 ? 16384 : b));
}

__global__ void fillSeeded(float* dst, std::int64_t count, std::uint64_t base) {
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    dst[i] = seededValue(base, i);
}

__global__ void fillSeededHalf(std::uint16_t* dst, std::int64_t count, std::uint64_t base) {
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    dst[i] = __half_as_ushort(__float2half_rn(seededValue(base, i)));
}

// The seeded values rounded to BF16 (nearest, ties to even), as BF16 bits and as the FP32
// values those bits hold: a BF16 case's every path, its reference included, reads the same
// numbers.
__global__ void fillSeededBf16(float* values, std::uint16_t* bits, std::int64_t count,
                               std::uint64_t base) {
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += stride) {
    const __nv_bfloat16 b = __float2bfloat16_rn(seededValue(base, i));
    values[i] = __bfloat162float(b);
    bits[i] = __bfloat16_as_ushort(b);
  }
}

__global__ void widen(double* dst, const float* src, std::int64_t count) {
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    dst[i] = double(src[i]);
}

__global__ void narrow(float* dst, const double* src, std::int64_t count) {
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    dst[i] = __double2float_rn(src[i]);
}

// kwb::mangledCopy's damage: v + 1 + |v| (beyond any tolerance below 1), 0 for non-finite v.
__device__ __forceinline__ float mangled(float v) {
  return isfinite(v) ? __fadd_rn(__fadd_rn(v, 1.0f), fabsf(v)) : 0.0f;
}

// The two values compared at element i: the kernel's output (or the negative control's
// mangled copy) and the expectation (the reference, or alpha·reference + beta·prefill).
__device__ __forceinline__ void elementValues(const DeviceCompareArgs& a, std::int64_t i,
                                              std::int64_t last, float& x, float& e) {
  e = a.expected[i];
  if (a.alphaBeta)
    e = __double2float_rn(__dadd_rn(__dmul_rn(a.alpha, double(e)),
                                    __dmul_rn(a.beta, double(seededValue(a.prefillBase, i)))));
  if (a.mangle)
    x = (i % 7 == 0 || i == last) ? mangled(e) : e;
  else
    x = a.got[i];
}

// kwb::elementMatches, without contraction into an FMA (bit-equal to the host's rule).
__device__ __forceinline__ bool elementMatches(float x, float e, double rtol, double atol) {
  if (isfinite(x) && isfinite(e))
    return fabs(__dadd_rn(double(x), -double(e))) <=
           __dadd_rn(atol, __dmul_rn(rtol, fabs(double(e))));
  return isinf(x) && isinf(e) && x == e;
}

// The smallest mismatching index after `after` into *best (preset to all ones): each thread
// stops at its own first mismatch, and once the best found so far is behind it.
__global__ void firstMismatchAfter(DeviceCompareArgs a, std::int64_t after,
                                   unsigned long long* best) {
  const std::int64_t n = a.rows * a.cols, last = n - 1;
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = after + 1 + std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    if (static_cast<unsigned long long>(i) >= *static_cast<volatile unsigned long long*>(best))
      break;
    float x, e;
    elementValues(a, i, last, x, e);
    if (!elementMatches(x, e, a.rtol, a.atol)) {
      atomicMin(best, static_cast<unsigned long long>(i));
      break;
    }
  }
}

// First row (or column) of grid cell `cell` of `cells` over `extent`: the smallest index i with
// i·cells / extent ≥ cell (ErrorGrid::cellOf), i.e. ceil(cell·extent / cells).
__device__ __forceinline__ std::int64_t cellStart(int cell, std::int64_t extent, int cells) {
  return (std::int64_t(cell) * extent + cells - 1) / cells;
}

__device__ __forceinline__ unsigned long long warpSum(unsigned long long v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}
__device__ __forceinline__ unsigned long long warpMax(unsigned long long v) {
  for (int o = 16; o > 0; o >>= 1) {
    const unsigned long long w = __shfl_down_sync(0xffffffffu, v, o);
    v = w > v ? w : v;
  }
  return v;
}

// Block (x, y, z) reduces part z of grid cell (row y, column x): every thread of a block works
// on one cell, so per-thread sums need no per-element atomics. Rows of the cell are dealt out
// over gridDim.z, columns over the block's threads (coalesced along a row).
__global__ void compareCells(DeviceCompareArgs a, CellSummary* cells) {
  const int gr = int(gridDim.y), gc = int(gridDim.x);
  const int cy = int(blockIdx.y), cx = int(blockIdx.x);
  const std::int64_t r0 = cellStart(cy, a.rows, gr), r1 = cellStart(cy + 1, a.rows, gr);
  const std::int64_t c0 = cellStart(cx, a.cols, gc), c1 = cellStart(cx + 1, a.cols, gc);
  const std::int64_t last = a.rows * a.cols - 1;
  unsigned long long mism = 0, nonFinite = 0, unwritten = 0, firstNot = 0, nan = 0;
  double maxAbs = 0.0, maxRel = 0.0;
  for (std::int64_t r = r0 + blockIdx.z; r < r1; r += gridDim.z)
    for (std::int64_t c = c0 + threadIdx.x; c < c1; c += blockDim.x) {
      const std::int64_t i = r * a.cols + c;
      float x, e;
      elementValues(a, i, last, x, e);
      unwritten += __float_as_uint(x) == kCanary;
      const bool ok = elementMatches(x, e, a.rtol, a.atol);
      if (isfinite(x) && isfinite(e)) {
        const double abs = fabs(__dadd_rn(double(x), -double(e)));
        maxAbs = fmax(maxAbs, abs);
        if (e != 0.0f) maxRel = fmax(maxRel, __ddiv_rn(abs, fabs(double(e))));
      } else if (!ok) {
        ++nonFinite;
        nan = 1;
      }
      if (!ok) {
        ++mism;
        const unsigned long long notI = ~static_cast<unsigned long long>(i);
        firstNot = notI > firstNot ? notI : firstNot;
      }
    }
  mism = warpSum(mism);
  nonFinite = warpSum(nonFinite);
  unwritten = warpSum(unwritten);
  firstNot = warpMax(firstNot);
  nan = warpMax(nan);
  // Non-negative doubles order like their bits: integer max reduces them exactly.
  const unsigned long long absBits = warpMax(__double_as_longlong(maxAbs));
  const unsigned long long relBits = warpMax(__double_as_longlong(maxRel));
  if ((threadIdx.x & 31) != 0) return;
  CellSummary* out = cells + std::int64_t(cy) * gc + cx;
  auto* o = reinterpret_cast<unsigned long long*>(out);
  static_assert(sizeof(CellSummary) == 7 * sizeof(unsigned long long), "CellSummary layout");
  if (mism) atomicAdd(o + 0, mism);
  if (nonFinite) atomicAdd(o + 1, nonFinite);
  if (unwritten) atomicAdd(o + 2, unwritten);
  if (absBits) atomicMax(o + 3, absBits);
  if (relBits) atomicMax(o + 4, relBits);
  if (firstNot) atomicMax(o + 5, firstNot);
  if (nan) atomicMax(o + 6, nan);
}

}  // namespace

void launchFillSeeded(float* dst, std::int64_t count, std::uint64_t base, CUstream_st* stream) {
  if (count <= 0) return;
  fillSeeded<<<blocksFor(count), kThreads, 0, stream>>>(dst, count, base);
  KWB_CHECK_LAUNCH();
}

void launchFillSeededHalf(std::uint16_t* dst, std::int64_t count, std::uint64_t base,
                          CUstream_st* stream) {
  if (count <= 0) return;
  fillSeededHalf<<<blocksFor(count), kThreads, 0, stream>>>(dst, count, base);
  KWB_CHECK_LAUNCH();
}

void launchFillSeededBf16(float* values, std::uint16_t* bits, std::int64_t count,
                          std::uint64_t base, CUstream_st* stream) {
  if (count <= 0) return;
  fillSeededBf16<<<blocksFor(count), kThreads, 0, stream>>>(values, bits, count, base);
  KWB_CHECK_LAUNCH();
}

void launchWiden(double* dst, const float* src, std::int64_t count, CUstream_st* stream) {
  if (count <= 0) return;
  widen<<<blocksFor(count), kThreads, 0, stream>>>(dst, src, count);
  KWB_CHECK_LAUNCH();
}

void launchNarrow(float* dst, const double* src, std::int64_t count, CUstream_st* stream) {
  if (count <= 0) return;
  narrow<<<blocksFor(count), kThreads, 0, stream>>>(dst, src, count);
  KWB_CHECK_LAUNCH();
}

void launchFirstMismatchAfter(const DeviceCompareArgs& args, std::int64_t after,
                              unsigned long long* best, CUstream_st* stream) {
  KWB_CUDA_CHECK(cudaMemsetAsync(best, 0xFF, sizeof *best, stream));
  const std::int64_t left = args.rows * args.cols - (after + 1);
  if (left <= 0) return;
  firstMismatchAfter<<<blocksFor(left), kThreads, 0, stream>>>(args, after, best);
  KWB_CHECK_LAUNCH();
}

void launchCompareCells(const DeviceCompareArgs& args, int gridRows, int gridCols,
                        CellSummary* cells, CUstream_st* stream) {
  if (gridRows < 1 || gridCols < 1) return;
  KWB_CUDA_CHECK(cudaMemsetAsync(cells, 0, sizeof(CellSummary) * gridRows * gridCols, stream));
  // Enough blocks to fill the GPU (each cell's rows dealt over up to 32 blocks).
  const std::int64_t rowsPerCell = args.rows / gridRows;
  const int parts = int(rowsPerCell < 1 ? 1 : (rowsPerCell > 32 ? 32 : rowsPerCell));
  compareCells<<<dim3(unsigned(gridCols), unsigned(gridRows), unsigned(parts)), kThreads, 0,
                 stream>>>(args, cells);
  KWB_CHECK_LAUNCH();
}

}  // namespace kwb::cuda
