// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "kwb/progression.h"
#include "kwb/results.h"

namespace {
kwb::CaseResult timed(const std::string& kernel, kwb::Shape s, double gflops,
                      kwb::CaseStatus st = kwb::CaseStatus::kPass) {
  kwb::CaseResult c;
  c.kernel = kernel;
  c.size = kwb::gemmSize(s);
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
  if (id == "sgemm.warp_tiled") return 7;
  if (id == "sgemm.mma_multistage") return 8;
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

TEST(Progression, LaterStagesFollowTheirOwnPrecision) {
  auto fp16 = [](kwb::CaseResult c) {
    c.precision = kwb::Precision::kFp16Fp32Acc;
    return c;
  };
  // FP32: naive 100 → bank_free 200 → warp_tiled 250 (slower than tensor_core: not compared).
  // FP16: tensor_core 900 (after bank_free, the last earlier stage) → mma_multistage 800 (drop).
  const std::vector<kwb::CaseResult> cases{
      timed("sgemm.naive", kA, 100), timed("sgemm.bank_free", kA, 200),
      fp16(timed("sgemm.tensor_core", kA, 900)), timed("sgemm.warp_tiled", kA, 250),
      fp16(timed("sgemm.mma_multistage", kA, 800))};
  const auto p = kwb::checkProgression(cases, stageOf);
  ASSERT_EQ(p.violations.size(), 1u);
  EXPECT_EQ(p.violations[0].from, "sgemm.tensor_core");
  EXPECT_EQ(p.violations[0].to, "sgemm.mma_multistage");
}

TEST(Progression, FirstTensorStageFollowsTheLastFp32Stage) {
  kwb::CaseResult tc = timed("sgemm.tensor_core", kA, 150);
  tc.precision = kwb::Precision::kFp16Fp32Acc;
  const std::vector<kwb::CaseResult> cases{timed("sgemm.bank_free", kA, 200), tc};
  const auto p = kwb::checkProgression(cases, stageOf);
  ASSERT_EQ(p.violations.size(), 1u);
  EXPECT_EQ(p.violations[0].from, "sgemm.bank_free");
}

TEST(Progression, DropInsideTheConfidenceIntervalsIsMarkedWithinNoise) {
  auto withCi = [](kwb::CaseResult c, double low, double high) {
    c.summary.ci95 = {low, high};
    return c;
  };
  // Times in ms: naive 1.00 [0.99, 1.01]; tiled 1.005 [1.000, 1.010] overlaps → noise.
  // bank_free 1.10 [1.09, 1.11] does not overlap tiled → a real drop.
  const std::vector<kwb::CaseResult> cases{withCi(timed("sgemm.naive", kA, 100.0), 0.99, 1.01),
                                           withCi(timed("sgemm.tiled", kA, 99.5), 1.000, 1.010),
                                           withCi(timed("sgemm.bank_free", kA, 90.9), 1.09, 1.11)};
  const auto p = kwb::checkProgression(cases, stageOf);
  ASSERT_EQ(p.violations.size(), 2u);
  EXPECT_TRUE(p.violations[0].withinNoise);
  EXPECT_EQ(p.violations[0].to, "sgemm.tiled");
  EXPECT_FALSE(p.violations[1].withinNoise);
  EXPECT_EQ(p.violations[1].to, "sgemm.bank_free");
}

namespace {

kwb::CaseResult timedCase(const std::string& kernel, double gflops) {
  kwb::CaseResult c;
  c.kernel = kernel;
  c.size = kwb::gemmSize({512, 512, 512});
  c.status = kwb::CaseStatus::kPass;
  c.samplesMs = {1.0};
  c.gflops = gflops;
  c.summary.ci95 = {gflops, gflops};  // distinct intervals: not within noise
  return c;
}

}  // namespace

TEST(ProgressionOfADocument, StagesComeFromTheDocumentsKernels) {
  kwb::RunDocument doc;
  // A stage no reader knows, ranked by the document alone: stage 10 slower than stage 2.
  doc.kernels = {{"sgemm.tiled", "Tiled", "sgemm", 2, "fp32", false, "", false},
                 {"sgemm.future_stage", "Future stage", "sgemm", 10, "fp32", false, "", false},
                 {"cublas.sgemm", "cuBLAS", "cublas", 0, "fp32", true, "", false}};
  doc.cases = {timedCase("cublas.sgemm", 5000), timedCase("sgemm.tiled", 900),
               timedCase("sgemm.future_stage", 800)};
  const kwb::ProgressionCheck p = kwb::checkProgression(doc);
  EXPECT_TRUE(p.checked);
  ASSERT_EQ(p.violations.size(), 1u);
  EXPECT_EQ(p.violations[0].from, "sgemm.tiled");
  EXPECT_EQ(p.violations[0].to, "sgemm.future_stage");
  // Reorder the stages in the document: the same cases now progress.
  doc.kernels[1].stage = 1;
  EXPECT_TRUE(kwb::checkProgression(doc).violations.empty());
}

TEST(ProgressionOfADocument, TuningConfigurationsAreNotStages) {
  kwb::RunDocument doc;
  doc.kernels = {{"sgemm.warp_tiled", "Warp tiled", "sgemm", 7, "fp32", false, "", true}};
  doc.cases = {timedCase("sgemm.warp_tiled[a]", 900), timedCase("sgemm.warp_tiled[b]", 800)};
  EXPECT_TRUE(kwb::checkProgression(doc).violations.empty());
}

namespace {
kwb::CaseResult at(const std::string& kernel, kwb::Shape s, double gflops) {
  kwb::CaseResult c = timedCase(kernel, gflops);
  c.size = kwb::gemmSize(s);
  return c;
}
kwb::CaseResult oneD(const std::string& kernel, std::int64_t count, double gflops) {
  kwb::CaseResult c = timedCase(kernel, gflops);
  c.size = kwb::vectorSize("scan", count, "f32");
  return c;
}
const kwb::ProgressionViolation* violationAt(const kwb::ProgressionCheck& p,
                                             const std::string& size) {
  for (const auto& v : p.violations)
    if (v.size == size) return &v;
  return nullptr;
}
}  // namespace

// A stage's notes explain only the violations they cover (size, alignment); every violation is
// still reported, explained or not.
TEST(ProgressionOfADocument, NotesExplainOnlyTheCasesTheyCover) {
  kwb::RunDocument doc;
  doc.kernels = {{"sgemm.tiled", "Tiled", "sgemm", 2, "fp32", false, "", false},
                 {"sgemm.later", "Later", "sgemm", 3, "fp32", false, "", false}};
  doc.kernels[1].progressionNotes = {{.why = "small shapes", .maxFlops = 2.0 * 512 * 512 * 512},
                                     {.why = "K or N not a multiple of 4", .unalignedOnly = true}};
  const kwb::Shape small{512, 512, 512}, large{1024, 1024, 1024}, odd{1000, 1001, 1000};
  for (const kwb::Shape& s : {small, large, odd})
    for (auto c : {at("sgemm.tiled", s, 900), at("sgemm.later", s, 800)}) doc.cases.push_back(c);
  const kwb::ProgressionCheck p = kwb::checkProgression(doc);
  ASSERT_EQ(p.violations.size(), 3u);
  EXPECT_EQ(violationAt(p, "512x512x512")->explanation, "small shapes");
  EXPECT_EQ(violationAt(p, "1024x1024x1024")->explanation, "");  // too large for the note
  EXPECT_EQ(violationAt(p, "1000x1001x1000")->explanation, "K or N not a multiple of 4");
  EXPECT_EQ(kwb::violationCount(p), "3 violation(s), 2 explained by the stages' notes");
  EXPECT_NE(kwb::violationText(*violationAt(p, "512x512x512")).find("explained: small shapes"),
            std::string::npos);
  EXPECT_EQ(kwb::violationText(*violationAt(p, "1024x1024x1024")).find("explained"),
            std::string::npos);
}

TEST(ProgressionOfADocument, OneDimensionalNotesCoverCountsUpToTheirLimit) {
  kwb::RunDocument doc;
  doc.kernels = {{"scan.a", "A", "scan", 1, "fp32", false, "", false},
                 {"scan.b", "B", "scan", 2, "fp32", false, "", false}};
  doc.kernels[0].problem = doc.kernels[1].problem = "scan";
  doc.kernels[1].progressionNotes = {{.why = "small inputs", .maxCount = 1 << 21}};
  for (const std::int64_t n : {std::int64_t{1} << 20, std::int64_t{1} << 28})
    for (auto c : {oneD("scan.a", n, 900), oneD("scan.b", n, 800)}) doc.cases.push_back(c);
  const kwb::ProgressionCheck p = kwb::checkProgression(doc);
  ASSERT_EQ(p.violations.size(), 2u);
  EXPECT_EQ(violationAt(p, "2^20 f32")->explanation, "small inputs");
  EXPECT_EQ(violationAt(p, "2^28 f32")->explanation, "");
}

// Notes of any family: only sizes with a number axis at least a bound ("bins" from 257) and only
// sizes with a word ("f32").
TEST(ProgressionOfADocument, NotesCoverSizesByAxisAndWord) {
  kwb::RunDocument doc;
  doc.kernels = {{"hist.a", "A", "hist", 1, "fp32", false, "", false},
                 {"hist.b", "B", "hist", 2, "fp32", false, "", false}};
  doc.kernels[0].problem = doc.kernels[1].problem = "hist";
  doc.kernels[1].progressionNotes = {{.why = "many bins", .axis = "bins", .axisMin = 257},
                                     {.why = "floats", .word = "f32"}};
  auto size = [](std::int64_t bins, const char* type) {
    return kwb::CaseSize("hist", {{"count", kwb::AxisKind::kCount, 1 << 20},
                                  {"type", kwb::AxisKind::kWord, 0, type},
                                  {"bins", kwb::AxisKind::kCount, bins, "", "bins"}});
  };
  for (const auto& s : {size(256, "u8"), size(4096, "u8"), size(256, "f32")})
    for (auto c : {timedCase("hist.a", 900), timedCase("hist.b", 800)}) {
      c.size = s;
      doc.cases.push_back(c);
    }
  const kwb::ProgressionCheck p = kwb::checkProgression(doc);
  ASSERT_EQ(p.violations.size(), 3u);
  EXPECT_EQ(violationAt(p, kwb::sizeLabel(size(256, "u8")))->explanation, "");
  EXPECT_EQ(violationAt(p, kwb::sizeLabel(size(4096, "u8")))->explanation, "many bins");
  EXPECT_EQ(violationAt(p, kwb::sizeLabel(size(256, "f32")))->explanation, "floats");
  // The fields survive a document's round trip.
  const kwb::RunDocument back = kwb::parseDocument(kwb::toJsonText(doc), "test");
  ASSERT_EQ(back.kernels[1].progressionNotes.size(), 2u);
  EXPECT_EQ(back.kernels[1].progressionNotes[0].axis, "bins");
  EXPECT_EQ(back.kernels[1].progressionNotes[0].axisMin, 257);
  EXPECT_EQ(back.kernels[1].progressionNotes[1].word, "f32");
}
