// SPDX-License-Identifier: Apache-2.0
#pragma once
// A scratch buffer a launcher keeps on each device between launches (sgemm.warp_tiled's
// split-K partial sums), rather than cudaMallocAsync per launch: the default memory pool's
// release threshold is 0, so every synchronisation (the harness synchronises between timed
// samples) hands the pool's memory back and the next cudaMallocAsync maps it again, host and
// driver work of the order of the kernels it serves; raising the threshold would change
// process-wide state the caller owns. The buffer grows on demand and stays resident like
// cuBLAS's workspace; an outgrown buffer is kept, never freed, because a CUDA graph captured
// on it may still be replayed. Launches on different streams are ordered on it by an event recorded
// after each user's work, which the next user's stream waits on unless it is the same stream
// (not inside a graph capture, where the graph orders the launches and an outside event cannot
// join).
#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>
#include <mutex>
#include <vector>

namespace kwb::kernels::detail {

class WorkspaceCache {
 public:
  // Holds the cache for one launch: the buffer, and the lock that keeps other launches off it
  // until the lease ends (which records the ordering event).
  class Lease {
   public:
    Lease(Lease&&) = delete;
    ~Lease();
    void* data() const { return m_data; }  // null: no buffer (a device index past the cache)

   private:
    friend class WorkspaceCache;
    Lease(std::unique_lock<std::mutex> lock, void* data, cudaEvent_t done, cudaStream_t stream,
          bool capturing)
        : m_lock(std::move(lock)),
          m_data(data),
          m_done(done),
          m_stream(stream),
          m_capturing(capturing) {}
    std::unique_lock<std::mutex> m_lock;
    void* m_data;
    cudaEvent_t m_done;
    cudaStream_t m_stream;
    bool m_capturing;
  };

  // At least `bytes` of device memory on the current device, for work enqueued on `stream`.
  // A new or grown buffer is zero-filled in `stream`'s order: before any work queued on it next.
  Lease acquire(std::size_t bytes, cudaStream_t stream);

 private:
  struct Entry {
    void* data = nullptr;
    std::size_t bytes = 0;
    cudaEvent_t lastUse = nullptr;
    bool used = false;                  // lastStream is set
    unsigned long long lastStream = 0;  // the id (cudaStreamGetId) of the last lease's stream
    std::vector<void*> retired;         // outgrown buffers, kept for graphs that captured them
  };
  std::mutex m_mutex;
  std::array<Entry, 64> m_entries{};
};

}  // namespace kwb::kernels::detail
