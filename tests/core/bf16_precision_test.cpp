// SPDX-License-Identifier: Apache-2.0
// The BF16 precision (bf16-fp32acc) without a GPU: its text, tolerance, input width, own
// reference and peak; the host's BF16 rounding, which the device fill repeats; a document with
// a BF16 case round-trips, and one written before BF16 existed reads without its field; the
// progression holds a BF16 stage to BF16 and FP32 stages, never to its FP16 twin.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "kwb/device_info.h"
#include "kwb/error.h"
#include "kwb/kernel_descriptor.h"
#include "kwb/progression.h"
#include "kwb/results.h"
#include "kwb/seeded.h"
#include "sample_document.h"

using kwb::Precision;

TEST(Bf16Precision, TextRoundTripsAndUnknownPrecisionListsIt) {
  EXPECT_EQ(kwb::toString(Precision::kBf16Fp32Acc), "bf16-fp32acc");
  EXPECT_EQ(kwb::parsePrecision("bf16-fp32acc"), Precision::kBf16Fp32Acc);
  for (Precision p :
       {Precision::kFp32, Precision::kFp16Fp32Acc, Precision::kTf32, Precision::kBf16Fp32Acc})
    EXPECT_EQ(kwb::parsePrecision(kwb::toString(p)), p);
  try {
    kwb::parsePrecision("bf16");
    FAIL() << "bf16 is not a precision's text";
  } catch (const kwb::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'bf16'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("bf16-fp32acc"), std::string::npos) << e.what();
  }
}

// Exact BF16 inputs and products exact in FP32 leave the FP32 accumulation, as for FP16.
TEST(Bf16Precision, ToleranceInputWidthAndReferenceAreTheTensorCoreOnes) {
  kwb::KernelDescriptor k;
  k.precision = Precision::kBf16Fp32Acc;
  EXPECT_EQ(k.rtol(), 5e-2);
  EXPECT_EQ(k.atol(), 1e-2);
  EXPECT_EQ(kwb::inputElementBytes(Precision::kBf16Fp32Acc), 2);
  EXPECT_EQ(kwb::inputElementBytes(Precision::kFp16Fp32Acc), 2);
  EXPECT_EQ(kwb::inputElementBytes(Precision::kTf32), 4);
  EXPECT_EQ(kwb::tensorReferenceOf(Precision::kBf16Fp32Acc), "cublas.bgemm_f32acc");
  EXPECT_EQ(kwb::tensorReferenceOf(Precision::kFp16Fp32Acc), "cublas.hgemm_f32acc");
  EXPECT_EQ(kwb::tensorReferenceOf(Precision::kFp32), "");
  EXPECT_EQ(kwb::tensorReferenceOf(Precision::kTf32), "");
}

TEST(Bf16Precision, PeakIsTheFp16TensorPeakFromAmpereAndNoneBefore) {
  kwb::DeviceInfo d;
  d.ccMajor = 9;
  d.smCount = 132;
  d.smClockMhz = 1980;
  kwb::derivePeaks(d);
  EXPECT_NEAR(kwb::peakBf16TensorTflops(d), 1070.5, 0.5);
  d.ccMajor = 8;
  d.smCount = 108;
  d.smClockMhz = 1410;
  kwb::derivePeaks(d);
  EXPECT_NEAR(kwb::peakBf16TensorTflops(d), 312.0, 0.5);
  d.ccMajor = 7;  // Volta has FP16 tensor cores but no BF16
  kwb::derivePeaks(d);
  EXPECT_GT(d.peakFp16TensorTflops, 0.0);
  EXPECT_EQ(kwb::peakBf16TensorTflops(d), 0.0);
}

// Known answers of round to nearest, ties to even, on FP32's top 16 bits.
TEST(Bf16Rounding, KnownValuesTiesAndSpecials) {
  EXPECT_EQ(kwb::bf16Bits(1.0f), 0x3F80);
  EXPECT_EQ(kwb::bf16Bits(-0.5f), 0xBF00);
  EXPECT_EQ(kwb::bf16Bits(-0.0f), 0x8000);
  // 1 + 2^-8 lies halfway between 1 and 1 + 2^-7: ties go to the even 1.
  EXPECT_EQ(kwb::bf16Bits(1.0f + 1.0f / 256), 0x3F80);
  // 1 + 3·2^-8 lies halfway between 1 + 2^-7 (odd) and 1 + 2^-6: up to the even one.
  EXPECT_EQ(kwb::bf16Bits(1.0f + 3.0f / 256), 0x3F82);
  // Just above the halfway point rounds up.
  EXPECT_EQ(kwb::bf16Bits(std::nextafter(1.0f + 1.0f / 256, 2.0f)), 0x3F81);
  // A seeded grid value with more than 8 significant bits: 2047/2048 rounds up to 1.
  EXPECT_EQ(kwb::roundToBf16(2047.0f / 2048.0f), 1.0f);
  EXPECT_EQ(kwb::roundToBf16(1.0f / 2048.0f), 1.0f / 2048.0f);  // a power of two: exact
  EXPECT_EQ(kwb::bf16Bits(std::numeric_limits<float>::infinity()), 0x7F80);
  EXPECT_TRUE(std::isnan(kwb::roundToBf16(std::numeric_limits<float>::quiet_NaN())));
  EXPECT_EQ(kwb::bf16Bits(std::numeric_limits<float>::max()), 0x7F80);  // overflows to Inf
}

// Every seeded value rounds to within half a unit of BF16's last place (at most 2^-8 of the
// value: 8 significant bits), and most do round: the
// reason a BF16 case's FP32 inputs are the rounded values, not the grid's.
TEST(Bf16Rounding, SeededValuesRoundWithinHalfAUnitAndMostChange) {
  const auto v = kwb::seededMatrix(3, kwb::SeedStream::kA, 20000);
  int changed = 0;
  for (float x : v) {
    const float r = kwb::roundToBf16(x);
    ASSERT_LE(std::fabs(double(r) - double(x)), std::fabs(double(x)) / 256.0) << x;
    ASSERT_EQ(kwb::roundToBf16(r), r) << x;  // rounding is idempotent
    changed += r != x;
  }
  EXPECT_GT(changed, 10000);
}

TEST(Bf16Document, ACaseRoundTripsAndOlderCasesReadWithoutItsField) {
  kwb::RunDocument doc = makeSampleDocument();
  kwb::CaseResult b = doc.cases[0];
  b.kernel = "sgemm.mma_multistage_bf16";
  b.precision = Precision::kBf16Fp32Acc;
  b.pctOfFp32Reference = 180.0;
  b.pctOfBf16Reference = 61.5;
  doc.cases.push_back(b);
  kwb::listMissingKernels(doc);
  const std::string text = kwb::toJsonText(doc);
  EXPECT_NE(text.find("\"bf16-fp32acc\""), std::string::npos);
  const kwb::RunDocument back = kwb::parseDocument(text, "mem");
  EXPECT_EQ(kwb::toJsonText(back), text);
  ASSERT_EQ(back.cases.size(), 3u);
  EXPECT_EQ(back.cases[2].precision, Precision::kBf16Fp32Acc);
  ASSERT_TRUE(back.cases[2].pctOfBf16Reference);
  EXPECT_EQ(*back.cases[2].pctOfBf16Reference, 61.5);
  // The FP16 and FP32 cases write no BF16 field, so their JSON is as before BF16 existed.
  EXPECT_EQ(text.find("pctOfBf16Reference"), text.rfind("pctOfBf16Reference"));
  EXPECT_FALSE(back.cases[0].pctOfBf16Reference);
  EXPECT_FALSE(back.cases[1].pctOfBf16Reference);
}

namespace {
kwb::CaseResult timedCase(const std::string& kernel, Precision p, double gflops) {
  kwb::CaseResult c;
  c.kernel = kernel;
  c.size = kwb::gemmSize({2048, 2048, 2048});
  c.precision = p;
  c.status = kwb::CaseStatus::kPass;
  c.samplesMs = {1.0};
  c.gflops = gflops;
  return c;
}
int stageOf(std::string_view id) {
  if (id == "sgemm.warp_tiled") return 7;
  if (id == "sgemm.mma_multistage") return 8;
  if (id == "sgemm.wgmma") return 9;
  if (id == "sgemm.mma_multistage_bf16") return 10;
  if (id == "sgemm.wgmma_bf16") return 11;
  return 0;
}
}  // namespace

// The first BF16 stage follows the last FP32 stage, not the faster FP16 wgmma before it; the
// second BF16 stage follows the first.
TEST(Bf16Progression, BF16StagesFollowBf16ThenFp32StagesNotTheirFp16Twins) {
  const std::vector<kwb::CaseResult> cases{
      timedCase("sgemm.warp_tiled", Precision::kFp32, 50000),
      timedCase("sgemm.mma_multistage", Precision::kFp16Fp32Acc, 300000),
      timedCase("sgemm.wgmma", Precision::kFp16Fp32Acc, 600000),
      timedCase("sgemm.mma_multistage_bf16", Precision::kBf16Fp32Acc, 290000),
      timedCase("sgemm.wgmma_bf16", Precision::kBf16Fp32Acc, 280000)};
  const auto p = kwb::checkProgression(cases, stageOf);
  ASSERT_EQ(p.violations.size(), 1u);  // wgmma_bf16 < mma_multistage_bf16, nothing else
  EXPECT_EQ(p.violations[0].from, "sgemm.mma_multistage_bf16");
  EXPECT_EQ(p.violations[0].to, "sgemm.wgmma_bf16");
  // Slower than the FP32 stage it follows: reported against that stage.
  auto slow = cases;
  slow[3].gflops = 40000;
  slow[4].gflops = 500000;
  const auto q = kwb::checkProgression(slow, stageOf);
  ASSERT_EQ(q.violations.size(), 1u);
  EXPECT_EQ(q.violations[0].from, "sgemm.warp_tiled");
  EXPECT_EQ(q.violations[0].to, "sgemm.mma_multistage_bf16");
}
