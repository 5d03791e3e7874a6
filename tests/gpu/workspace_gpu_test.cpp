// SPDX-License-Identifier: Apache-2.0
// The launchers' scratch cache (kernels/detail/workspace.h): a new buffer is zero in the order of
// the stream that asked for it, whatever the legacy default stream is doing. The cache once
// zero-filled it on the legacy stream, which the engine's non-blocking streams do not wait for,
// and sgemm.wgmma's split-K counters were wiped under its first launch (C left unwritten).
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <iostream>
#include <vector>

#include "detail/workspace.h"
#include "gpu_fixture.h"
#include "kwb/cuda/blocking_kernel.h"
#include "kwb/cuda/check.h"
#include "kwb/cuda/stream.h"

namespace {

using kwb::kernels::detail::WorkspaceCache;

class Workspace : public GpuTest {};

// The split-K failure, reduced: the first kernel on a new buffer writes it (the arrival counts),
// then a zero fill that was queued elsewhere lands and wipes what it wrote. Here the legacy stream
// is held while the buffer is asked for and written on the engine's stream, and released after:
// a fill queued on the legacy stream runs last and leaves zeros; one in the stream's order ran
// first and leaves the write. Whatever the new memory held before does not matter.
TEST_F(Workspace, ANewBufferIsFilledBeforeTheAskingStreamsFirstWriteNotAfter) {
  constexpr std::size_t kBytes = std::size_t(16) << 20;
  const kwb::cuda::Stream stream;          // non-blocking, as the engine's
  kwb::cuda::BlockingKernel held(2.0, 0);  // gives up after 2 s: the test cannot hang
  held.block(cudaStreamLegacy);            // what is queued on the legacy stream now waits
  WorkspaceCache cache;
  void* data = nullptr;
  {
    const WorkspaceCache::Lease lease = cache.acquire(kBytes, stream.get());
    data = lease.data();
    ASSERT_NE(data, nullptr);
    KWB_CUDA_CHECK(cudaMemsetAsync(data, 0x77, kBytes, stream.get()));  // the first user's write
  }
  KWB_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
  held.release();
  KWB_CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<unsigned char> host(kBytes, 0);
  KWB_CUDA_CHECK(cudaMemcpy(host.data(), data, kBytes, cudaMemcpyDeviceToHost));
  const auto lost =
      std::count_if(host.begin(), host.end(), [](unsigned char b) { return b != 0x77; });
  EXPECT_EQ(lost, 0) << "bytes of the first user's write wiped by the buffer's zero fill";
  // Where cudaMalloc waits for the device, the blocker times out first and the fill lands
  // before the write whichever stream it is on: the check then could not fail. Said, not hidden.
  if (held.timedOut())
    std::cout << "note: the allocation waited for the held legacy stream on this driver\n";
}

TEST_F(Workspace, AGrownBufferIsZeroAndTheSmallerRequestReusesIt) {
  const kwb::cuda::Stream stream;
  WorkspaceCache cache;
  void* first = nullptr;
  {
    const WorkspaceCache::Lease lease = cache.acquire(1 << 20, stream.get());
    first = lease.data();
    KWB_CUDA_CHECK(cudaMemsetAsync(first, 0x5A, 1 << 20, stream.get()));  // used: dirty
  }
  {
    const WorkspaceCache::Lease lease = cache.acquire(1 << 19, stream.get());
    EXPECT_EQ(lease.data(), first) << "a request that fits reuses the buffer";
  }
  std::vector<unsigned char> host(std::size_t(4) << 20, 0xCD);
  {
    const WorkspaceCache::Lease lease = cache.acquire(host.size(), stream.get());
    EXPECT_NE(lease.data(), first) << "a larger request grows the buffer";
    KWB_CUDA_CHECK(cudaMemcpyAsync(host.data(), lease.data(), host.size(), cudaMemcpyDeviceToHost,
                                   stream.get()));
  }
  KWB_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
  EXPECT_EQ(std::count_if(host.begin(), host.end(), [](unsigned char b) { return b; }), 0);
}

// Two users on two streams: the cache skips the wait for work on the stream that used the buffer
// last, but another stream's work still waits for that use. The earlier user's stream is held
// behind a blocker when it writes, so an unordered later write lands first and is overwritten;
// in order, the later write is what stays. Then the same the other way round: the first stream,
// back after the second used the buffer, waits for the second.
TEST_F(Workspace, AnotherStreamWaitsForTheLastUseWhicheverStreamThatWas) {
  constexpr std::size_t kBytes = std::size_t(1) << 20;
  const kwb::cuda::Stream first, second;
  WorkspaceCache cache;
  void* data = nullptr;
  {
    const WorkspaceCache::Lease warm = cache.acquire(kBytes, first.get());  // made and filled
    data = warm.data();
    ASSERT_NE(data, nullptr);
  }
  KWB_CUDA_CHECK(cudaStreamSynchronize(first.get()));
  // Writes `earlier` on the held stream a, then `later` on stream b; returns the bytes that are
  // not `later` once both ran.
  auto unordered = [&](cudaStream_t a, cudaStream_t b, int earlier, int later) {
    kwb::cuda::BlockingKernel held(2.0, 0);  // gives up after 2 s: the test cannot hang
    held.block(a);
    {
      const WorkspaceCache::Lease lease = cache.acquire(kBytes, a);
      KWB_CUDA_CHECK(cudaMemsetAsync(lease.data(), earlier, kBytes, a));
    }
    {
      const WorkspaceCache::Lease lease = cache.acquire(kBytes, b);
      KWB_CUDA_CHECK(cudaMemsetAsync(lease.data(), later, kBytes, b));
    }
    held.release();
    KWB_CUDA_CHECK(cudaDeviceSynchronize());
    EXPECT_FALSE(held.timedOut()) << "the blocker gave up before it was released";
    std::vector<unsigned char> host(kBytes, 0);
    KWB_CUDA_CHECK(cudaMemcpy(host.data(), data, kBytes, cudaMemcpyDeviceToHost));
    return std::count_if(host.begin(), host.end(),
                         [&](unsigned char v) { return v != (unsigned char)later; });
  };
  EXPECT_EQ(unordered(first.get(), second.get(), 0x11, 0x22), 0)
      << "the second stream wrote before the first stream's use ended";
  EXPECT_EQ(unordered(second.get(), first.get(), 0x33, 0x44), 0)
      << "the first stream, back after the second, wrote before the second's use ended";
}

}  // namespace
