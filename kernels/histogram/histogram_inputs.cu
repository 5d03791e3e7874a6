// SPDX-License-Identifier: Apache-2.0
#include <cmath>

#include "kwb/splitmix.h"
#include "histogram/histogram_common.cuh"
#include "histogram/histogram_inputs.h"

namespace kwb::kernels {
namespace {

constexpr int kThreads = 256;

// Element i of the stream at `base`, as kwb's seeded generators draw it (kwb/splitmix.h).
__device__ __forceinline__ std::uint64_t mix(std::uint64_t base, std::int64_t i) {
  return splitmixAt(base, i);
}

// A rank in [0, cells) with P(rank ≥ x) falling as a logarithm: density ∝ 1 / (x + 1), Zipf's
// law with exponent 1 (inverse transform of the continuous law).
__device__ __forceinline__ int zipfRank(float u, int cells) {
  const int r = int(exp2f(u * log2f(float(cells) + 1.0f))) - 1;
  return r < 0 ? 0 : (r >= cells ? cells - 1 : r);
}

// The hot cell of one-bin input, drawn from the seed (not always bin 0).
__device__ __forceinline__ int hotCell(std::uint64_t base, int cells) {
  return int((base >> 24) % std::uint64_t(cells));
}

__device__ __forceinline__ std::uint8_t sampleU8(std::uint64_t h, Distribution d,
                                                 std::uint64_t base) {
  switch (d) {
    case Distribution::kZipf:
      return std::uint8_t(zipfRank(float(h >> 40) * 0x1p-24f, 256));
    case Distribution::kOneBin:
      return std::uint8_t(hotCell(base, 256));
    case Distribution::kUniform:
      break;
  }
  return std::uint8_t(h >> 56);
}

// Out of range, four ways: NaN, negative, exactly 1, above 1 (or +inf).
__device__ __forceinline__ float outlier(std::uint64_t h, float u) {
  switch ((h >> 6) & 3u) {
    case 0:
      return __int_as_float(0x7fc00000);
    case 1:
      return -(u + 0x1p-24f);
    case 2:
      return 1.0f;
    default:
      return (h & 256u) ? __int_as_float(0x7f800000) : 1.0f + 1000.0f * u;
  }
}

__device__ __forceinline__ float sampleF32(std::uint64_t h, Distribution d, int bins,
                                           std::uint64_t base) {
  const float u = float(h >> 40) * 0x1p-24f;  // [0, 1) on a 2^-24 grid
  if ((h & 63u) == 0) return outlier(h, u);
  switch (d) {
    case Distribution::kZipf:  // a rank, then a point inside its bin (the sum is exact)
      return (float(zipfRank(u, bins)) + float((h >> 16) & 255u) / 256.0f) / float(bins);
    case Distribution::kOneBin:
      return (float(hotCell(base, bins)) + 0.5f) / float(bins);
    case Distribution::kUniform:
      break;
  }
  return u;
}

__global__ void fillSamples(void* dst, std::int64_t n, SampleType type, int bins, Distribution d,
                            std::uint64_t base) {
  const std::int64_t stride = std::int64_t(gridDim.x) * kThreads;
  for (std::int64_t i = std::int64_t(blockIdx.x) * kThreads + threadIdx.x; i < n; i += stride) {
    const std::uint64_t h = mix(base, i);
    if (type == SampleType::kU8)
      static_cast<std::uint8_t*>(dst)[i] = sampleU8(h, d, base);
    else
      static_cast<float*>(dst)[i] = sampleF32(h, d, bins, base);
  }
}

__global__ void fillKnownAnswer(void* dst, std::int64_t n, SampleType type) {
  const std::int64_t stride = std::int64_t(gridDim.x) * kThreads;
  for (std::int64_t i = std::int64_t(blockIdx.x) * kThreads + threadIdx.x; i < n; i += stride) {
    const int bin = int(i % 256);
    if (type == SampleType::kU8)
      static_cast<std::uint8_t*>(dst)[i] = std::uint8_t(bin);
    else
      static_cast<float*>(dst)[i] = (float(bin) + 0.5f) / 256.0f;
  }
}

__global__ void countInRange(const void* samples, std::int64_t n, SampleType type,
                             unsigned long long* out) {
  __shared__ unsigned long long partial[kThreads];
  unsigned long long c = 0;
  const std::int64_t stride = std::int64_t(gridDim.x) * kThreads;
  for (std::int64_t i = std::int64_t(blockIdx.x) * kThreads + threadIdx.x; i < n; i += stride)
    c += type == SampleType::kU8 ? 1u : unsigned(inRangeF32(static_cast<const float*>(samples)[i]));
  partial[threadIdx.x] = c;
  __syncthreads();
  for (int w = kThreads / 2; w > 0; w /= 2) {
    if (int(threadIdx.x) < w) partial[threadIdx.x] += partial[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, partial[0]);
}

unsigned blocksFor(std::int64_t n) { return hist::gridFor(n, kThreads, 2048 / kThreads * 4); }

}  // namespace

void launchFillSamples(void* dst, std::int64_t count, SampleType type, int bins, Distribution d,
                       std::uint64_t base, CUstream_st* stream) {
  if (count <= 0) return;
  fillSamples<<<blocksFor(count), kThreads, 0, stream>>>(dst, count, type, bins, d, base);
  KWB_CHECK_LAUNCH();
}

void launchFillKnownAnswer(void* dst, std::int64_t count, SampleType type, CUstream_st* stream) {
  if (count <= 0) return;
  fillKnownAnswer<<<blocksFor(count), kThreads, 0, stream>>>(dst, count, type);
  KWB_CHECK_LAUNCH();
}

void launchCountInRange(const void* samples, std::int64_t count, SampleType type,
                        unsigned long long* out, CUstream_st* stream) {
  KWB_CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(unsigned long long), stream));
  if (count <= 0) return;
  countInRange<<<blocksFor(count), kThreads, 0, stream>>>(samples, count, type, out);
  KWB_CHECK_LAUNCH();
}

}  // namespace kwb::kernels
