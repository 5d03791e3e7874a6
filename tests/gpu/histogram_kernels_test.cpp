// SPDX-License-Identifier: Apache-2.0
// Every registered histogram kernel (stages and the CUB reference), parameterised over the
// registry so a new stage is covered the day it is registered, through the family's driver:
// - the whole verification (canary, exact counts against CUB, the host's count up to 2^22
//   samples and for CUB itself, the total against the in-range samples, negative control) at
//   0, 1, 31 and 2^20 + 1 samples and at 2^28, in both sample types, every distribution and
//   32, 256 and 4096 bins;
// - samples that start 1 to 15 bytes past a 16-byte boundary (the vector paths' scalar head),
//   counted exactly as CUB counts them on the same pointer;
// - a second launch on the same buffers agrees (the launch clears its own counters);
// - the known answer (i mod 256 into 256 bins);
// and a planted fault, a kernel that drops one sample, which the verification must catch.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpu_fixture.h"
#include "histogram/histogram_args.h"
#include "histogram_fault_kernel.h"
#include "histogram/histogram_inputs.h"
#include "kwb/cuda/check.h"
#include "kwb/cuda/device_buffer.h"
#include "kwb/cuda/family_driver.h"
#include "kwb/cuda/stream.h"
#include "kwb/family_info.h"
#include "kwb/seeded.h"
#include "registry.h"
#include "sgemm_support.h"

namespace {

using kwb::CaseResult;
using kwb::CaseStatus;
using kwb::KernelDescriptor;
namespace k = kwb::kernels;

bool isHistogram(const KernelDescriptor& d) { return d.problem == "histogram"; }

const std::vector<std::string> kTypes = {"u8", "f32"};
const std::vector<std::string> kDistributions = {"uniform", "zipf", "one-bin"};
const std::vector<int> kBins = {32, 256, 4096};

class HistogramTest : public GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped()) return;
    k::registerFamilies();
    m_stream.emplace();  // a stream needs a device
  }
  kwb::cuda::FamilyDriver& driver() const { return kwb::cuda::familyDriver("histogram"); }
  kwb::cuda::DriverContext context(std::uint64_t seed) const {
    kwb::cuda::DriverContext ctx;
    ctx.stream = m_stream->get();
    ctx.seed = seed;
    return ctx;
  }
  CaseResult verify(const KernelDescriptor& kernel, const std::string& size, std::uint64_t seed) {
    const kwb::CaseSize s = kwb::parseSize(driver().family(), size);
    auto c = driver().prepare(kernel, s, context(seed));
    return c->verify(kernel);
  }
  CUstream_st* stream() const { return m_stream->get(); }

 private:
  std::optional<kwb::cuda::Stream> m_stream;
};

class HistogramKernel : public HistogramTest, public testing::WithParamInterface<std::string> {
 protected:
  const KernelDescriptor& kernel() const { return k::registry().find(GetParam()); }
  void expectPassesAt(const std::string& count) {
    for (const std::string& type : kTypes)
      for (const std::string& dist : kDistributions)
        for (const int bins : kBins) {
          const std::string size =
              count + " " + type + " " + std::to_string(bins) + " bins " + dist;
          const CaseResult c = verify(kernel(), size, 0x5EED + std::uint64_t(bins));
          EXPECT_EQ(c.status, CaseStatus::kPass) << kernel().id << " " << size << ": " << c.message;
          ASSERT_TRUE(c.verification) << size;
          EXPECT_EQ(c.verification->unwritten, 0) << size;
          EXPECT_TRUE(c.verification->negativeControlRejected) << size;
          EXPECT_EQ(c.verification->compare.elements, bins) << size;
        }
  }
};

// The counters of `kernel` on n samples that start `shift` bytes into `samples`.
std::vector<unsigned> launchAt(const KernelDescriptor& kernel, const unsigned char* samples,
                               std::int64_t n, k::SampleType type, int bins, CUstream_st* stream) {
  const auto& l = std::any_cast<const k::HistogramLauncher&>(kernel.launcher);
  const std::size_t scratchBytes = l.scratchBytes ? l.scratchBytes(n, type, bins) : 0;
  kwb::cuda::DeviceBuffer<unsigned char> scratch(scratchBytes);
  kwb::cuda::DeviceBuffer<unsigned> out(static_cast<std::size_t>(bins));
  k::HistogramArgs a;
  a.count = n;
  a.type = type;
  a.bins = bins;
  a.samples = samples;
  a.histogram = out.get();
  a.scratch = scratch.get();
  a.scratchBytes = scratchBytes;
  a.stream = stream;
  l.launch(a);
  std::vector<unsigned> host(static_cast<std::size_t>(bins));
  KWB_CUDA_CHECK(cudaMemcpyAsync(host.data(), out.get(), host.size() * sizeof(unsigned),
                                 cudaMemcpyDeviceToHost, stream));
  KWB_CUDA_CHECK(cudaStreamSynchronize(stream));
  return host;
}

}  // namespace

TEST_P(HistogramKernel, PassesAtBoundaryCountsInEveryTypeDistributionAndBins) {
  for (const std::string count : {"0", "1", "31", "1048577"}) expectPassesAt(count);
}

TEST_P(HistogramKernel, PassesAt2To28InEveryTypeDistributionAndBins) { expectPassesAt("2^28"); }

TEST_P(HistogramKernel, MisalignedSamplesCountAsCubCountsThem) {
  const KernelDescriptor& cub = k::registry().find("cub.histogram_even");
  for (const k::SampleType type : {k::SampleType::kU8, k::SampleType::kF32}) {
    const std::size_t bytes = k::sampleBytes(type);
    const std::int64_t n = 300007;
    kwb::cuda::DeviceBuffer<unsigned char> in(std::size_t(n + 16) * bytes);
    k::launchFillSamples(in.get(), n + 16, type, 256, k::Distribution::kZipf,
                         kwb::seededBase(11, kwb::SeedStream::kA), stream());
    for (std::size_t shift = bytes; shift < 16; shift += bytes)
      for (const int bins : {37, 256}) {
        const auto want = launchAt(cub, in.get() + shift, n, type, bins, stream());
        const auto got = launchAt(kernel(), in.get() + shift, n, type, bins, stream());
        EXPECT_EQ(got, want) << kernel().id << " " << toString(type) << " shifted " << shift
                             << " bytes, " << bins << " bins";
      }
  }
}

TEST_P(HistogramKernel, ASecondLaunchOnTheSameBuffersAgrees) {
  const kwb::CaseSize s = kwb::parseSize(driver().family(), "1048579 u8 256 bins one-bin");
  auto c = driver().prepare(kernel(), s, context(7));
  const CaseResult first = c->verify(kernel());
  const CaseResult second = c->verify(kernel());
  EXPECT_EQ(first.status, CaseStatus::kPass) << first.message;
  EXPECT_EQ(second.status, CaseStatus::kPass) << second.message;
}

TEST_P(HistogramKernel, KnownAnswer) {
  const kwb::KnownAnswer ka = driver().knownAnswer(kernel(), context(0));
  EXPECT_TRUE(ka.ran);
  EXPECT_TRUE(ka.passed) << ka.detail;
  EXPECT_NE(ka.detail.find("(u8)"), std::string::npos) << ka.detail;
  EXPECT_NE(ka.detail.find("(f32)"), std::string::npos) << ka.detail;
}

INSTANTIATE_TEST_SUITE_P(Registry, HistogramKernel,
                         testing::ValuesIn(kwb::test::kernelIds(isHistogram)),
                         kwb::test::paramName);

// The planted fault: one sample dropped. The exact comparison names the bin, the total check
// names the totals, and the known answer fails; an empty input has nothing to drop.
TEST_F(HistogramTest, ADroppedSampleIsCaught) {
  const KernelDescriptor bad = kwb::test::histogramDropsOneSample();
  for (const std::string size : {"1 u8 256 bins uniform", "31 f32 32 bins one-bin",
                                 "1048577 u8 4096 bins zipf", "1048577 f32 256 bins uniform"}) {
    const CaseResult c = verify(bad, size, 3);
    EXPECT_EQ(c.status, CaseStatus::kFail) << size;
    ASSERT_TRUE(c.verification) << size;
    EXPECT_EQ(c.verification->compare.mismatches, 1) << size;
    EXPECT_NE(c.message.find("samples are in range"), std::string::npos)
        << size << ": " << c.message;
  }
  EXPECT_EQ(verify(bad, "0 u8 256 bins uniform", 3).status, CaseStatus::kPass);
  EXPECT_FALSE(driver().knownAnswer(bad, context(0)).passed);
}
