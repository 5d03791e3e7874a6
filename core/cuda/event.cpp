#include "kwb/cuda/event.h"

#include <cuda_runtime_api.h>

#include <utility>

#include "kwb/cuda/check.h"

namespace kwb::cuda {

Event::Event() { KWB_CUDA_CHECK(cudaEventCreate(&m_event)); }

Event::~Event() {
  if (m_event && cudaEventDestroy(m_event) != cudaSuccess) (void)cudaGetLastError();
}

Event::Event(Event&& o) noexcept : m_event(std::exchange(o.m_event, nullptr)) {}

Event& Event::operator=(Event&& o) noexcept {
  if (this != &o) {
    Event dying(std::move(*this));
    m_event = std::exchange(o.m_event, nullptr);
  }
  return *this;
}

void Event::record(CUstream_st* stream) { KWB_CUDA_CHECK(cudaEventRecord(m_event, stream)); }

void Event::synchronize() const { KWB_CUDA_CHECK(cudaEventSynchronize(m_event)); }

float Event::elapsedMsSince(const Event& start) const {
  float ms = 0.0f;
  KWB_CUDA_CHECK(cudaEventElapsedTime(&ms, start.m_event, m_event));
  return ms;
}

}  // namespace kwb::cuda
