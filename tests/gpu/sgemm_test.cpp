// SPDX-License-Identifier: Apache-2.0
// The SGEMM test scenarios (docs/VALIDATION.md): correctness, tensor core, fallback, edge
// cases, over the registry.
#include <cuda_runtime_api.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "kwb/error.h"
#include "sgemm_support.h"

using kwb::CaseStatus;
using kwb::KernelDescriptor;
using kwb::Precision;
using kwb::Shape;
using kwb::test::expectVerified;
using kwb::test::kernelIds;
using kwb::test::KernelTest;
using kwb::test::kSeed;
using kwb::test::paramName;
using kwb::test::session;

namespace {
// FP16 or BF16 inputs: the tensor-core precisions with 16-bit copies of A and B.
bool tensorInputs(const KernelDescriptor& k) { return kwb::inputElementBytes(k.precision) == 2; }
bool hasFallback(const KernelDescriptor& k) { return !k.reference && k.alignment > 1; }
bool fp32Stage(const KernelDescriptor& k) {
  return !k.reference && k.precision == Precision::kFp32 && k.id.rfind("sgemm.", 0) == 0;
}
}  // namespace

// Scenario 1: aligned squares and a non-square shape, each kernel's own tolerance.
class Correctness : public KernelTest {};
TEST_P(Correctness, MatchesReferenceOnSpecShapes) {
  for (const Shape& s : {Shape{512, 512, 512}, Shape{1024, 1024, 1024}, Shape{256, 384, 640}})
    expectVerified(session().verifyCase(kernel(), s, kSeed), kernel(), kSeed);
}
INSTANTIATE_TEST_SUITE_P(Registry, Correctness, testing::ValuesIn(kernelIds(kwb::test::isGemm)),
                         paramName);

// Scenario 2: FP16 (or BF16) in, FP32 accumulate on 16-aligned shapes, rtol 5e-2 / atol 1e-2, no
// fallback.
class TensorCore : public KernelTest {};
TEST_P(TensorCore, MatchesFp32ReferenceOnAlignedShapes) {
  const KernelDescriptor& k = kernel();
  EXPECT_EQ(k.rtol(), 5e-2);
  EXPECT_EQ(k.atol(), 1e-2);
  for (const Shape& s :
       {Shape{512, 512, 512}, Shape{1024, 1024, 1024}, Shape{16, 16, 16}, Shape{32, 32, 32},
        // sgemm.wgmma's 128x256 tile, alone (2048^3) and in clusters of two CTAs sharing B
        // (from 8 tiles per SM: 33 x 32 tiles here); 33 tile rows leave one cluster's second
        // tile wholly below M, and K = 80 ends in a partial K slice.
        Shape{2048, 2048, 2048}, Shape{4224, 8192, 80}}) {
    const kwb::CaseResult c = session().verifyCase(k, s, kSeed);
    expectVerified(c, k, kSeed);
    EXPECT_FALSE(c.fallback);
    // The kernel itself ran; a stage that picks its tile by shape names the tile after its id.
    EXPECT_TRUE(c.ranKernel.starts_with(k.id)) << c.ranKernel;
    if ((k.id == "sgemm.wgmma" || k.id == "sgemm.wgmma_bf16") && s.k == 80) {
      int sms = 0;
      ASSERT_EQ(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), cudaSuccess);
      const std::int64_t tiles = (s.m + 127) / 128 * ((s.n + 255) / 256);  // 128x256 tiles
      if (tiles >= 8 * std::int64_t(sms)) {  // the clustered kernel ran, not the single-CTA one
        EXPECT_NE(c.ranKernel.find("clusters of 2"), std::string::npos) << c.ranKernel;
      }
    }
  }
}
INSTANTIATE_TEST_SUITE_P(Registry, TensorCore, testing::ValuesIn(kernelIds(tensorInputs)),
                         paramName);

// Scenario 3: shapes that are not multiples of 16 run the FP32 path, pass, and say so.
// Scenario 1b: the FP32 stages pick their block tile by shape (smallerTilePays, 132 SMs: 32×32,
// 64×64 and, for register_blocked, 128×128) and their copy path by alignment (double_buffer's
// shifted 16-byte copies when K or N % 4 != 0): each tier on ragged and odd dimensions.
class TileTiers : public KernelTest {};
TEST_P(TileTiers, RaggedShapesOnEveryTier) {
  for (const Shape& s : {Shape{100, 37, 131}, Shape{33, 65, 6}, Shape{511, 513, 1025},
                         Shape{1023, 1022, 66}, Shape{2049, 2047, 37}})
    expectVerified(session().verifyCase(kernel(), s, kSeed), kernel(), kSeed);
}
INSTANTIATE_TEST_SUITE_P(Registry, TileTiers, testing::ValuesIn(kernelIds(fp32Stage)), paramName);

// sgemm.wgmma (and sgemm.wgmma_bf16) on shapes TMA cannot load as they lie (K or N not a
// multiple of 8): A or B is re-laid with padded rows and the tensor cores still run, no FP32
// fallback; N % 4 != 0 also takes the register epilogue (C's rows are not 16-byte strides).
TEST(WgmmaEveryShape, RaggedKAndNRunOnTheTensorCores) {
  const KernelDescriptor* fp16 = kwb::kernels::registry().tryFind("sgemm.wgmma");
  if (fp16 == nullptr) GTEST_SKIP() << "sgemm.wgmma is built only for sm_90a";
  int major = 0;
  ASSERT_EQ(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0), cudaSuccess);
  if (major != 9) GTEST_SKIP() << "sgemm.wgmma runs its own code only on compute capability 9.0";
  for (const KernelDescriptor* k : {fp16, &kwb::kernels::registry().find("sgemm.wgmma_bf16")}) {
    for (const Shape& s : {Shape{511, 513, 1025}, Shape{256, 384, 641}, Shape{1000, 1001, 1000},
                           Shape{17, 19, 23}, Shape{2049, 2047, 37}, Shape{64, 6, 3}}) {
      const kwb::CaseResult c = session().verifyCase(*k, s, kSeed);
      expectVerified(c, *k, kSeed);
      EXPECT_FALSE(c.fallback) << toString(s);
      EXPECT_TRUE(c.ranKernel.starts_with(k->id)) << c.ranKernel;
      EXPECT_NE(c.ranKernel.find("re-laid for TMA"), std::string::npos) << c.ranKernel;
    }
    const kwb::CaseResult aligned = session().verifyCase(*k, Shape{1024, 1024, 1024}, kSeed);
    EXPECT_EQ(aligned.ranKernel.find("re-laid"), std::string::npos) << aligned.ranKernel;
    // Rows of 2000 bytes: TMA loads them as they lie (a copy to 128-byte lines alone did not pay).
    const kwb::CaseResult asGiven = session().verifyCase(*k, Shape{1000, 1000, 1000}, kSeed);
    expectVerified(asGiven, *k, kSeed);
    EXPECT_EQ(asGiven.ranKernel.find("re-laid"), std::string::npos) << asGiven.ranKernel;
    // Rows of 6000 and 2000 bytes, both off the 32-byte sectors, a large product: no copy, 2x2
    // clusters of 128x128 over several waves (576 tiles).
    const kwb::CaseResult offSectors = session().verifyCase(*k, Shape{3000, 3000, 1000}, kSeed);
    expectVerified(offSectors, *k, kSeed);
    EXPECT_EQ(offSectors.ranKernel.find("re-laid"), std::string::npos) << offSectors.ranKernel;
    EXPECT_NE(offSectors.ranKernel.find("128x128 tile, 2x2 clusters"), std::string::npos)
        << offSectors.ranKernel;
  }
}

class Fallback : public KernelTest {};
TEST_P(Fallback, UnalignedShapesPassThroughTheFp32Path) {
  const KernelDescriptor& k = kernel();
  for (const Shape& s : {Shape{511, 513, 1025}, Shape{17, 19, 23}, Shape{15, 15, 15}}) {
    const kwb::CaseResult c = session().verifyCase(k, s, kSeed);
    EXPECT_EQ(toString(c.status), toString(CaseStatus::kFallback)) << toString(s) << c.message;
    EXPECT_TRUE(c.fallback);
    EXPECT_NE(c.ranKernel, k.id);
    EXPECT_FALSE(c.ranKernel.empty());
    expectVerified(c, k, kSeed);
  }
}
INSTANTIATE_TEST_SUITE_P(Registry, Fallback, testing::ValuesIn(kernelIds(hasFallback)), paramName);

// Scenario 4: minimal and degenerate shapes complete without CUDA errors and are correct.
class EdgeCase : public KernelTest {};
TEST_P(EdgeCase, MinimalAndDegenerateShapes) {
  for (const Shape& s : {Shape{1, 1, 1}, Shape{2, 2, 2}, Shape{4, 4, 4}, Shape{1, 128, 1},
                         Shape{128, 1, 128}, Shape{1, 128, 128}})
    expectVerified(session().verifyCase(kernel(), s, kSeed), kernel(), kSeed);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}
INSTANTIATE_TEST_SUITE_P(Registry, EdgeCase, testing::ValuesIn(kernelIds(kwb::test::isGemm)),
                         paramName);

// The verification pipeline runs alpha = 1 with beta = 0 and alpha ≠ 1 with beta ≠ 0; kernels
// may take another epilogue when beta = 0 (sgemm.wgmma's TMA store). This runs the third
// combination on a C full of NaN: the output must be alpha times the alpha = 1 output, and C
// must not be read (BLAS: with beta = 0, C may hold anything). 2048x2048x64 gives the widest
// tiles; 264x200x136 partial ones in M and N.
class AlphaWithoutBeta : public KernelTest {};
TEST_P(AlphaWithoutBeta, ScalesAndNeverReadsC) {
  const KernelDescriptor& k = kernel();
  constexpr float kAlpha = 0.75f;
  for (const Shape& s : {Shape{2048, 2048, 64}, Shape{264, 200, 136}}) {
    const auto p = session().prepare(k, s, kSeed);
    const std::size_t n = std::size_t(s.m * s.n);
    std::vector<float> one(n), scaled(n);
    auto run = [&](float alpha, std::vector<float>& out) {
      ASSERT_EQ(cudaMemsetAsync(p->c(), 0xFF, n * sizeof(float), session().stream()),
                cudaSuccess);  // every byte 0xFF: NaN
      (void)k.launch(p->args(alpha, 0.0f));
      ASSERT_EQ(cudaMemcpyAsync(out.data(), p->c(), n * sizeof(float), cudaMemcpyDeviceToHost,
                                session().stream()),
                cudaSuccess);
      ASSERT_EQ(cudaStreamSynchronize(session().stream()), cudaSuccess);
    };
    run(1.0f, one);
    run(kAlpha, scaled);
    std::size_t bad = 0, firstBad = n;
    for (std::size_t i = 0; i < n; ++i) {
      const float want = kAlpha * one[i];
      const bool ok = std::isfinite(scaled[i]) && std::isfinite(one[i]) &&
                      std::fabs(scaled[i] - want) <= k.atol() + k.rtol() * std::fabs(want);
      if (!ok && bad++ == 0) firstBad = i;
    }
    EXPECT_EQ(bad, 0u) << toString(s) << ": first at " << firstBad << " got "
                       << (firstBad < n ? scaled[firstBad] : 0.f) << " want "
                       << (firstBad < n ? kAlpha * one[firstBad] : 0.f);
  }
}
INSTANTIATE_TEST_SUITE_P(Registry, AlphaWithoutBeta,
                         testing::ValuesIn(kernelIds(kwb::test::isGemm)), paramName);

class EdgeCaseMemory : public GpuTest {};
TEST_F(EdgeCaseMemory, TooLargeShapeIsRefusedBeforeAllocating) {
  const KernelDescriptor& k = kwb::kernels::registry().find("sgemm.naive");
  try {
    (void)session().prepare(k, Shape{1 << 20, 1 << 20, 1 << 20}, kSeed);
    FAIL() << "a 12 TiB problem was accepted";
  } catch (const kwb::InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("1048576x1048576x1048576"), std::string::npos) << m;
    EXPECT_NE(m.find("MiB free"), std::string::npos) << m;
  }
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

// The known-answer test: cuBLAS against a CPU FP64 reference.
class KnownAnswer : public GpuTest {};
TEST_F(KnownAnswer, CublasMatchesCpuDoublePrecision) {
  const kwb::KnownAnswer kat = session().knownAnswerTest();
  EXPECT_TRUE(kat.ran);
  EXPECT_TRUE(kat.passed) << kat.detail;
  EXPECT_FALSE(kat.shape.multipleOf(2)) << "the KAT shape should be odd";
}
