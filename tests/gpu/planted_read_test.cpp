// SPDX-License-Identifier: Apache-2.0
// The planted out-of-bounds read (planted_read_kernel.h) is invisible to the verification
// pipeline: C is right, so every check passes it. Only compute-sanitizer catches it
// (test_sanitizer, Sanitizer.MemcheckFailsOnThePlantedRead).
#include "planted_read.h"
#include "sgemm_support.h"

using kwb::CaseStatus;
using kwb::Shape;

class PlantedRead : public GpuTest {};

TEST_F(PlantedRead, OutputIsRightSoVerificationPassesIt) {
  // The memcheck shapes of test_sanitizer; K % 16 != 0 in all but 144x80x336, so the stray
  // read happens in all but that one.
  for (const Shape& s : {Shape{129, 65, 33}, Shape{17, 31, 47}, Shape{1, 1, 1}, Shape{144, 80, 336},
                         Shape{65, 33, 517}}) {
    const auto c =
        kwb::test::session().verifyCase(kwb::test::plantedReadDescriptor(), s, kwb::test::kSeed);
    EXPECT_EQ(toString(c.status), toString(CaseStatus::kPass)) << toString(s) << ": " << c.message;
    ASSERT_TRUE(c.verification.has_value()) << toString(s);
    EXPECT_EQ(c.verification->unwritten, 0) << toString(s);
    EXPECT_EQ(c.verification->compare.mismatches, 0) << toString(s);
  }
}
