// SPDX-License-Identifier: Apache-2.0
// One naming of a kernel's fault (kwb/cuda/user_guard.h, nameUserFault): the guard launch's
// userFault and the case loop's errors use it. Without a GPU: CUDA's error names are a table
// lookup, and a kernel that is not a user's is named by its id.
#include <gtest/gtest.h>

#include <string>

#include "kwb/cuda/user_guard.h"

namespace {

kwb::KernelDescriptor builtIn() {
  kwb::KernelDescriptor k;
  k.id = "sgemm.naive";
  return k;
}

TEST(UserFaultName, AKernelThatIsNotAUsersIsNamedByItsIdAndTheRuleOnlyWhenBroken) {
  const std::string rule = kwb::cuda::kUserFaultRule;
  EXPECT_EQ(kwb::cuda::nameUserFault(builtIn(), ": a failed launch", false),
            "sgemm.naive: a failed launch");
  EXPECT_EQ(kwb::cuda::nameUserFault(builtIn(), ": a fault", true),
            "sgemm.naive: a fault; " + rule);
}

TEST(UserFaultName, UserFaultNamesTheShapeAndTheErrorAndTheRuleForAnAddressFault) {
  const std::string rule = kwb::cuda::kUserFaultRule;
  const std::string illegal = kwb::cuda::userFault(builtIn(), {63, 64, 64}, 700);
  EXPECT_EQ(illegal.rfind("sgemm.naive faulted at 63x64x64: cudaErrorIllegalAddress (", 0), 0U)
      << illegal;
  EXPECT_EQ(illegal.substr(illegal.size() - rule.size()), rule) << illegal;
  const std::string invalid = kwb::cuda::userFault(builtIn(), {1, 2, 3}, 1);
  EXPECT_NE(invalid.find("cudaErrorInvalidValue"), std::string::npos) << invalid;
  EXPECT_EQ(invalid.find(rule), std::string::npos) << "no address fault: " << invalid;
}

}  // namespace
