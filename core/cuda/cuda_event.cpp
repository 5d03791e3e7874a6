// SPDX-License-Identifier: Apache-2.0
#include "kwb/cuda/cuda_event.h"

#include <cuda_runtime_api.h>

#include <utility>

#include "kwb/cuda/check.h"

namespace kwb::cuda {

CudaEvent::CudaEvent() { KWB_CUDA_CHECK(cudaEventCreate(&m_event)); }

CudaEvent::~CudaEvent() {
  if (m_event && cudaEventDestroy(m_event) != cudaSuccess) (void)cudaGetLastError();
}

CudaEvent::CudaEvent(CudaEvent&& o) noexcept : m_event(std::exchange(o.m_event, nullptr)) {}

CudaEvent& CudaEvent::operator=(CudaEvent&& o) noexcept {
  if (this != &o) {
    CudaEvent dying(std::move(*this));
    m_event = std::exchange(o.m_event, nullptr);
  }
  return *this;
}

void CudaEvent::record(CUstream_st* stream) { KWB_CUDA_CHECK(cudaEventRecord(m_event, stream)); }

void CudaEvent::synchronize() const { KWB_CUDA_CHECK(cudaEventSynchronize(m_event)); }

float CudaEvent::elapsedMsSince(const CudaEvent& start) const {
  float ms = 0.0f;
  KWB_CUDA_CHECK(cudaEventElapsedTime(&ms, start.m_event, m_event));
  return ms;
}

}  // namespace kwb::cuda
