// SPDX-License-Identifier: Apache-2.0
// Every registered reduce and scan kernel (stages and CUB references), parameterised over the
// registry so a new stage is covered the day it is registered:
// - the full correctness pipeline (canary, FP64 / exact int reference, negative control) at
//   counts around every tile, warp and vector boundary, in both element types;
// - input and output that start 4, 8 or 12 bytes past a 16-byte boundary (the vectorised
//   paths' scalar head), int32 compared bit for bit with CUB on the same pointers;
// - a second launch on the same buffers gives the same answer (atomics, counters and tile
//   statuses are reset by the launch itself, not by a fresh allocation), and launches of other
//   sizes in between leave nothing behind that the next one reads.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpu_fixture.h"
#include "kwb/cuda/check.h"
#include "kwb/cuda/device_buffer.h"
#include "kwb/cuda/stream.h"
#include "kwb/cuda/vector_session.h"
#include "kwb/family.h"
#include "registry.h"
#include "sgemm_support.h"

namespace {

using kwb::ElementType;
using kwb::KernelDescriptor;
using kwb::VectorArgs;

bool oneDimensional(const KernelDescriptor& k) { return k.launchVector != nullptr; }

class VectorKernel : public GpuTest, public testing::WithParamInterface<std::string> {
 protected:
  const KernelDescriptor& kernel() const { return kwb::kernels::registry().find(GetParam()); }
  const kwb::cuda::VectorFamily& family() const {
    return kwb::cuda::vectorFamily(kernel().problem);
  }
  void SetUp() override {
    GpuTest::SetUp();
    if (!IsSkipped()) m_stream.emplace();  // a stream needs a device
  }
  CUstream_st* stream() const { return m_stream->get(); }

 private:
  std::optional<kwb::cuda::Stream> m_stream;
};

// The output of `k` (as int32 bits) on n elements that start `inShift` elements into `in` and
// are written `outShift` elements into the output buffer, whose bytes are all 0x7B before the
// launch (a canary: an element the launcher does not write reads 0x7B7B7B7B).
std::vector<int> launchInt(const KernelDescriptor& k, const kwb::cuda::VectorFamily& f,
                           const int* in, std::int64_t n, int inShift, int outShift,
                           CUstream_st* stream, ElementType type = ElementType::kInt32) {
  const std::int64_t outCount = f.outputCount(n);
  kwb::cuda::DeviceBuffer<int> out(std::size_t(outCount + outShift));
  KWB_CUDA_CHECK(cudaMemsetAsync(out.get(), 0x7B, out.bytes(), stream));
  const std::size_t scratchBytes = k.scratchBytes ? k.scratchBytes(n, type) : 0;
  kwb::cuda::DeviceBuffer<unsigned char> scratch(scratchBytes);
  VectorArgs a;
  a.count = n;
  a.type = type;
  a.in = in + inShift;
  a.out = out.get() + outShift;
  a.scratch = scratch.get();
  a.scratchBytes = scratchBytes;
  a.stream = stream;
  k.launchVector(a);
  std::vector<int> host(static_cast<std::size_t>(outCount));
  KWB_CUDA_CHECK(cudaMemcpyAsync(host.data(), out.get() + outShift, host.size() * sizeof(int),
                                 cudaMemcpyDeviceToHost, stream));
  KWB_CUDA_CHECK(cudaStreamSynchronize(stream));
  return host;
}

// How many elements of `got` differ from `want`, and the first that does (-1: none).
struct Differences {
  std::int64_t wrong = 0, first = -1;
};
Differences differences(const std::vector<int>& got, const std::vector<int>& want) {
  Differences d;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (got[i] != want[i] && d.wrong++ == 0) d.first = std::int64_t(i);
  return d;
}

}  // namespace

TEST_P(VectorKernel, PassesAtEveryBoundaryInBothTypes) {
  kwb::cuda::VectorSession session(stream());
  for (const std::int64_t n :
       {1, 2, 3, 31, 32, 33, 255, 257, 1023, 4095, 4096, 4097, 65537, 1000003, (1 << 22) + 5})
    for (const ElementType t : {ElementType::kFloat32, ElementType::kInt32}) {
      const kwb::VectorSize s{n, t};
      auto vc = session.prepare(family(), kernel(), s, 0x5EED + std::uint64_t(n));
      const kwb::CaseResult c = session.verify(family(), kernel(), *vc);
      EXPECT_EQ(c.status, kwb::CaseStatus::kPass)
          << kernel().id << " " << n << " " << toString(t) << ": " << c.message;
      ASSERT_TRUE(c.verification);
      EXPECT_EQ(c.verification->unwritten, 0) << n;
      EXPECT_TRUE(c.verification->negativeControlRejected) << n;
    }
}

TEST_P(VectorKernel, MisalignedPointersMatchCubBitForBit) {
  const KernelDescriptor& cub = kwb::kernels::registry().find(family().family().reference);
  for (const std::int64_t n : {std::int64_t{7}, std::int64_t{4099}, std::int64_t{300007}}) {
    std::vector<int> host(std::size_t(n + 4));
    for (std::size_t i = 0; i < host.size(); ++i)  // large values: int32 sums wrap
      host[i] = int(std::uint32_t(i * 2654435761u) >> 1) - (1 << 29);
    kwb::cuda::DeviceBuffer<int> in(host.size());
    KWB_CUDA_CHECK(
        cudaMemcpy(in.get(), host.data(), host.size() * sizeof(int), cudaMemcpyHostToDevice));
    for (const int shift : {1, 2, 3}) {
      const auto want = launchInt(cub, family(), in.get(), n, shift, shift, stream());
      const auto got = launchInt(kernel(), family(), in.get(), n, shift, shift, stream());
      ASSERT_EQ(got.size(), want.size());
      const Differences d = differences(got, want);
      EXPECT_EQ(d.wrong, 0) << kernel().id << " n=" << n << " shifted " << shift
                            << " elements: first wrong at " << d.first;
    }
  }
}

TEST_P(VectorKernel, ASecondLaunchOnTheSameBuffersAgrees) {
  kwb::cuda::VectorSession session(stream());
  const kwb::VectorSize s{(1 << 20) + 3, ElementType::kInt32};
  auto vc = session.prepare(family(), kernel(), s, 7);
  const auto first = session.verify(family(), kernel(), *vc);
  const auto second = session.verify(family(), kernel(), *vc);
  EXPECT_EQ(first.status, kwb::CaseStatus::kPass) << first.message;
  EXPECT_EQ(second.status, kwb::CaseStatus::kPass) << second.message;
}

// Launches of other sizes in between leave nothing the next launch reads: a stage that keeps
// state on the device between launches (a tile counter, tile statuses tagged with the launch)
// must tell the previous launch's statuses, of more tiles or fewer, from this one's. The sizes
// cross scan.decoupled_lookback's switch between its two tile shapes (the SMs x 12 tiles of
// 3072) both ways; int32 is compared bit for bit with CUB.
TEST_P(VectorKernel, LaunchesOfOtherSizesInBetweenLeaveNoTrace) {
  const KernelDescriptor& cub = kwb::kernels::registry().find(family().family().reference);
  constexpr std::int64_t kMost = 6'000'011;
  std::vector<int> host(std::size_t{kMost});
  for (std::size_t i = 0; i < host.size(); ++i)
    host[i] = int(std::uint32_t(i * 2246822519u) >> 7) - (1 << 23);
  kwb::cuda::DeviceBuffer<int> in(host.size());
  KWB_CUDA_CHECK(
      cudaMemcpy(in.get(), host.data(), host.size() * sizeof(int), cudaMemcpyHostToDevice));
  for (const std::int64_t n : {kMost, std::int64_t{4097}, std::int64_t{3'000'001}, kMost,
                               std::int64_t{1'000'003}, std::int64_t{3'000'001}}) {
    const auto want = launchInt(cub, family(), in.get(), n, 0, 0, stream());
    const auto got = launchInt(kernel(), family(), in.get(), n, 0, 0, stream());
    ASSERT_EQ(got.size(), want.size());
    const Differences d = differences(got, want);
    EXPECT_EQ(d.wrong, 0) << kernel().id << " n=" << n << ": first wrong at " << d.first;
  }
}

// A launch of no elements still writes every output element (a reduce's sum of nothing is 0),
// over whatever the buffer held: a launcher that returned early, or that relied on a clearing
// before the launch it no longer does, leaves the sentinel.
TEST_P(VectorKernel, NoElementsStillWritesTheOutput) {
  const std::int64_t outCount = family().outputCount(0);
  if (outCount == 0) GTEST_SKIP() << family().family().id << " has no output for 0 elements";
  const kwb::cuda::DeviceBuffer<int> in(1);
  for (const ElementType t : {ElementType::kFloat32, ElementType::kInt32}) {
    const auto got = launchInt(kernel(), family(), in.get(), 0, 0, 0, stream(), t);
    ASSERT_EQ(got.size(), std::size_t(outCount));
    for (std::size_t i = 0; i < got.size(); ++i)  // 0 is also +0.0f's bits
      EXPECT_EQ(got[i], 0) << kernel().id << " " << toString(t) << " output " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, VectorKernel,
                         testing::ValuesIn(kwb::test::kernelIds(oneDimensional)),
                         kwb::test::paramName);
