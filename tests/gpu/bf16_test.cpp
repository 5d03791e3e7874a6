// SPDX-License-Identifier: Apache-2.0
// The BF16 stages and their cuBLAS reference on the device (docs/KERNELS.md, "BF16 stages";
// docs/VALIDATION.md, "BF16 inputs"): every BF16 kernel verified at the spec shapes, ragged ones
// included; the device's BF16 inputs equal the host's rounding bit for bit; BF16 inputs have a
// reference of their own; and a BF16 kernel fed FP16 bits (a planted fault) fails.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kwb/cuda/device_buffer.h"
#include "kwb/cuda/device_kernels.h"
#include "kwb/seeded.h"
#include "sgemm_support.h"

using kwb::CaseStatus;
using kwb::KernelDescriptor;
using kwb::Precision;
using kwb::Shape;
using kwb::test::expectVerified;
using kwb::test::kSeed;
using kwb::test::session;

namespace {

bool bf16Inputs(const KernelDescriptor& k) { return k.precision == Precision::kBf16Fp32Acc; }

// The spec-benchmark and spec-correctness shapes, ragged and tiny ones included.
const std::vector<Shape> kSpecShapes{{512, 512, 512}, {1024, 1024, 1024}, {2048, 2048, 2048},
                                     {256, 384, 640}, {511, 513, 1025},   {17, 19, 23},
                                     {16, 16, 16},    {15, 15, 15},       {1, 1, 1},
                                     {1, 128, 1},     {128, 1, 128},      {1, 128, 128}};

class Bf16Kernel : public kwb::test::KernelTest {};

TEST_P(Bf16Kernel, VerifiesAtTheSpecShapesIncludingRaggedOnes) {
  const KernelDescriptor& k = kernel();
  EXPECT_EQ(k.rtol(), 5e-2);
  EXPECT_EQ(k.atol(), 1e-2);
  for (const Shape& s : kSpecShapes) {
    const kwb::CaseResult c = session().verifyCase(k, s, kSeed);
    expectVerified(c, k, kSeed);
    EXPECT_EQ(c.precision, Precision::kBf16Fp32Acc);
    // On its fast path the kernel itself ran (a stage names its tile after its id).
    if (!c.fallback && !k.reference) {
      EXPECT_TRUE(c.ranKernel.starts_with(k.id)) << c.ranKernel;
    }
  }
}
INSTANTIATE_TEST_SUITE_P(Registry, Bf16Kernel, testing::ValuesIn(kwb::test::kernelIds(bf16Inputs)),
                         kwb::test::paramName);

// Every id the brief names is registered (sgemm.wgmma_bf16 only where sgemm.wgmma is).
TEST(Bf16Registry, TheStagesAndTheReferenceAreRegistered) {
  const auto& r = kwb::kernels::registry();
  ASSERT_NE(r.tryFind("sgemm.mma_multistage_bf16"), nullptr);
  ASSERT_NE(r.tryFind("cublas.bgemm_f32acc"), nullptr);
  EXPECT_TRUE(r.find("cublas.bgemm_f32acc").reference);
  EXPECT_EQ(r.tryFind("sgemm.wgmma") != nullptr, r.tryFind("sgemm.wgmma_bf16") != nullptr);
  for (const char* id : {"sgemm.mma_multistage_bf16", "sgemm.wgmma_bf16", "cublas.bgemm_f32acc"})
    if (const KernelDescriptor* k = r.tryFind(id)) {
      EXPECT_EQ(k->precision, Precision::kBf16Fp32Acc) << id;
    }
}

class Bf16Inputs : public GpuTest {};

std::vector<float> download(const float* p, std::size_t n) {
  std::vector<float> out(n);
  EXPECT_EQ(cudaMemcpy(out.data(), p, n * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
  return out;
}
std::vector<std::uint16_t> download16(const void* p, std::size_t n) {
  std::vector<std::uint16_t> out(n);
  EXPECT_EQ(cudaMemcpy(out.data(), p, n * 2, cudaMemcpyDeviceToHost), cudaSuccess);
  return out;
}

// A and B of a BF16 case: the BF16 copies hold kwb::bf16Bits of the seeded values, and the
// FP32 A and B the values of those bits, so every reference reads what the kernel reads.
TEST_F(Bf16Inputs, DeviceRoundingEqualsTheHostOracleBitForBit) {
  const KernelDescriptor& k = kwb::kernels::registry().find("sgemm.mma_multistage_bf16");
  const Shape s{37, 29, 41};
  const auto p = session().prepare(k, s, kSeed);
  const kwb::GemmArgs g = p->args(1.0f, 0.0f);
  ASSERT_NE(g.aBf16, nullptr);
  ASSERT_NE(g.bBf16, nullptr);
  EXPECT_EQ(g.aHalf, nullptr);  // a BF16 case has no FP16 copies
  ASSERT_EQ(cudaStreamSynchronize(session().stream()), cudaSuccess);
  const auto hostA = kwb::seededMatrix(kSeed, kwb::SeedStream::kA, s.m * s.k);
  const auto hostB = kwb::seededMatrix(kSeed, kwb::SeedStream::kB, s.k * s.n);
  const auto a32 = download(g.a, hostA.size());
  const auto a16 = download16(g.aBf16, hostA.size());
  const auto b16 = download16(g.bBf16, hostB.size());
  int rounded = 0;
  for (std::size_t i = 0; i < hostA.size(); ++i) {
    ASSERT_EQ(a16[i], kwb::bf16Bits(hostA[i])) << "A[" << i << "] = " << hostA[i];
    ASSERT_EQ(a32[i], kwb::roundToBf16(hostA[i])) << "A[" << i << "]";
    rounded += a32[i] != hostA[i];
  }
  for (std::size_t i = 0; i < hostB.size(); ++i)
    ASSERT_EQ(b16[i], kwb::bf16Bits(hostB[i])) << "B[" << i << "]";
  EXPECT_GT(rounded, 0);  // the FP32 A is the rounded one, not the grid's
}

// FP16 and BF16 inputs of one shape and seed differ, so each has its reference; a second BF16
// case of the same shape reuses its own.
TEST_F(Bf16Inputs, BF16InputsHaveTheirOwnCachedReference) {
  const auto& r = kwb::kernels::registry();
  const Shape s{96, 80, 72};
  const int before = session().referencesComputed();
  expectVerified(session().verifyCase(r.find("sgemm.mma_multistage"), s, kSeed),
                 r.find("sgemm.mma_multistage"), kSeed);
  expectVerified(session().verifyCase(r.find("sgemm.mma_multistage_bf16"), s, kSeed),
                 r.find("sgemm.mma_multistage_bf16"), kSeed);
  EXPECT_EQ(session().referencesComputed(), before + 2);
  session().verifyCase(r.find("sgemm.mma_multistage_bf16"), s, kSeed);
  EXPECT_EQ(session().referencesComputed(), before + 2);
}

// The planted fault: the kernel under test runs with the FP16 bits of the same seeded values
// where its BF16 copies belong (read as BF16, 0.5 = 0x3800 is about 3e-5). Plain function
// pointers carry no state, so the launcher under test and the planted buffers are globals.
kwb::LaunchFn g_inner = nullptr;
const void* g_halfA = nullptr;
const void* g_halfB = nullptr;

kwb::LaunchInfo launchWithFp16Bits(const kwb::GemmArgs& args) {
  kwb::GemmArgs g = args;
  g.aBf16 = g_halfA;
  g.bBf16 = g_halfB;
  return g_inner(g);
}

TEST_F(Bf16Inputs, AKernelFedFp16BitsFails) {
  const Shape s{256, 384, 640};  // a multiple of 8 and 16: every BF16 kernel's fast path
  kwb::cuda::DeviceBuffer<std::uint16_t> halfA(std::size_t(s.m * s.k));
  kwb::cuda::DeviceBuffer<std::uint16_t> halfB(std::size_t(s.k * s.n));
  kwb::cuda::launchFillSeededHalf(halfA.get(), s.m * s.k,
                                  kwb::seededBase(kSeed, kwb::SeedStream::kA), nullptr);
  kwb::cuda::launchFillSeededHalf(halfB.get(), s.k * s.n,
                                  kwb::seededBase(kSeed, kwb::SeedStream::kB), nullptr);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  g_halfA = halfA.get();
  g_halfB = halfB.get();
  int major = 0;
  ASSERT_EQ(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0), cudaSuccess);
  for (const auto& k : kwb::kernels::registry().all()) {
    if (!bf16Inputs(k)) continue;
    SCOPED_TRACE(k.id);
    // Off Hopper sgemm.wgmma_bf16 runs sgemm.mma_multistage_bf16, which reads the same copies.
    KernelDescriptor planted = k;
    g_inner = k.launch;
    planted.launch = &launchWithFp16Bits;
    const kwb::CaseResult c = session().verifyCase(planted, s, kSeed);
    EXPECT_EQ(toString(c.status), toString(CaseStatus::kFail)) << c.message;
    ASSERT_TRUE(c.verification.has_value()) << c.message;
    EXPECT_GT(c.verification->compare.mismatches, c.verification->compare.elements / 2);
    EXPECT_EQ(c.fallback, k.id == "sgemm.wgmma_bf16" && major != 9);
    // The same kernel with its own BF16 copies passes: the fault, not the shape, failed it.
    expectVerified(session().verifyCase(k, s, kSeed), k, kSeed);
  }
  g_inner = nullptr;
}

}  // namespace
