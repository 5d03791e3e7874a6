// SPDX-License-Identifier: Apache-2.0
#pragma once
// A typed device allocation: move-only, freed by its destructor, so no path leaks it.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>

#include "kwb/cuda/check.h"

namespace kwb::cuda {

template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : m_count(count) {
    if (count > 0) KWB_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&m_ptr), bytes()));
  }
  ~DeviceBuffer() { reset(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : m_ptr(std::exchange(o.m_ptr, nullptr)), m_count(std::exchange(o.m_count, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      reset();
      m_ptr = std::exchange(o.m_ptr, nullptr);
      m_count = std::exchange(o.m_count, 0);
    }
    return *this;
  }

  T* get() const { return m_ptr; }
  std::size_t size() const { return m_count; }
  std::size_t bytes() const { return m_count * sizeof(T); }
  bool empty() const { return m_count == 0; }

  // A destructor must not throw: a failed cudaFree (e.g. after a sticky error) is dropped,
  // and the error it returns is cleared so it is not reported against a later call.
  void reset() noexcept {
    if (m_ptr) {
      if (cudaFree(m_ptr) != cudaSuccess) (void)cudaGetLastError();
    }
    m_ptr = nullptr;
    m_count = 0;
  }

 private:
  T* m_ptr = nullptr;
  std::size_t m_count = 0;
};

}  // namespace kwb::cuda
