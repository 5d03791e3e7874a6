#pragma once
// Host helper shared by launchers that size their block tile to the GPU: the current device's
// multiprocessor count, queried once per device and cached (a launch must not pay an attribute
// query; the count never changes while the process runs).
#include <cuda_runtime_api.h>

#include <atomic>

#include "kwb/cuda/check.h"

namespace kwb::kernels::detail {

inline int multiprocessors() {
  constexpr int kMaxDevices = 64;
  static std::atomic<int> cached[kMaxDevices];  // 0 = not queried yet
  int device = 0;
  KWB_CUDA_CHECK(cudaGetDevice(&device));
  int sms = device < kMaxDevices ? cached[device].load(std::memory_order_relaxed) : 0;
  if (sms == 0) {
    KWB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    if (device < kMaxDevices) cached[device].store(sms, std::memory_order_relaxed);
  }
  return sms;
}

}  // namespace kwb::kernels::detail
