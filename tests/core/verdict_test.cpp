// SPDX-License-Identifier: Apache-2.0
// The status rules of the verification pipeline, without a GPU: each check must be able to
// fail a case on its own.
#include <gtest/gtest.h>

#include <limits>

#include "kwb/cuda/verdict.h"

using kwb::CaseStatus;

namespace {
kwb::CaseResult goodCase() {
  kwb::CaseResult c;
  c.kernel = "sgemm.tiled";
  c.size = kwb::gemmSize({4, 4, 4});
  c.ranKernel = "sgemm.tiled";
  kwb::Verification v;
  v.reference = "cublas.sgemm";
  v.compare.elements = 16;
  v.negativeControlRejected = true;
  v.alphaBeta = v.compare;
  c.verification = v;
  return c;
}
}  // namespace

TEST(Verdict, CleanCasePasses) {
  auto c = goodCase();
  kwb::cuda::applyVerdict(c);
  EXPECT_EQ(c.status, CaseStatus::kPass);
  EXPECT_TRUE(c.message.empty());
}

TEST(Verdict, FallbackIsReportedWithWhatRan) {
  auto c = goodCase();
  c.fallback = true;
  c.ranKernel = "sgemm.double_buffer";
  kwb::cuda::applyVerdict(c);
  EXPECT_EQ(c.status, CaseStatus::kFallback);
  EXPECT_NE(c.message.find("sgemm.double_buffer"), std::string::npos) << c.message;
}

TEST(Verdict, UnwrittenElementFails) {
  auto c = goodCase();
  c.verification->unwritten = 1;
  kwb::cuda::applyVerdict(c);
  EXPECT_EQ(c.status, CaseStatus::kFail);
  EXPECT_NE(c.message.find("1 elements of C left unwritten"), std::string::npos) << c.message;
}

TEST(Verdict, MismatchFailsNamingTheFirstOne) {
  auto c = goodCase();
  c.verification->compare.mismatches = 2;
  c.verification->compare.firstMismatch = kwb::Mismatch{3, 1, 0.5, 0.25};
  kwb::cuda::applyVerdict(c);
  EXPECT_EQ(c.status, CaseStatus::kFail);
  EXPECT_NE(c.message.find("row 3, col 1: got 0.5, expected 0.25"), std::string::npos) << c.message;
  EXPECT_NE(c.message.find("alpha=1, beta=0"), std::string::npos) << c.message;
}

TEST(Verdict, MismatchNamesTheNextFewToo) {
  auto c = goodCase();
  auto& r = c.verification->compare;
  r.mismatches = 3;
  r.firstMismatch = kwb::Mismatch{0, 2, 1.5, 1};
  r.firstMismatches = {*r.firstMismatch, kwb::Mismatch{4, 0, 3, 2}, kwb::Mismatch{7, 7, -1, 0}};
  kwb::cuda::applyVerdict(c);
  EXPECT_NE(c.message.find("row 0, col 2: got 1.5, expected 1; then at (4, 0): 3 vs 2, at (7, 7): "
                           "-1 vs 0"),
            std::string::npos)
      << c.message;
}

TEST(Verdict, AlphaBetaMismatchFails) {
  auto c = goodCase();
  c.verification->alphaBeta->mismatches = 1;
  c.verification->alphaBeta->nonFinite = 1;
  kwb::cuda::applyVerdict(c);
  EXPECT_EQ(c.status, CaseStatus::kFail);
  EXPECT_NE(c.message.find("alpha=0.75, beta=-0.5"), std::string::npos) << c.message;
  EXPECT_NE(c.message.find("NaN/Inf"), std::string::npos) << c.message;
}

TEST(Verdict, MissingAlphaBetaRunFails) {
  auto c = goodCase();
  c.verification->alphaBeta.reset();
  kwb::cuda::applyVerdict(c);
  EXPECT_EQ(c.status, CaseStatus::kFail);
}

TEST(Verdict, AcceptingNegativeControlMakesTheCaseInvalid) {
  auto c = goodCase();
  c.verification->negativeControlRejected = false;
  kwb::cuda::applyVerdict(c);
  EXPECT_EQ(c.status, CaseStatus::kInvalid);
  EXPECT_EQ(c.message, "comparator accepted a mangled reference");
}

TEST(Verdict, UnverifiedCaseIsNeverAPass) {
  kwb::CaseResult c;
  kwb::cuda::applyVerdict(c);
  EXPECT_EQ(c.status, CaseStatus::kFail);
}

// The 1-D families (reduce, scan) take the same verdict: one run, no alpha/beta, positions as
// indices into the output.
TEST(Verdict, AOneDimensionalCaseNamesIndicesAndNeedsNoAlphaBetaRun) {
  kwb::CaseResult c;
  c.kernel = "scan.blelloch";
  c.size = kwb::vectorSize("scan", 1000, "f32");
  kwb::Verification v;
  v.reference = "cpu.fp64";
  v.compare.elements = 1000;
  v.negativeControlRejected = true;
  c.verification = v;
  kwb::cuda::applyVerdict(c);
  EXPECT_EQ(c.status, CaseStatus::kPass) << c.message;

  auto& r = c.verification->compare;
  r.mismatches = 2;
  r.firstMismatch = kwb::Mismatch{0, 17, 3, 2};
  r.firstMismatches = {*r.firstMismatch, kwb::Mismatch{0, 99, 5, 4}};
  c.verification->unwritten = 4;
  kwb::cuda::applyVerdict(c);
  EXPECT_EQ(c.status, CaseStatus::kFail);
  EXPECT_NE(c.message.find("4 output elements left unwritten"), std::string::npos) << c.message;
  EXPECT_NE(c.message.find("2 of 1000 elements differ from cpu.fp64; first at index 17: got 3, "
                           "expected 2; then at 99: 5 vs 4"),
            std::string::npos)
      << c.message;
  EXPECT_EQ(c.message.find("alpha"), std::string::npos) << c.message;
}

// C filled with quiet NaNs at beta = 0: any NaN out means the kernel read C (BLAS: it must not).
TEST(Verdict, NanFromCAtBetaZeroFailsNamingTheRule) {
  auto c = goodCase();
  c.verification->nanFromOutput = 0;
  kwb::cuda::applyVerdict(c);
  EXPECT_EQ(c.status, CaseStatus::kPass) << c.message;
  c.verification->nanFromOutput = 16;
  kwb::cuda::applyVerdict(c);
  EXPECT_EQ(c.status, CaseStatus::kFail);
  EXPECT_NE(c.message.find("read C although beta = 0: 16 elements of C came out NaN"),
            std::string::npos)
      << c.message;
}

TEST(Verdict, NanFromAOneDimensionalOutputNamesTheOutput) {
  auto c = goodCase();
  c.size = kwb::vectorSize("scan", 16, "f32");
  c.verification->alphaBeta.reset();
  c.verification->nanFromOutput = 1;
  kwb::cuda::applyVerdict(c);
  EXPECT_EQ(c.status, CaseStatus::kFail);
  EXPECT_NE(c.message.find("read its output before writing it: 1 output elements came out NaN"),
            std::string::npos)
      << c.message;
}

// A stale or replayed output after the timed samples: the case fails though it verified.
TEST(Verdict, StaleTimedOutputFails) {
  auto c = goodCase();
  kwb::CompareReport stale;
  stale.elements = 16;
  stale.mismatches = 16;
  stale.nonFinite = 16;
  stale.firstMismatch = kwb::Mismatch{0, 0, std::numeric_limits<double>::quiet_NaN(), 1.5};
  c.verification->timedOutput = stale;
  kwb::cuda::applyVerdict(c);
  EXPECT_EQ(c.status, CaseStatus::kFail);
  EXPECT_NE(c.message.find("the last timed launch's output: 16 of 16 elements differ"),
            std::string::npos)
      << c.message;
  c.verification->timedOutput = kwb::CompareReport{};
  kwb::cuda::applyVerdict(c);
  EXPECT_EQ(c.status, CaseStatus::kPass) << c.message;
}
