// SPDX-License-Identifier: Apache-2.0
#pragma once
// Device helpers of the 1-D families' pipeline (docs/FAMILIES.md): inputs from the seed or a
// test pattern, and the sum of squares the float tolerance is scaled by. Plain C++17, so nvcc
// and the host compiler both read it; also the copy that measures the bandwidth roof. Every
// launcher throws CudaError when the launch fails.
#include <cstddef>
#include <cstdint>

struct CUstream_st;

namespace kwb::cuda {

enum class VectorPattern {
  kSeeded,       // the seeded grid k / 2048, k = -2048 … 2048 (int32: k itself)
  kOnes,         // every element 1: a scan gives 1 … n
  kIota,         // element i is i + 1: a reduce gives n (n + 1) / 2
  kAlternating,  // large and small alternately (float 4096 + i mod 7, then 2^-11 · (i mod 5);
                 // int32 1 000 003 · (i mod 3) − 7 · (i mod 11)): a wrong order shows
};

// `count` elements of 4 bytes each: float if !isInt, else int32. `base` is seededBase(...).
void launchFillVector(void* dst, std::int64_t count, bool isInt, VectorPattern pattern,
                      std::uint64_t base, CUstream_st* stream);

// *out (device memory) = Σ x_i² in double (exact for the seeded grid: every square is a
// multiple of 2^-22). Zeroed here first.
void launchSumSquares(const void* in, std::int64_t count, bool isInt, double* out,
                      CUstream_st* stream);

// *out (device memory) = how many of the `count` floats at `in` are NaN. Zeroed here first.
void launchCountNan(const float* in, std::int64_t count, unsigned long long* out,
                    CUstream_st* stream);

// The copy that sets the 1-D families' bandwidth roof: `bytes` (a multiple of 16, both
// pointers 16-byte aligned) from src to dst by a grid-stride kernel of 16-byte loads and
// stores. On an H100 it moves 2.92 TB/s read + write where cudaMemcpyAsync device-to-device
// moves 2.44 (1 GiB each); the roof is the faster copy the device can do, not the driver's.
void launchCopy16(const void* src, void* dst, std::size_t bytes, CUstream_st* stream);

}  // namespace kwb::cuda
