#include <gtest/gtest.h>

#include "kwb/progression.h"

namespace {
kwb::CaseResult timed(const std::string& kernel, kwb::Shape s, double gflops,
                      kwb::CaseStatus st = kwb::CaseStatus::kPass) {
  kwb::CaseResult c;
  c.kernel = kernel;
  c.shape = s;
  c.status = st;
  c.samplesMs = {1.0};
  c.gflops = gflops;
  return c;
}
int stageOf(std::string_view id) {
  if (id == "sgemm.naive") return 1;
  if (id == "sgemm.tiled") return 2;
  if (id == "sgemm.bank_free") return 3;
  if (id == "sgemm.tensor_core") return 5;
  return 0;
}
const kwb::Shape kA{512, 512, 512}, kB{1024, 1024, 1024};
}  // namespace

TEST(Progression, MonotonicHasNoViolations) {
  const std::vector<kwb::CaseResult> cases{
      timed("sgemm.tiled", kA, 200), timed("sgemm.naive", kA, 100),
      timed("sgemm.bank_free", kA, 200), timed("cublas.sgemm", kA, 10)};
  const auto p = kwb::checkProgression(cases, stageOf);
  EXPECT_TRUE(p.checked);
  EXPECT_TRUE(p.violations.empty());
}

TEST(Progression, DropIsReportedPerShape) {
  const std::vector<kwb::CaseResult> cases{
      timed("sgemm.naive", kA, 100), timed("sgemm.tiled", kA, 90),
      timed("sgemm.bank_free", kA, 300), timed("sgemm.naive", kB, 100),
      timed("sgemm.tiled", kB, 150)};
  const auto p = kwb::checkProgression(cases, stageOf);
  ASSERT_EQ(p.violations.size(), 1u);
  EXPECT_EQ(p.violations[0].shape, kA);
  EXPECT_EQ(p.violations[0].from, "sgemm.naive");
  EXPECT_EQ(p.violations[0].to, "sgemm.tiled");
  EXPECT_EQ(p.violations[0].toGflops, 90);
}

TEST(Progression, FailedAndFallbackCasesAreLeftOut) {
  const std::vector<kwb::CaseResult> cases{
      timed("sgemm.naive", kA, 100), timed("sgemm.tiled", kA, 50, kwb::CaseStatus::kFail),
      timed("sgemm.bank_free", kA, 200),
      timed("sgemm.tensor_core", kA, 150, kwb::CaseStatus::kFallback)};
  const auto p = kwb::checkProgression(cases, stageOf);
  EXPECT_TRUE(p.violations.empty());
}
