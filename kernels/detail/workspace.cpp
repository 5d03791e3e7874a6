// SPDX-License-Identifier: Apache-2.0
#include "detail/workspace.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "kwb/cuda/check.h"

namespace kwb::kernels::detail {
namespace {

// Measurement builds: KWB_WORKSPACE_WAIT=always waits on the last use's event on every launch,
// as before the same-stream case skipped it, to time the two side by side.
bool waitAlways() {
#ifdef KWB_PERF_EXPERIMENT
  static const bool always = [] {
    const char* e = std::getenv("KWB_WORKSPACE_WAIT");
    return e != nullptr && std::strcmp(e, "always") == 0;
  }();
  return always;
#else
  return false;
#endif
}

}  // namespace

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
    // The old buffer is kept, not freed: a CUDA graph captured earlier (a case verified and
    // readied for the rounds, timed after later cases grew the buffer) still launches on it.
    // Freeing it made such a case's timing read freed memory (an illegal address found by
    // `kwb tune --kernel sgemm.warp_tiled --shapes 512,1024,4096`). Growth at least doubles, so
    // the kept buffers total less than the newest.
    if (e.data != nullptr) e.retired.push_back(e.data);
    const std::size_t grown = std::max(bytes, 2 * e.bytes);
    e.data = nullptr;
    e.bytes = 0;
    KWB_CUDA_CHECK(cudaMalloc(&e.data, grown));
    // The zero fill goes on the caller's stream, ahead of its work. cudaMemset queues on the
    // legacy default stream, which the engine's non-blocking streams never wait for: the first
    // kernel on the new buffer could run before the fill landed or while it did, and split-K
    // lost arrival counts (no warp saw its tile's last arrival: C left unwritten, or summed
    // from stale partials) in that launch. `kwb tune --kernel sgemm.wgmma` found it at
    // 3072^3-8192^3, more often where a pool's worker had grown the buffers on its largest
    // shape first. A capture does not grow a buffer (every case runs
    // uncaptured first, at the same sizes); were one to, its fill stays out of the graph.
    if (capturing)
      KWB_CUDA_CHECK(cudaMemset(e.data, 0, grown));
    else
      KWB_CUDA_CHECK(cudaMemsetAsync(e.data, 0, grown, stream));
    e.bytes = grown;
  }
  if (!capturing) {
    // Work on the stream that used the buffer last is ordered after that use already; a wait
    // on the event there only cost host and front-end time on every launch. Streams are told
    // apart by their ids, which a context never reuses (a handle may be).
    unsigned long long id = 0;
    KWB_CUDA_CHECK(cudaStreamGetId(stream, &id));
    if (!(e.used && e.lastStream == id) || waitAlways())
      KWB_CUDA_CHECK(cudaStreamWaitEvent(stream, e.lastUse, 0));
    e.used = true;
    e.lastStream = id;
  }
  return Lease(std::move(lock), e.data, e.lastUse, stream, capturing);
}

}  // namespace kwb::kernels::detail
