// SPDX-License-Identifier: Apache-2.0
// Bring your own kernel on the GPU: the examples verify and time; a wrong kernel, one writing
// past C and one replaying a cached C are each caught, and the run goes on.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpu_fixture.h"
#include "kwb/cuda/runner.h"
#include "kwb/cuda/user_kernel.h"
#include "descriptors.h"

namespace {

kwb::KernelDescriptor user(const std::string& path) {
  const auto src = kwb::cuda::readUserSource(path);
  return kwb::cuda::makeUserKernel(kwb::cuda::compileUserKernel(src, {}, kwb::cuda::deviceArch(0)));
}

kwb::RunDocument run(const kwb::KernelRegistry& registry,
                     const std::vector<kwb::PlannedCase>& plan) {
  kwb::cuda::RunConfig cfg;
  cfg.measure.rule = {
      .minSamples = 5, .maxSamples = 5, .minTimeS = 0, .maxTimeS = 1, .maxNoise = 1};
  return kwb::cuda::runPlan(registry, plan, cfg, [](const kwb::StreamEvent&) {}, {});
}

const std::string kExamples = KWB_SOURCE_DIR "/resources/examples/";
const std::string kData = KWB_SOURCE_DIR "/tests/data/byok/";

}  // namespace

class UserKernel : public GpuTest {};

TEST_F(UserKernel, BothExamplesVerifyAndTime) {
  const kwb::KernelRegistry registry(
      {user(kExamples + "sgemm_tiled_user.cu"), user(kExamples + "hgemm_simple.cu")});
  for (const kwb::Shape s : {kwb::Shape{1024, 1024, 1024}, kwb::Shape{127, 65, 33}}) {
    const auto doc = run(registry, {{"user.sgemm_tiled_user", s}, {"user.hgemm_simple", s}});
    for (const auto& c : doc.cases) {
      EXPECT_EQ(c.status, kwb::CaseStatus::kPass) << c.kernel << " " << c.message;
      EXPECT_TRUE(c.timed()) << c.kernel;
      EXPECT_GT(c.gflops, 0) << c.kernel;
    }
  }
}

// The case names its source in the streamed event already (the GUI builds its document from
// events), not only in the document the engine writes at the end.
TEST_F(UserKernel, StreamedCasesNameTheirSourceAndHash) {
  const kwb::KernelRegistry registry({user(kExamples + "sgemm_tiled_user.cu")});
  kwb::cuda::RunConfig cfg;
  cfg.verifyOnly = true;
  std::vector<kwb::CaseResult> streamed;
  kwb::cuda::runPlan(registry, {{"user.sgemm_tiled_user", kwb::Shape{64, 64, 64}}}, cfg,
                     [&](const kwb::StreamEvent& e) {
                       if (e.result) streamed.push_back(*e.result);
                     },
                     {});
  ASSERT_EQ(streamed.size(), 1u);
  EXPECT_NE(streamed[0].sourcePath.find("sgemm_tiled_user.cu"), std::string::npos)
      << streamed[0].sourcePath;
  EXPECT_EQ(streamed[0].sourceHash.size(), 16u) << streamed[0].sourceHash;
}

TEST_F(UserKernel, WrongKernelFailsWithTheMismatchLocated) {
  const kwb::KernelRegistry registry({user(kData + "wrong_element.cu")});
  const auto doc = run(registry, {{"user.wrong_element", kwb::Shape{64, 48, 32}}});
  ASSERT_EQ(doc.cases.size(), 1u);
  EXPECT_EQ(doc.cases[0].status, kwb::CaseStatus::kFail);
  EXPECT_NE(doc.cases[0].message.find("row 5, col 7"), std::string::npos) << doc.cases[0].message;
}

TEST_F(UserKernel, WritingPastCIsCaughtByTheGuardAndTheRunGoesOn) {
  const kwb::KernelRegistry registry(
      {user(kData + "writes_past_c.cu"), kwb::kernels::sgemmNaive()});
  const kwb::Shape s{70, 48, 32};  // 70 rows: the last 16-row tile overruns by 10 rows
  const auto doc = run(registry, {{"user.writes_past_c", s}, {"sgemm.naive", s}});
  ASSERT_EQ(doc.cases.size(), 2u);
  EXPECT_EQ(doc.cases[0].status, kwb::CaseStatus::kFail);
  EXPECT_NE(doc.cases[0].message.find("wrote outside C"), std::string::npos)
      << doc.cases[0].message;
  EXPECT_EQ(doc.cases[1].status, kwb::CaseStatus::kPass) << doc.cases[1].message;
}

// A kernel that copies a cached answer into C writes C every time: the second seed catches it.
TEST_F(UserKernel, ReplayingACachedResultFailsTheSecondSeed) {
  const kwb::KernelRegistry registry({user(kData + "replays_copy.cu")});
  const auto doc = run(registry, {{"user.replays_copy", kwb::Shape{256, 256, 64}}});
  ASSERT_EQ(doc.cases.size(), 1u);
  EXPECT_FALSE(kwb::isGood(doc.cases[0].status));
  EXPECT_NE(doc.cases[0].message.find("second seed"), std::string::npos) << doc.cases[0].message;
}
