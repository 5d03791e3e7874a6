// SPDX-License-Identifier: Apache-2.0
// The one case loop (cuda::runPlan) in its three uses: a run times what verified, a verify plan
// times nothing, a plan over configurations carries each configuration in its case.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpu_fixture.h"
#include "kwb/cuda/runner.h"
#include "kwb/events.h"
#include "kwb/exit_codes.h"
#include "kwb/tuning.h"
#include "registry.h"
#include "tuning_variants.h"

namespace {

struct Recorded {
  std::vector<kwb::StreamEvent> events;
  kwb::RunDocument doc;
};

Recorded run(const std::vector<kwb::cuda::PlanCase>& plan, bool verifyOnly) {
  kwb::cuda::RunConfig cfg;
  cfg.verifyOnly = verifyOnly;
  cfg.measure.rule = {
      .minSamples = 3, .maxSamples = 3, .minTimeS = 0, .maxTimeS = 1, .maxNoise = 1};
  Recorded r;
  r.doc =
      kwb::cuda::runPlan(plan, cfg, [&](const kwb::StreamEvent& e) { r.events.push_back(e); }, {});
  return r;
}

const kwb::KernelDescriptor& registered(const char* id) {
  return kwb::kernels::registry().find(id);
}

}  // namespace

class Plan : public GpuTest {};

TEST_F(Plan, VerifyPlanVerifiesAndTimesNothing) {
  const kwb::Shape s{96, 80, 64};
  const auto r =
      run({{&registered("cublas.sgemm"), s, {}}, {&registered("sgemm.naive"), s, {}}}, true);
  ASSERT_EQ(r.doc.cases.size(), 2u);
  for (const auto& c : r.doc.cases) {
    EXPECT_EQ(c.status, kwb::CaseStatus::kPass) << c.kernel << ": " << c.message;
    EXPECT_TRUE(c.verification) << c.kernel;
    EXPECT_FALSE(c.timed()) << c.kernel;
  }
  EXPECT_TRUE(r.doc.settings.verifyOnly);
  EXPECT_FALSE(r.doc.launchOverhead);
  EXPECT_FALSE(r.doc.progression.checked);
  EXPECT_TRUE(kwb::allPassed(r.doc));
  ASSERT_FALSE(r.events.empty());
  EXPECT_EQ(r.events.back().exitCode, kwb::kExitOk);
  ASSERT_NE(r.doc.kernelInfo("sgemm.naive"), nullptr);
  EXPECT_EQ(r.doc.kernelInfo("sgemm.naive")->stage, 1);
}

TEST_F(Plan, RunPlanTimesWhatVerified) {
  const kwb::Shape s{128, 128, 128};
  const auto r =
      run({{&registered("cublas.sgemm"), s, {}}, {&registered("sgemm.naive"), s, {}}}, false);
  ASSERT_EQ(r.doc.cases.size(), 2u);
  for (const auto& c : r.doc.cases) EXPECT_TRUE(c.timed()) << c.kernel << ": " << c.message;
  EXPECT_TRUE(r.doc.cases[1].pctOfFp32Reference);  // the reference ran first on the shape
  EXPECT_TRUE(r.doc.progression.checked);
}

TEST_F(Plan, ConfigurationPlanCarriesEachConfiguration) {
  const kwb::KernelDescriptor& base = registered("sgemm.warp_tiled");
  const auto variants = kwb::kernels::tuneVariants(base.id);
  ASSERT_GE(variants.size(), 2u);
  std::vector<kwb::KernelDescriptor> configured;
  for (std::size_t i = 0; i < 2; ++i)
    configured.push_back(kwb::kernels::withVariant(base, variants[i]));
  const kwb::Shape s{256, 256, 256};
  const auto r = run(
      {{&configured[0], s, variants[0].config}, {&configured[1], s, variants[1].config}}, false);
  ASSERT_EQ(r.doc.cases.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    const auto& c = r.doc.cases[i];
    ASSERT_TRUE(c.config) << c.kernel;
    EXPECT_EQ(*c.config, variants[i].config);
    EXPECT_EQ(c.kernel, configured[i].id);
    EXPECT_EQ(c.status, kwb::CaseStatus::kPass) << c.kernel << ": " << c.message;
    EXPECT_TRUE(c.timed()) << c.kernel;
  }
  // One kernel listed for both configurations, and no progression between them.
  ASSERT_EQ(r.doc.kernels.size(), 1u);
  EXPECT_EQ(r.doc.kernels[0].id, "sgemm.warp_tiled");
  EXPECT_TRUE(r.doc.progression.violations.empty());
  EXPECT_TRUE(kwb::fastest(r.doc.cases));
}
