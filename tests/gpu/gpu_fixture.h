// SPDX-License-Identifier: Apache-2.0
#pragma once
// Base fixture of every GPU test: skips with a visible reason when there is no device.
#include <gtest/gtest.h>

#include <string>

#include "kwb/cuda/device.h"

class GpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string reason;
    if (kwb::cuda::deviceCount(&reason) == 0) GTEST_SKIP() << reason;
  }
};
