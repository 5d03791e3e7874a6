// SPDX-License-Identifier: Apache-2.0
// Proof that the pipeline catches real bugs: a kernel that skips the last partial tile must
// fail verification, and pass only where the bug cannot bite.
#include "broken_kernel.h"
#include "kwb/cuda/check.h"
#include "sgemm_support.h"

using kwb::CaseStatus;
using kwb::Shape;

namespace {

kwb::LaunchInfo launchBroken(const kwb::GemmArgs& g) {
  KWB_CUDA_CHECK(kwb::test::launchBrokenSgemm(int(g.shape.m), int(g.shape.n), int(g.shape.k),
                                              g.alpha, g.a, g.b, g.beta, g.c, g.stream));
  return {false, "test.broken_partial_tile"};
}

kwb::KernelDescriptor brokenDescriptor() {
  kwb::KernelDescriptor d;
  d.id = "test.broken_partial_tile";
  d.family = "test";
  d.stage = 1;
  d.launch = &launchBroken;
  return d;
}

}  // namespace

class BrokenKernel : public GpuTest {};

TEST_F(BrokenKernel, SkippedEdgeTilesAreCaughtByTheCanary) {
  const auto c =
      kwb::test::session().verifyCase(brokenDescriptor(), Shape{100, 100, 100}, kwb::test::kSeed);
  EXPECT_EQ(toString(c.status), toString(CaseStatus::kFail)) << c.message;
  ASSERT_TRUE(c.verification.has_value());
  EXPECT_EQ(c.verification->unwritten, 100 * 100 - 96 * 96);  // rows and columns 96 … 99
  EXPECT_GT(c.verification->compare.mismatches, 0);
  EXPECT_NE(c.message.find("unwritten"), std::string::npos) << c.message;
}

TEST_F(BrokenKernel, SkippedPartialKTileIsCaughtByTheComparison) {
  // M and N are whole tiles, so every element is written: only the values are wrong.
  const auto c =
      kwb::test::session().verifyCase(brokenDescriptor(), Shape{64, 64, 70}, kwb::test::kSeed);
  EXPECT_EQ(toString(c.status), toString(CaseStatus::kFail)) << c.message;
  ASSERT_TRUE(c.verification.has_value());
  EXPECT_EQ(c.verification->unwritten, 0);
  EXPECT_GT(c.verification->compare.mismatches, 0);
  ASSERT_TRUE(c.verification->compare.firstMismatch.has_value());
  EXPECT_NE(c.message.find("first at row"), std::string::npos) << c.message;
}

TEST_F(BrokenKernel, PassesWhereTheBugCannotBite) {
  // The control: with whole tiles everywhere the same kernel is right, so the failures above
  // come from the bug, not from the harness.
  const auto c =
      kwb::test::session().verifyCase(brokenDescriptor(), Shape{80, 96, 64}, kwb::test::kSeed);
  EXPECT_EQ(toString(c.status), toString(CaseStatus::kPass)) << c.message;
}
