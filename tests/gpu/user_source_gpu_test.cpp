// SPDX-License-Identifier: Apache-2.0
// Public kernels as their authors wrote them (docs/BRING_YOUR_OWN.md, "Code that builds with
// nvcc"): siboehm/SGEMM_CUDA kernels 1 (naive, grid x along M) and 5 (2-D blocktiling, a
// template, no bounds checks), with nothing but a `// kwb:` header, compute C right through the
// runner. A grid expression that is fractional at a shape errors that case only, naming the rule;
// a fault names the user's file and the rule, never an engine source file.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpu_fixture.h"
#include "kwb/cuda/runner.h"
#include "kwb/cuda/user_kernel.h"
#include "run_process.h"

namespace {

const std::string kData = KWB_SOURCE_DIR "/tests/data/byok/";

kwb::KernelDescriptor user(const std::string& file, const kwb::UserLaunchSpec& options = {}) {
  const auto src = kwb::cuda::readUserSource(kData + file);
  return kwb::cuda::makeUserKernel(
      kwb::cuda::compileUserKernel(src, options, kwb::cuda::deviceArch(0)));
}

kwb::RunDocument run(const kwb::KernelRegistry& registry,
                     const std::vector<kwb::PlannedCase>& plan) {
  kwb::cuda::RunConfig cfg;
  cfg.measure.rule = {
      .minSamples = 3, .maxSamples = 3, .minTimeS = 0, .maxTimeS = 1, .maxNoise = 1};
  return kwb::cuda::runPlan(registry, plan, cfg, [](const kwb::StreamEvent&) {}, {});
}

// C right: every element written, none off the reference, in the canary run and the alpha/beta
// run. (Both kernels compute beta·C also at beta = 0; a rule against reading C there fails the
// case by its own name, which is not what this test is about.)
void expectRightC(const kwb::CaseResult& c) {
  const kwb::Shape s = c.shape();
  SCOPED_TRACE(c.kernel + " at " + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
               std::to_string(s.k) + ": " + c.message);
  EXPECT_NE(c.status, kwb::CaseStatus::kError);
  EXPECT_NE(c.status, kwb::CaseStatus::kSkipped);
  ASSERT_TRUE(c.verification.has_value());
  EXPECT_EQ(c.verification->unwritten, 0);
  EXPECT_GT(c.verification->compare.elements, 0);
  EXPECT_EQ(c.verification->compare.mismatches, 0);
  if (c.verification->alphaBeta) {
    EXPECT_EQ(c.verification->alphaBeta->mismatches, 0);
  }
}

}  // namespace

class UserSource : public GpuTest {};

TEST_F(UserSource, SiboehmNaiveKernelRunsWithGridXAlongM) {
  const kwb::KernelRegistry registry({user("src_sgemm1_naive.cu")});
  // 1024x2048x512: with x along N (kwb's default) half of C would stay unwritten.
  const auto doc = run(registry, {{"user.src_sgemm1_naive", kwb::Shape{1024, 1024, 1024}},
                                  {"user.src_sgemm1_naive", kwb::Shape{1024, 2048, 512}}});
  ASSERT_EQ(doc.cases.size(), 2u);
  for (const auto& c : doc.cases) expectRightC(c);
}

// The same kernel built by the toolkit's nvcc (--compiler nvcc): the cubin loads and runs alike.
TEST_F(UserSource, SiboehmBlocktilingBuiltByNvccRuns) {
  if (kwb::cuda::findNvcc().empty()) GTEST_SKIP() << "no nvcc on PATH or beside the toolkit";
  const auto src = kwb::cuda::readUserSource(kData + "src_sgemm5_blocktiling.cu");
  const auto compiled = kwb::cuda::compileUserKernel(src, {}, kwb::cuda::deviceArch(0),
                                                     kwb::cuda::nvccRunner({}, 300, 8192), false);
  EXPECT_FALSE(compiled.image.empty()) << "a cubin";
  const kwb::KernelRegistry registry({kwb::cuda::makeUserKernel(compiled)});
  const auto doc = run(registry, {{"user.src_sgemm5_blocktiling", kwb::Shape{1024, 1024, 1024}}});
  ASSERT_EQ(doc.cases.size(), 1u);
  expectRightC(doc.cases[0]);
}

TEST_F(UserSource, SiboehmBlocktilingTemplateRunsByItsTemplateArguments) {
  const kwb::KernelRegistry registry({user("src_sgemm5_blocktiling.cu")});
  const auto doc = run(registry, {{"user.src_sgemm5_blocktiling", kwb::Shape{1024, 1024, 1024}}});
  ASSERT_EQ(doc.cases.size(), 1u);
  expectRightC(doc.cases[0]);
  // As written it computes alpha·tmp + beta·C with no beta = 0 case, so a NaN left in C comes
  // out: it runs, its C is right, and the case fails on that rule (not timed).
  EXPECT_EQ(doc.cases[0].status, kwb::CaseStatus::kFail) << doc.cases[0].message;
  EXPECT_NE(doc.cases[0].message.find("read C although beta = 0"), std::string::npos)
      << doc.cases[0].message;
  EXPECT_FALSE(doc.cases[0].timed());
}

// grid=N/32 at N = 100 is 3.125 blocks: the case errors naming the expression, the next runs.
TEST_F(UserSource, AFractionalGridErrorsThatCaseOnly) {
  kwb::UserLaunchSpec spec;
  spec.grid = kwb::parseLaunchExpr("M/32,N/32", "--grid");
  spec.block = kwb::Dim2{32, 32};
  const kwb::KernelRegistry registry({user("src_sgemm1_naive.cu", spec)});
  const auto doc = run(registry, {{"user.src_sgemm1_naive", kwb::Shape{100, 100, 64}},
                                  {"user.src_sgemm1_naive", kwb::Shape{128, 128, 64}}});
  ASSERT_EQ(doc.cases.size(), 2u);
  EXPECT_EQ(doc.cases[0].status, kwb::CaseStatus::kError);
  EXPECT_NE(doc.cases[0].message.find("--grid: x = 3.125"), std::string::npos)
      << doc.cases[0].message;
  EXPECT_NE(doc.cases[0].message.find("not a whole number"), std::string::npos);
  expectRightC(doc.cases[1]);
}

// Kernel 5 has no bounds checks: at 511x513x1025 it reads and writes past its matrices. Through
// the real engine (a fault that loses the context ends the process's CUDA work): the case's
// text names the user's file, the entry, the shape and the rule, and no engine source file.
// Where the overrun stays inside the allocations, the guard region catches it instead.
TEST_F(UserSource, AFaultNamesTheUsersFileAndTheRuleNotTheEngine) {
  const std::string json = ::testing::TempDir() + "user_source_fault.json";
  const auto r = runKwb({"run", "--source", kData + "src_sgemm5_blocktiling.cu", "--kernels",
                         "user.src_sgemm5_blocktiling", "--shapes", "511x513x1025",
                         "--no-cupti-check", "--json", json});
  EXPECT_NE(r.exitCode, 0) << r.err;
  const auto doc = nlohmann::json::parse(slurp(json));
  ASSERT_EQ(doc["cases"].size(), 1u) << doc.dump(1);
  const std::string message = doc["cases"][0]["message"].get<std::string>();
  if (doc["cases"][0]["status"] == "error") {
    EXPECT_NE(message.find("src_sgemm5_blocktiling.cu (entry sgemm2DBlocktiling<128,128,8,8,8>) "
                           "faulted at 511x513x1025"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("the rule:"), std::string::npos) << message;
  } else {
    EXPECT_EQ(doc["cases"][0]["status"], "fail") << message;
    EXPECT_NE(message.find("wrote outside C"), std::string::npos) << message;
  }
  EXPECT_EQ(message.find(".cpp:"), std::string::npos) << message;
  EXPECT_EQ(message.find("core/cuda"), std::string::npos) << message;
}
