// SPDX-License-Identifier: Apache-2.0
// Implausible results (kwb/plausibility.h) without a GPU: a planted median below the least
// time the declared work allows is suspicious and fails the case through its verdict; honest
// times, a hot L2 and a case with no peaks to go by are not.
#include <gtest/gtest.h>

#include <string>

#include "kwb/cuda/verdict.h"
#include "kwb/family.h"
#include "kwb/plausibility.h"
#include "registry.h"

namespace {

const bool kRegistered = (kwb::kernels::registerFamilies(), true);

// An H100-like device: 66.9 TFLOP/s FP32, 1070 FP16 tensor, 3352 GB/s, 50 MiB of L2.
kwb::DeviceInfo h100() {
  kwb::DeviceInfo d;
  d.peakFp32Tflops = 66.9;
  d.peakFp16TensorTflops = 1070.0;
  d.peakTf32TensorTflops = 535.0;
  d.peakBandwidthGBs = 3352.0;
  d.l2Bytes = 50 << 20;
  return d;
}

kwb::CaseResult gemmCase(std::int64_t n, double medianMs,
                         kwb::Precision p = kwb::Precision::kFp32) {
  kwb::CaseResult c;
  c.kernel = "user.precomputed";
  c.size = kwb::gemmSize({n, n, n});
  c.precision = p;
  c.status = kwb::CaseStatus::kPass;
  c.samplesMs = {medianMs};
  c.summary.median = medianMs;
  kwb::Verification v;
  v.compare.elements = n * n;
  v.negativeControlRejected = true;
  v.alphaBeta = v.compare;
  c.verification = v;
  return c;
}

}  // namespace

TEST(Plausibility, ComputeBoundIsTheFlopsOverThePeakOfThePrecision) {
  ASSERT_TRUE(kRegistered);
  const kwb::Work w{2.0 * 4096.0 * 4096.0 * 4096.0, 3.0 * 4096.0 * 4096.0 * 4.0};
  const kwb::TimeBound fp32 = kwb::timeBound(gemmCase(4096, 1), w, h100(), false);
  EXPECT_NEAR(fp32.ms, w.flops / 66.9e9, 1e-9);
  EXPECT_NE(fp32.limit.find("FP32 peak"), std::string::npos) << fp32.limit;
  const kwb::TimeBound fp16 =
      kwb::timeBound(gemmCase(4096, 1, kwb::Precision::kFp16Fp32Acc), w, h100(), false);
  EXPECT_NEAR(fp16.ms, w.flops / 1070e9, 1e-9);
  EXPECT_NE(fp16.limit.find("FP16 tensor peak"), std::string::npos) << fp16.limit;
}

// BF16 runs at FP16's tensor rate from Ampere on; h100() is compute capability 0, which has
// no BF16 tensor cores, so there the bound falls back to the DRAM traffic alone.
TEST(Plausibility, Bf16ComputeBoundIsTheBf16TensorPeak) {
  const kwb::Work w{2.0 * 4096.0 * 4096.0 * 4096.0, 3.0 * 4096.0 * 4096.0 * 4.0};
  kwb::DeviceInfo d = h100();
  d.ccMajor = 9;
  const auto bf16 = gemmCase(4096, 1, kwb::Precision::kBf16Fp32Acc);
  const kwb::TimeBound b = kwb::timeBound(bf16, w, d, false);
  EXPECT_NEAR(b.ms, w.flops / 1070e9, 1e-9);
  EXPECT_NE(b.limit.find("BF16 tensor peak"), std::string::npos) << b.limit;
  d.ccMajor = 7;
  const kwb::TimeBound volta = kwb::timeBound(bf16, w, d, false);
  EXPECT_EQ(volta.limit.find("tensor"), std::string::npos) << volta.limit;
}

// Hot L2: the bytes an L2 holds may be served from it; cold: every byte comes from DRAM.
TEST(Plausibility, MemoryBoundCountsOnlyWhatCannotStayInL2UnlessCold) {
  kwb::CaseResult c = gemmCase(1, 1);
  c.size = kwb::vectorSize("reduce", std::int64_t{1} << 28, "f32");
  const kwb::Work w{0.0, 4.0 * double(std::int64_t{1} << 28)};
  const kwb::TimeBound hot = kwb::timeBound(c, w, h100(), false);
  EXPECT_NEAR(hot.ms, (w.bytes - double(50 << 20)) / 3352e6, 1e-9);
  EXPECT_NE(hot.limit.find("beyond the L2"), std::string::npos) << hot.limit;
  EXPECT_NEAR(kwb::timeBound(c, w, h100(), true).ms, w.bytes / 3352e6, 1e-9);
  // A problem the L2 holds whole has no memory bound with a hot L2.
  EXPECT_EQ(kwb::timeBound(c, {0.0, 4e6}, h100(), false).ms, 0.0);
}

TEST(Plausibility, AMedianBelowTheBoundIsSuspiciousAndFails) {
  ASSERT_TRUE(kRegistered);
  // 2·1024³ FLOPs need 32.1 µs at 66.9 TFLOP/s; a copy of the answer takes a few.
  kwb::CaseResult c = gemmCase(1024, 0.005);
  c.suspicious = kwb::implausibility(c, h100());
  EXPECT_NE(c.suspicious.find("below the least time"), std::string::npos) << c.suspicious;
  EXPECT_NE(c.suspicious.find("margin 5%"), std::string::npos) << c.suspicious;
  kwb::cuda::applyVerdict(c);
  EXPECT_EQ(c.status, kwb::CaseStatus::kFail);
  EXPECT_EQ(c.message.rfind("suspicious: median", 0), 0u) << c.message;
}

TEST(Plausibility, WithinTheMarginOrSlowerIsPlausible) {
  ASSERT_TRUE(kRegistered);
  const double boundMs = 2.0 * 1024.0 * 1024.0 * 1024.0 / 66.9e9;
  EXPECT_EQ(kwb::implausibility(gemmCase(1024, boundMs * 0.96), h100()), "");
  EXPECT_NE(kwb::implausibility(gemmCase(1024, boundMs * 0.94), h100()), "");
  EXPECT_EQ(kwb::implausibility(gemmCase(1024, 1.0), h100()), "");  // cuBLAS-like: 2.1 TFLOP/s
  EXPECT_EQ(kwb::implausibility(gemmCase(1024, 1e-6), kwb::DeviceInfo{}), "");  // no peaks known
}
