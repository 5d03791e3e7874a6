// SPDX-License-Identifier: Apache-2.0
#include "sort/sort_data.h"

#include <climits>

#include "kwb/splitmix.h"
#include "sort/sort_common.cuh"

namespace kwb::kernels::sort {
namespace {

constexpr int kThreads = 256;

// splitmix64's finaliser, as kwb's seeded generators use it (kwb/splitmix.h).
__host__ __device__ inline std::uint64_t mix(std::uint64_t z) { return splitmixFinalise(z); }

unsigned blocksFor(std::int64_t count) {
  const std::int64_t b = (count + kThreads - 1) / kThreads;
  return unsigned(b < 1 ? 1 : (b > 16384 ? 16384 : b));
}

// A seeded f32 key: 1 in 16 a special value (±0, ±inf, quiet and signalling NaNs of either
// sign, with payloads), 1 in 4 a duplicate from 64 small values, else any finite float.
__device__ std::uint32_t seededFloat(std::uint64_t h) {
  const auto bits = std::uint32_t(h >> 32);
  const unsigned pick = unsigned(h >> 8) & 63u;
  switch (pick) {
    case 0:
      return 0x80000000u;  // -0.0
    case 1:
      return 0x00000000u;  // +0.0
    case 2:
      return 0x7f800000u;  // +inf
    case 3:
      return 0xff800000u;  // -inf
    case 4:
      return 0x7fc00000u | (bits & 0x003fffffu);  // quiet NaN
    case 5:
      return 0xffc00000u | (bits & 0x003fffffu);  // negative quiet NaN
    case 6:
      return 0x7f800001u | (bits & 0x001fffffu);  // signalling NaN
    case 7:
      return 0xff800001u | (bits & 0x001fffffu);  // negative signalling NaN
    default:
      break;
  }
  if (pick < 24) {  // duplicates: -8.0 .. 7.75 in steps of 0.25
    const float v = float(int(bits % 64u) - 32) * 0.25f;
    return __float_as_uint(v);
  }
  // Any finite float (subnormals included): an all-ones exponent is turned into a finite one.
  return (bits & 0x7f800000u) == 0x7f800000u ? bits ^ 0x40000000u : bits;
}

__global__ void fillKernel(std::uint32_t* keys, std::uint32_t* values, std::int64_t n, bool isFloat,
                           std::uint64_t base) {
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const std::uint64_t h = mix(base + std::uint64_t(i) * kSplitmixGolden);
    if (isFloat)
      keys[i] = seededFloat(h);
    else
      keys[i] = (h & 3u) == 0 ? std::uint32_t(h >> 32) % 1024u : std::uint32_t(h >> 32);
    if (values) values[i] = std::uint32_t(i);
  }
}

template <bool kFloat>
__global__ void checkKernel(SortCheckArgs a, SortCheck* r) {
  unsigned long long inHash = 0, outHash = 0;
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < a.count;
       i += stride) {
    const std::uint32_t k = a.keysOut[i], e = a.keysRef[i];
    const std::uint32_t v = a.pairs ? a.valuesOut[i] : 0u, ev = a.pairs ? a.valuesRef[i] : 0u;
    inHash += mix(a.keysIn[i] + kSplitmixGolden);
    outHash += mix(k + kSplitmixGolden);
    if (k != e || v != ev) {
      atomicAdd(&r->mismatches, 1ull);
      if ((k == kSortCanary && e != kSortCanary) || (a.pairs && v == kSortCanary && ev != v))
        atomicAdd(&r->unwritten, 1ull);
      atomicMin(&r->firstMismatch, (long long)i);
    }
    if (i > 0) {
      const std::uint32_t before = orderedBits<kFloat>(a.keysOut[i - 1]);
      const std::uint32_t here = orderedBits<kFloat>(k);
      if (before > here) atomicAdd(&r->outOfOrder, 1ull);
      if (a.pairs && before == here && a.valuesOut[i - 1] >= v) atomicAdd(&r->unstable, 1ull);
    }
    if (a.pairs) {
      bool bad = std::int64_t(v) >= a.count;
      if (!bad) {
        const std::uint32_t bit = 1u << (v % 32u);
        bad = (atomicOr(&a.seen[v / 32u], bit) & bit) != 0 || a.keysIn[v] != k;
      }
      if (bad) atomicAdd(&r->notPermutation, 1ull);
    }
  }
  if (inHash) atomicAdd(&r->inputHash, inHash);
  if (outHash) atomicAdd(&r->outputHash, outHash);
}

__global__ void firstMismatchKernel(SortCheckArgs a, SortCheck* r) {
  const long long i = r->firstMismatch;
  if (i < 0 || i >= a.count) return;
  r->gotKey = a.keysOut[i];
  r->expectedKey = a.keysRef[i];
  if (a.pairs) {
    r->gotValue = a.valuesOut[i];
    r->expectedValue = a.valuesRef[i];
  }
}

__global__ void swapKernel(std::uint32_t* keys, std::uint32_t* values, std::int64_t i,
                           std::int64_t j) {
  const std::uint32_t k = keys[i];
  keys[i] = keys[j];
  keys[j] = k;
  if (values) {
    const std::uint32_t v = values[i];
    values[i] = values[j];
    values[j] = v;
  }
}

}  // namespace

void fillSortInput(std::uint32_t* keys, std::uint32_t* values, std::int64_t count, KeyType type,
                   std::uint64_t base, CUstream_st* stream) {
  if (count <= 0) return;
  fillKernel<<<blocksFor(count), kThreads, 0, stream>>>(keys, values, count, type == KeyType::kF32,
                                                        base);
  KWB_CHECK_LAUNCH();
}

std::uint32_t orderedKey(std::uint32_t bits, KeyType type) {
  return type == KeyType::kF32 ? orderedBits<true>(bits) : orderedBits<false>(bits);
}

SortCheck checkSort(const SortCheckArgs& a, SortCheck* deviceResult) {
  SortCheck init;
  init.firstMismatch = LLONG_MAX;
  KWB_CUDA_CHECK(
      cudaMemcpyAsync(deviceResult, &init, sizeof init, cudaMemcpyHostToDevice, a.stream));
  if (a.pairs && a.count > 0)
    KWB_CUDA_CHECK(cudaMemsetAsync(a.seen, 0, std::size_t((a.count + 31) / 32) * 4, a.stream));
  if (a.count > 0) {
    if (a.type == KeyType::kF32)
      checkKernel<true><<<blocksFor(a.count), kThreads, 0, a.stream>>>(a, deviceResult);
    else
      checkKernel<false><<<blocksFor(a.count), kThreads, 0, a.stream>>>(a, deviceResult);
    KWB_CHECK_LAUNCH();
    firstMismatchKernel<<<1, 1, 0, a.stream>>>(a, deviceResult);
    KWB_CHECK_LAUNCH();
  }
  SortCheck r;
  KWB_CUDA_CHECK(cudaMemcpyAsync(&r, deviceResult, sizeof r, cudaMemcpyDeviceToHost, a.stream));
  KWB_CUDA_CHECK(cudaStreamSynchronize(a.stream));
  if (r.firstMismatch == LLONG_MAX) r.firstMismatch = -1;
  return r;
}

void swapElements(std::uint32_t* keys, std::uint32_t* values, std::int64_t i, std::int64_t j,
                  CUstream_st* stream) {
  swapKernel<<<1, 1, 0, stream>>>(keys, values, i, j);
  KWB_CHECK_LAUNCH();
}

}  // namespace kwb::kernels::sort
