// SPDX-License-Identifier: Apache-2.0
// Bounded cases through the runner: a case whose estimate exceeds --max-case-seconds is
// skipped before it starts, with the estimate and the rate's source in its message.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpu_fixture.h"
#include "kwb/cuda/runner.h"
#include "registry.h"

namespace {

kwb::RunDocument runWithBound(const std::vector<kwb::PlannedCase>& plan, double maxCaseSeconds) {
  kwb::cuda::RunConfig cfg;
  cfg.measure.rule = {
      .minSamples = 3, .maxSamples = 3, .minTimeS = 0, .maxTimeS = 1, .maxNoise = 1};
  cfg.measure.cuptiCheck = false;
  cfg.maxCaseSeconds = maxCaseSeconds;
  return kwb::cuda::runPlan(kwb::kernels::registry(), plan, cfg, [](const kwb::StreamEvent&) {},
                            {});
}

class CaseBudgetRun : public GpuTest {};

TEST_F(CaseBudgetRun, OverTheBoundIsSkippedWithTheProbedEstimate) {
  const auto doc = runWithBound({{"sgemm.naive", kwb::Shape{2048, 2048, 2048}}}, 1e-4);
  ASSERT_EQ(doc.cases.size(), 1u);
  const auto& c = doc.cases[0];
  EXPECT_EQ(c.status, kwb::CaseStatus::kSkipped) << c.message;
  EXPECT_NE(c.message.find("exceeds --max-case-seconds"), std::string::npos) << c.message;
  EXPECT_NE(c.message.find("one launch timed at 1024x1024x1024"), std::string::npos) << c.message;
}

TEST_F(CaseBudgetRun, MeasuredRateOfASmallerShapeIsUsed) {
  const auto doc = runWithBound(
      {{"sgemm.naive", kwb::Shape{256, 256, 256}}, {"sgemm.naive", kwb::Shape{2048, 2048, 2048}}},
      1e-4);
  ASSERT_EQ(doc.cases.size(), 2u);
  EXPECT_EQ(doc.cases[0].status, kwb::CaseStatus::kPass)
      << "no larger than the probe: not estimated";
  EXPECT_EQ(doc.cases[1].status, kwb::CaseStatus::kSkipped);
  EXPECT_NE(doc.cases[1].message.find("measured at 256x256x256"), std::string::npos)
      << doc.cases[1].message;
}

TEST_F(CaseBudgetRun, WithinTheBoundOrUnboundedRuns) {
  for (const double bound : {60.0, 0.0}) {
    const auto doc = runWithBound({{"sgemm.naive", kwb::Shape{2048, 2048, 2048}}}, bound);
    ASSERT_EQ(doc.cases.size(), 1u);
    EXPECT_EQ(doc.cases[0].status, kwb::CaseStatus::kPass) << doc.cases[0].message;
    EXPECT_GE(doc.cases[0].samplesMs.size(), 3u);
  }
}

}  // namespace
