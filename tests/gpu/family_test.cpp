// SPDX-License-Identifier: Apache-2.0
// The 1-D families through the one case loop (cuda::runPlan) with test-only kernels
// (vector_test_kernels.h): every size passes, figures come from the declared work, and the
// pipeline's checks catch planted faults (canary, int32 exactness, scan order, known answers).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpu_fixture.h"
#include "kwb/cuda/runner.h"
#include "kwb/cuda/vector_session.h"
#include "kwb/cuda/stream.h"
#include "kwb/family.h"
#include "registry.h"
#include "vector_test_kernels.h"

namespace {

using kwb::ElementType;
using kwb::KernelDescriptor;
using kwb::cuda::PlanCase;

const std::vector<KernelDescriptor>& good() {
  static const auto k = kwb::testing::vectorTestKernels();
  return k;
}
const std::vector<KernelDescriptor>& faults() {
  static const auto k = kwb::testing::vectorFaultKernels();
  return k;
}
const KernelDescriptor& kernel(const std::string& id) {
  for (const auto* list : {&good(), &faults()})
    for (const auto& k : *list)
      if (k.id == id) return k;
  throw std::runtime_error("no test kernel " + id);
}

kwb::RunDocument run(const std::vector<PlanCase>& plan, bool verifyOnly) {
  kwb::cuda::RunConfig cfg;
  cfg.verifyOnly = verifyOnly;
  cfg.measure.rule = {
      .minSamples = 3, .maxSamples = 3, .minTimeS = 0, .maxTimeS = 1, .maxNoise = 1};
  return kwb::cuda::runPlan(plan, cfg, [](const kwb::StreamEvent&) {}, {});
}

std::vector<PlanCase> planOf(const std::vector<std::string>& ids, const char* family,
                             const std::vector<std::int64_t>& counts,
                             const std::vector<ElementType>& types) {
  std::vector<const KernelDescriptor*> ks;
  for (const auto& id : ids) ks.push_back(&kernel(id));
  return kwb::cuda::orderVectorPlan(ks, kwb::findFamily(family), counts, types);
}

const std::vector<ElementType> kBoth = {ElementType::kFloat32, ElementType::kInt32};

}  // namespace

class Families : public GpuTest {
 protected:
  void SetUp() override {
    kwb::kernels::registerFamilies();  // as kwb does: the 1-D pipeline needs its families
    GpuTest::SetUp();
  }
};

TEST_F(Families, EverySizePassesIncludingRaggedPrimeAndTiny) {
  const std::vector<std::int64_t> counts = {0, 1, 31, 33, 1000003, std::int64_t{1} << 20};
  for (const char* family : {"reduce", "scan"}) {
    const auto doc =
        run(planOf(family == std::string("reduce")
                       ? std::vector<std::string>{"cub.reduce_sum", "testreduce.block_atomic"}
                       : std::vector<std::string>{"cub.inclusive_sum", "testscan.block_serial"},
                   family, counts, kBoth),
            true);
    ASSERT_EQ(doc.cases.size(), counts.size() * 2 * 2);
    EXPECT_TRUE(doc.knownAnswer.ran && doc.knownAnswer.passed) << doc.knownAnswer.detail;
    for (const auto& c : doc.cases) {
      EXPECT_EQ(c.status, kwb::CaseStatus::kPass)
          << c.kernel << " " << kwb::sizeLabel(c) << ": " << c.message;
      EXPECT_EQ(c.problem(), family);
      ASSERT_TRUE(c.verification);
      EXPECT_TRUE(c.verification->negativeControlRejected) << kwb::sizeLabel(c);
      EXPECT_EQ(c.verification->reference, "cpu.fp64");
      if (c.size.word("type") == "i32") {
        EXPECT_EQ(c.verification->tolerance.atol, 0.0);
      }
    }
  }
}

TEST_F(Families, TimedCasesHaveFiguresFromTheDeclaredWork) {
  const auto doc = run(planOf({"cub.reduce_sum", "testreduce.block_atomic"}, "reduce",
                              {std::int64_t{1} << 22}, {ElementType::kFloat32}),
                       false);
  ASSERT_TRUE(doc.device);
  EXPECT_GT(doc.device->copyBandwidthGBs, 0.0);
  ASSERT_EQ(doc.cases.size(), 2u);
  for (const auto& c : doc.cases) {
    ASSERT_TRUE(c.timed()) << c.kernel << ": " << c.message;
    const double bytes = 4.0 * ((1 << 22) + 1);
    EXPECT_NEAR(c.figures.at("gbps"), bytes / (c.summary.median * 1e6), 1e-9 * bytes);
    EXPECT_TRUE(c.figures.contains("pct_of_peak"));
    EXPECT_TRUE(c.figures.contains("pct_of_roof"));
  }
  EXPECT_FALSE(doc.cases[0].figures.contains("pct_of_reference"));  // the reference itself
  EXPECT_TRUE(doc.cases[1].figures.contains("pct_of_reference"));
  EXPECT_TRUE(doc.progression.checked);
}

TEST_F(Families, TwoToTheThirtyElementsReduce) {
  const auto doc =
      run(planOf({"testreduce.block_atomic"}, "reduce", {std::int64_t{1} << 30}, kBoth), true);
  for (const auto& c : doc.cases)
    EXPECT_TRUE(c.status == kwb::CaseStatus::kPass || c.status == kwb::CaseStatus::kSkipped)
        << c.message;
}

TEST_F(Families, CanaryCatchesAnUnwrittenLastElement) {
  const std::int64_t n = 1000003;
  const auto doc = run(planOf({"testscan.leave_last"}, "scan", {n}, kBoth), true);
  for (const auto& c : doc.cases) {
    EXPECT_EQ(c.status, kwb::CaseStatus::kFail) << kwb::sizeLabel(c);
    ASSERT_TRUE(c.verification);
    EXPECT_EQ(c.verification->unwritten, 1);
    ASSERT_TRUE(c.verification->compare.firstMismatchIndex);
    EXPECT_EQ(*c.verification->compare.firstMismatchIndex, n - 1);
    EXPECT_NE(c.message.find("index " + std::to_string(n - 1)), std::string::npos) << c.message;
  }
}

TEST_F(Families, Int32IsExactAMissingElementFails) {
  const auto doc =
      run(planOf({"testreduce.skip_last"}, "reduce", {33, 1000003}, {ElementType::kInt32}), true);
  for (const auto& c : doc.cases) {
    EXPECT_EQ(c.status, kwb::CaseStatus::kFail) << kwb::sizeLabel(c);
    EXPECT_EQ(c.verification->compare.mismatches, 1);
  }
}

TEST_F(Families, ScanInTheWrongOrderFails) {
  // Seeded data (and the alternating pattern below) differ from their reverse: a scan that
  // accumulates from the end is wrong from the first element on.
  const auto doc = run(planOf({"testscan.suffix"}, "scan", {31, 1000003}, kBoth), true);
  for (const auto& c : doc.cases) {
    EXPECT_EQ(c.status, kwb::CaseStatus::kFail) << kwb::sizeLabel(c);
    ASSERT_TRUE(c.verification && c.verification->compare.firstMismatchIndex);
    EXPECT_EQ(*c.verification->compare.firstMismatchIndex, 0);
  }
  const kwb::cuda::Stream stream;
  kwb::cuda::VectorSession session(stream.get());
  const kwb::cuda::VectorFamily& scan = kwb::cuda::vectorFamily("scan");
  for (const ElementType t : kBoth) {
    auto vc = session.prepare(scan, kernel("testscan.suffix"), {1000, t}, 1,
                              kwb::cuda::VectorPattern::kAlternating);
    EXPECT_EQ(session.verify(scan, kernel("testscan.suffix"), *vc).status, kwb::CaseStatus::kFail);
    vc = session.prepare(scan, kernel("testscan.block_serial"), {1000, t}, 1,
                         kwb::cuda::VectorPattern::kAlternating);
    const auto ok = session.verify(scan, kernel("testscan.block_serial"), *vc);
    EXPECT_EQ(ok.status, kwb::CaseStatus::kPass) << ok.message;
  }
}

TEST_F(Families, KnownAnswerTestCatchesAWrongReference) {
  const kwb::cuda::Stream stream;
  kwb::cuda::VectorSession session(stream.get());
  const auto good =
      session.knownAnswerTest(kwb::cuda::vectorFamily("reduce"), kernel("cub.reduce_sum"));
  EXPECT_TRUE(good.passed) << good.detail;
  const auto bad =
      session.knownAnswerTest(kwb::cuda::vectorFamily("reduce"), kernel("testreduce.skip_last"));
  EXPECT_FALSE(bad.passed);
  EXPECT_NE(bad.detail.find("sum of 1..1000"), std::string::npos) << bad.detail;
  const auto scanBad =
      session.knownAnswerTest(kwb::cuda::vectorFamily("scan"), kernel("testscan.leave_last"));
  EXPECT_FALSE(scanBad.passed) << scanBad.detail;
}

TEST_F(Families, TheLargestCountRunsOrIsSkippedWithTheMemoryItNeeds) {
  const auto doc = run(planOf({"testreduce.block_atomic"}, "reduce", {kwb::kMaxVectorCount},
                              {ElementType::kFloat32}),
                       true);
  ASSERT_EQ(doc.cases.size(), 1u);
  // An 80 GB device holds 8 GiB; a smaller one skips the case naming the memory.
  if (doc.cases[0].status == kwb::CaseStatus::kSkipped)
    EXPECT_NE(doc.cases[0].message.find("MiB of device memory"), std::string::npos);
  else
    EXPECT_EQ(doc.cases[0].status, kwb::CaseStatus::kPass) << doc.cases[0].message;
}
