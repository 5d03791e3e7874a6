// SPDX-License-Identifier: Apache-2.0
// The launchers' scratch cache (kernels/detail/workspace.h): a new buffer is zero from the point
// of view of the stream that asked for it, whatever the legacy default stream is doing. The
// cache once zero-filled it on the legacy stream, which the engine's non-blocking streams do not
// wait for, and sgemm.wgmma's split-K counters started dirty (C left unwritten in `kwb tune`).
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

TEST_F(Workspace, ANewBufferIsZeroOnTheAskingStreamWhileTheLegacyStreamIsHeld) {
  constexpr std::size_t kBytes = std::size_t(64) << 20;
  // Memory of this size, last filled with a pattern and freed: the cache's allocation likely
  // gets it back, so a fill that has not landed shows as the pattern rather than as zeros.
  void* recycled = nullptr;
  KWB_CUDA_CHECK(cudaMalloc(&recycled, kBytes));
  KWB_CUDA_CHECK(cudaMemset(recycled, 0xAB, kBytes));
  KWB_CUDA_CHECK(cudaDeviceSynchronize());
  KWB_CUDA_CHECK(cudaFree(recycled));

  const kwb::cuda::Stream stream;          // non-blocking, as the engine's
  kwb::cuda::BlockingKernel held(2.0, 0);  // gives up after 2 s: the test cannot hang
  held.block(cudaStreamLegacy);            // what is queued on the legacy stream now waits
  std::vector<unsigned char> host(kBytes, 0xCD);
  WorkspaceCache cache;
  {
    const WorkspaceCache::Lease lease = cache.acquire(kBytes, stream.get());
    ASSERT_NE(lease.data(), nullptr);
    KWB_CUDA_CHECK(
        cudaMemcpyAsync(host.data(), lease.data(), kBytes, cudaMemcpyDeviceToHost, stream.get()));
  }
  KWB_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
  held.release();
  KWB_CUDA_CHECK(cudaDeviceSynchronize());
  const auto nonZero = std::count_if(host.begin(), host.end(), [](unsigned char b) { return b; });
  EXPECT_EQ(nonZero, 0) << "bytes of the new buffer not yet zero on the stream that asked for it";
  // Where cudaMalloc waits for the device, the blocker times out first and the fill lands
  // before the copy whichever stream it is on: the check then could not fail. Said, not hidden.
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

}  // namespace
