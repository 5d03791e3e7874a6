// SPDX-License-Identifier: Apache-2.0
// The defences of docs/BRING_YOUR_OWN.md ("Defences"), each against a planted user kernel
// (tests/data/byok/): one that reads C at beta = 0, one that stops computing during the timed
// samples, one that replays a cached answer (caught by --fresh-inputs), one faster than the
// device can compute. And the built-in stages and cuBLAS, which must pass every one of them.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gpu_fixture.h"
#include "kwb/cuda/runner.h"
#include "kwb/cuda/user_kernel.h"
#include "kwb/exit_codes.h"
#include "registry.h"
#include "run_process.h"

namespace {

const std::string kData = KWB_SOURCE_DIR "/tests/data/byok/";

kwb::KernelDescriptor user(const std::string& path) {
  const auto src = kwb::cuda::readUserSource(path);
  return kwb::cuda::makeUserKernel(kwb::cuda::compileUserKernel(src, {}, kwb::cuda::deviceArch(0)));
}

kwb::RunDocument run(const kwb::KernelRegistry& registry, const std::vector<kwb::PlannedCase>& plan,
                     int freshInputs = 1) {
  kwb::cuda::RunConfig cfg;
  cfg.measure.rule = {
      .minSamples = 5, .maxSamples = 5, .minTimeS = 0, .maxTimeS = 1, .maxNoise = 1};
  cfg.freshInputs = freshInputs;
  return kwb::cuda::runPlan(registry, plan, cfg, [](const kwb::StreamEvent&) {}, {});
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

class Defences : public GpuTest {};

// Through the engine as a user runs it: kwb run --source fails the case, naming the rule.
TEST_F(Defences, ReadingCAtBetaZeroFailsKwbRunSource) {
  const std::string json = ::testing::TempDir() + "reads_c.json";
  const auto r = runKwb({"run", "--source", kData + "reads_c_at_beta0.cu", "--kernels",
                         "user.reads_c_at_beta0", "--shapes", "1024,511x513x1025",
                         "--no-cupti-check", "--json", json});
  EXPECT_EQ(r.exitCode, kwb::kExitCaseFailed) << r.err;
  const auto doc = nlohmann::json::parse(slurp(json));
  ASSERT_EQ(doc["cases"].size(), 2u) << doc.dump(1);
  for (const auto& c : doc["cases"]) {
    EXPECT_EQ(c["status"], "fail");
    EXPECT_TRUE(has(c["message"].get<std::string>(), "read C although beta = 0")) << c["message"];
    EXPECT_GT(c["verification"]["nanFromOutput"].get<long long>(), 0);
  }
}

TEST_F(Defences, AKernelThatStopsComputingDuringTheSamplesFails) {
  const kwb::KernelRegistry registry({user(kData + "replays_cache.cu")});
  const auto doc = run(registry, {{"user.replays_cache", kwb::gemmSize({256, 256, 64})}});
  ASSERT_EQ(doc.cases.size(), 1u);
  const auto& c = doc.cases[0];
  EXPECT_EQ(c.status, kwb::CaseStatus::kFail) << c.message;
  EXPECT_TRUE(has(c.message, "the last timed launch's output")) << c.message;
  ASSERT_TRUE(c.verification && c.verification->timedOutput);
  EXPECT_GT(c.verification->timedOutput->nonFinite, 0);
}

// Without fresh inputs the replayed copy is right for the one input set (the second seed,
// after timing, still catches it); with two sets the last timed launch's output is wrong.
TEST_F(Defences, FreshInputsCatchAKernelReplayingACachedAnswer) {
  const kwb::KernelRegistry registry({user(kData + "replays_copy.cu")});
  const auto doc = run(registry, {{"user.replays_copy", kwb::gemmSize({256, 256, 64})}}, 2);
  ASSERT_EQ(doc.cases.size(), 1u);
  const auto& c = doc.cases[0];
  EXPECT_EQ(c.status, kwb::CaseStatus::kFail) << c.message;
  EXPECT_TRUE(has(c.message, "the last timed launch's output")) << c.message;
  EXPECT_EQ(c.inputSets, 2);
  EXPECT_EQ(doc.settings.freshInputs, 2);
}

TEST_F(Defences, AnAnswerCopiedFromAPrecomputedBufferIsSuspicious) {
  const kwb::KernelRegistry registry({user(kData + "precomputed.cu")});
  const auto doc = run(registry, {{"user.precomputed", kwb::gemmSize({1024, 1024, 1024})}});
  ASSERT_EQ(doc.cases.size(), 1u);
  const auto& c = doc.cases[0];
  EXPECT_EQ(c.status, kwb::CaseStatus::kFail) << c.message;
  EXPECT_FALSE(c.suspicious.empty());
  EXPECT_TRUE(has(c.message, "suspicious: median")) << c.message;
  EXPECT_TRUE(has(c.suspicious, "FP32 peak")) << c.suspicious;
}

// Every defence holds for the honest: the built-in stages and the cuBLAS references pass them
// all (cuBLAS honours beta = 0), with two fresh input sets.
TEST_F(Defences, BuiltInStagesAndCublasPassEveryDefence) {
  std::vector<kwb::PlannedCase> plan;
  for (const auto& k : kwb::kernels::registry().all())
    if (k.problem == "gemm")
      for (const kwb::Shape s : {kwb::Shape{1024, 1024, 1024}, kwb::Shape{511, 513, 1025}})
        plan.push_back({k.id, kwb::gemmSize(s)});
  const auto doc = run(kwb::kernels::registry(), plan, 2);
  ASSERT_EQ(doc.cases.size(), plan.size());
  for (const auto& c : doc.cases) {
    EXPECT_TRUE(kwb::isGood(c.status))
        << c.kernel << " " << kwb::toString(c.shape()) << ": " << c.message;
    ASSERT_TRUE(c.verification) << c.kernel;
    EXPECT_EQ(c.verification->nanFromOutput.value_or(-1), 0) << c.kernel;
    ASSERT_TRUE(c.verification->timedOutput) << c.kernel;
    EXPECT_TRUE(c.verification->timedOutput->passed()) << c.kernel;
    EXPECT_TRUE(c.suspicious.empty()) << c.kernel << ": " << c.suspicious;
    EXPECT_EQ(c.inputSets, 2) << c.kernel;
  }
}

}  // namespace
