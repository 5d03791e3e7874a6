// SPDX-License-Identifier: Apache-2.0
#include "kwb/cuda/stream.h"

#include <cuda_runtime_api.h>

#include <utility>

#include "kwb/cuda/check.h"

namespace kwb::cuda {

Stream::Stream() { KWB_CUDA_CHECK(cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking)); }

Stream::~Stream() {
  if (m_stream && cudaStreamDestroy(m_stream) != cudaSuccess) (void)cudaGetLastError();
}

Stream::Stream(Stream&& o) noexcept : m_stream(std::exchange(o.m_stream, nullptr)) {}

Stream& Stream::operator=(Stream&& o) noexcept {
  if (this != &o) {
    Stream dying(std::move(*this));
    m_stream = std::exchange(o.m_stream, nullptr);
  }
  return *this;
}

void Stream::synchronize() const { KWB_CUDA_CHECK(cudaStreamSynchronize(m_stream)); }

}  // namespace kwb::cuda
