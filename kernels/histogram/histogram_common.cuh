// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the histogram kernels share: a sample's bin on the device (histogram_bins.h), the
// launcher's switch on the sample type, 16-byte vectors of samples, and grid sizing.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "detail/multiprocessors.h"
#include "histogram/histogram_args.h"
#include "histogram/histogram_bins.h"
#include "kwb/cuda/check.h"

namespace kwb::kernels::hist {

// The bin of a sample, or -1 when the sample is out of range (f32 only).
__device__ __forceinline__ int binOf(std::uint8_t s, int bins) { return binOfU8(s, bins); }
__device__ __forceinline__ int binOf(float s, int bins) {
  return inRangeF32(s) ? binOfF32(s, bins) : -1;
}

// Samples in one 16-byte load: 16 u8 or 4 f32.
template <typename T>
inline constexpr int kPerVector = 16 / int(sizeof(T));

// Sample j of a 16-byte vector (j a compile-time constant after unrolling).
template <typename T>
__device__ __forceinline__ T sampleOf(const uint4& v, int j);
template <>
__device__ __forceinline__ std::uint8_t sampleOf<std::uint8_t>(const uint4& v, int j) {
  const unsigned w = j < 4 ? v.x : j < 8 ? v.y : j < 12 ? v.z : v.w;
  return std::uint8_t(__byte_perm(w, 0, 0x4440u + unsigned(j & 3)));
}
template <>
__device__ __forceinline__ float sampleOf<float>(const uint4& v, int j) {
  return __uint_as_float(j == 0 ? v.x : j == 1 ? v.y : j == 2 ? v.z : v.w);
}

// Samples before the first 16-byte boundary of p, at most n: a scalar head before the vectors.
inline std::int64_t headSamples(const void* p, std::int64_t n, std::size_t bytes) {
  const auto misaligned = std::int64_t(reinterpret_cast<std::uintptr_t>(p) & 15u);
  return std::min<std::int64_t>(n, misaligned == 0 ? 0 : (16 - misaligned) / std::int64_t(bytes));
}

using detail::gridFor;  // blocks for a grid-stride kernel (detail/multiprocessors.h)

// Calls f(std::uint8_t{}) or f(float{}) for the launch's sample type: every kernel is a
// template on the sample type, and the launcher instantiates both.
template <typename F>
void dispatch(SampleType type, F&& f) {
  if (type == SampleType::kU8)
    f(std::uint8_t{});
  else
    f(float{});
}

// Every launcher starts from zeroed counters (its kernels add into them).
inline void clearHistogram(const HistogramArgs& a) {
  KWB_CUDA_CHECK(cudaMemsetAsync(a.histogram, 0, std::size_t(a.bins) * sizeof(unsigned), a.stream));
}

}  // namespace kwb::kernels::hist
