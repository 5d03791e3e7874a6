// SPDX-License-Identifier: Apache-2.0
#include "detail/workspace.h"

#include "kwb/cuda/check.h"

namespace kwb::kernels::detail {

WorkspaceCache::Lease::~Lease() {
  // A destructor must not throw: a failure to record shows up at the next CUDA call.
  if (m_data != nullptr && !m_capturing) (void)cudaEventRecord(m_done, m_stream);
}

WorkspaceCache::Lease WorkspaceCache::acquire(std::size_t bytes, cudaStream_t stream) {
  std::unique_lock<std::mutex> lock(m_mutex);
  int device = 0;
  KWB_CUDA_CHECK(cudaGetDevice(&device));
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  KWB_CUDA_CHECK(cudaStreamIsCapturing(stream, &capture));
  const bool capturing = capture != cudaStreamCaptureStatusNone;
  if (device < 0 || device >= int(m_entries.size()))
    return Lease(std::move(lock), nullptr, nullptr, stream, capturing);
  Entry& e = m_entries[std::size_t(device)];
  if (e.lastUse == nullptr)
    KWB_CUDA_CHECK(cudaEventCreateWithFlags(&e.lastUse, cudaEventDisableTiming));
  if (e.bytes < bytes) {
    // cudaFree waits for the device, so no earlier launch still reads the old buffer.
    if (e.data != nullptr) KWB_CUDA_CHECK(cudaFree(e.data));
    e.data = nullptr;
    e.bytes = 0;
    KWB_CUDA_CHECK(cudaMalloc(&e.data, bytes));
    KWB_CUDA_CHECK(cudaMemset(e.data, 0, bytes));
    e.bytes = bytes;
  }
  if (!capturing) KWB_CUDA_CHECK(cudaStreamWaitEvent(stream, e.lastUse, 0));
  return Lease(std::move(lock), e.data, e.lastUse, stream, capturing);
}

}  // namespace kwb::kernels::detail
