// SPDX-License-Identifier: Apache-2.0
#include "kwb/splitmix.h"
#include "kwb/cuda/check.h"
#include "kwb/cuda/vector_kernels.h"

namespace kwb::cuda {
namespace {

constexpr int kThreads = 256;

// The same splitmix64 (kwb/splitmix.h) and grid as kwb::seededMatrix (core/verify/src/seeded.cpp).
__device__ __forceinline__ std::int64_t seededGridIndex(std::uint64_t base, std::int64_t i) {
  const std::uint64_t z = splitmixAt(base, i);
  return std::int64_t(z % 4097u) - 2048;
}

int blocksFor(std::int64_t count) {
  const std::int64_t b = (count + kThreads - 1) / kThreads;
  return int(b < 1 ? 1 : (b > 16384 ? 16384 : b));
}

__device__ __forceinline__ float floatAt(VectorPattern p, std::uint64_t base, std::int64_t i) {
  switch (p) {
    case VectorPattern::kOnes:
      return 1.0f;
    case VectorPattern::kIota:
      return float(i + 1);
    case VectorPattern::kAlternating:
      return (i % 2 == 0) ? 4096.0f + float(i % 7) : float(i % 5) / 2048.0f;
    case VectorPattern::kSeeded:
      break;
  }
  return float(seededGridIndex(base, i)) / 2048.0f;  // exact: a power-of-two division
}

__device__ __forceinline__ int intAt(VectorPattern p, std::uint64_t base, std::int64_t i) {
  switch (p) {
    case VectorPattern::kOnes:
      return 1;
    case VectorPattern::kIota:
      return int(i + 1);
    case VectorPattern::kAlternating:
      return 1000003 * int(i % 3) - 7 * int(i % 11);
    case VectorPattern::kSeeded:
      break;
  }
  return int(seededGridIndex(base, i));
}

__global__ void fillVector(void* dst, std::int64_t count, bool isInt, VectorPattern p,
                           std::uint64_t base) {
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += stride) {
    if (isInt)
      static_cast<int*>(dst)[i] = intAt(p, base, i);
    else
      static_cast<float*>(dst)[i] = floatAt(p, base, i);
  }
}

__global__ void sumSquares(const void* in, std::int64_t count, bool isInt, double* out) {
  __shared__ double partial[kThreads];
  double s = 0.0;
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += stride) {
    const double v =
        isInt ? double(static_cast<const int*>(in)[i]) : double(static_cast<const float*>(in)[i]);
    s += v * v;
  }
  partial[threadIdx.x] = s;
  __syncthreads();
  for (int w = kThreads / 2; w > 0; w /= 2) {
    if (int(threadIdx.x) < w) partial[threadIdx.x] += partial[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, partial[0]);
}

__global__ void countNan(const float* in, std::int64_t count, unsigned long long* out) {
  unsigned long long n = 0;
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    n += in[i] != in[i] ? 1 : 0;
  if (n > 0) atomicAdd(out, n);
}

}  // namespace

void launchCountNan(const float* in, std::int64_t count, unsigned long long* out,
                    CUstream_st* stream) {
  KWB_CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(unsigned long long), stream));
  if (count <= 0) return;
  countNan<<<blocksFor(count), kThreads, 0, stream>>>(in, count, out);
  KWB_CHECK_LAUNCH();
}

void launchFillVector(void* dst, std::int64_t count, bool isInt, VectorPattern pattern,
                      std::uint64_t base, CUstream_st* stream) {
  if (count <= 0) return;
  fillVector<<<blocksFor(count), kThreads, 0, stream>>>(dst, count, isInt, pattern, base);
  KWB_CHECK_LAUNCH();
}

void launchSumSquares(const void* in, std::int64_t count, bool isInt, double* out,
                      CUstream_st* stream) {
  KWB_CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(double), stream));
  if (count <= 0) return;
  sumSquares<<<blocksFor(count), kThreads, 0, stream>>>(in, count, isInt, out);
  KWB_CHECK_LAUNCH();
}

namespace {
__global__ void copy16Kernel(const uint4* __restrict__ src, uint4* __restrict__ dst,
                             std::int64_t vectors) {
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < vectors;
       i += std::int64_t(gridDim.x) * blockDim.x)
    dst[i] = src[i];
}
}  // namespace

void launchCopy16(const void* src, void* dst, std::size_t bytes, CUstream_st* stream) {
  const auto vectors = std::int64_t(bytes / 16);
  if (vectors == 0) return;
  // Many waves of blocks (16 per SM's 8 resident): measured faster than one wave on an H100.
  int sms = 0;
  KWB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const std::int64_t cap = std::int64_t(sms > 0 ? sms : 1) * 8 * 16;
  const std::int64_t need = (vectors + kThreads - 1) / kThreads;
  copy16Kernel<<<unsigned(need < cap ? need : cap), kThreads, 0, stream>>>(
      static_cast<const uint4*>(src), static_cast<uint4*>(dst), vectors);
  KWB_CHECK_LAUNCH();
}

}  // namespace kwb::cuda
