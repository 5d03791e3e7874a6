// SPDX-License-Identifier: Apache-2.0
#pragma once
// Host helpers shared by launchers that size their work to the GPU: a per-device cache of a
// device property (a launch must not pay an attribute query; the value never changes while the
// process runs), and the multiprocessor count and compute capability through it.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <cstdint>

#include "kwb/cuda/check.h"

namespace kwb::kernels::detail {

// One slot per device index below 64 (0 = not known yet); `query` computes a positive value
// for the current device, asked again for devices beyond the cache. Each caller holds its own
// cache: `static std::atomic<int> cache[kMaxCachedDevices];`.
inline constexpr int kMaxCachedDevices = 64;
template <class Query>
int cachedPerDevice(std::atomic<int> (&cache)[kMaxCachedDevices], Query query) {
  int device = 0;
  KWB_CUDA_CHECK(cudaGetDevice(&device));
  const bool slot = device < kMaxCachedDevices;
  int v = slot ? cache[device].load(std::memory_order_relaxed) : 0;
  if (v == 0) {
    v = query(device);
    if (slot) cache[device].store(v, std::memory_order_relaxed);
  }
  return v;
}

inline int multiprocessors() {
  static std::atomic<int> cache[kMaxCachedDevices];
  return cachedPerDevice(cache, [](int device) {
    int sms = 0;
    KWB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    return sms;
  });
}

// Shared memory one multiprocessor holds, in bytes, for all its resident blocks together (228 KiB
// on Hopper; each block also takes 1 KiB the system reserves).
inline int sharedMemoryPerMultiprocessor() {
  static std::atomic<int> cache[kMaxCachedDevices];
  return cachedPerDevice(cache, [](int device) {
    int bytes = 0;
    KWB_CUDA_CHECK(
        cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device));
    return bytes;
  });
}

// The current device's compute capability as major · 10 + minor (90 for Hopper).
inline int computeCapability() {
  static std::atomic<int> cache[kMaxCachedDevices];
  return cachedPerDevice(cache, [](int device) {
    int major = 0, minor = 0;
    KWB_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    KWB_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
    return major * 10 + minor;
  });
}

// Blocks for a grid-stride kernel: enough to cover n at `perBlock` items each, capped at
// `maxPerSm` resident blocks per multiprocessor (and so far below gridDim.x's 2^31 - 1).
inline unsigned gridFor(std::int64_t n, std::int64_t perBlock, int maxPerSm) {
  const std::int64_t cap = std::int64_t(multiprocessors()) * maxPerSm;
  return unsigned(std::clamp<std::int64_t>((n + perBlock - 1) / perBlock, 1, cap));
}

}  // namespace kwb::kernels::detail
