// SPDX-License-Identifier: Apache-2.0
#pragma once
// A test-only histogram kernel with a planted fault: it counts every sample correctly (with
// CUB) and then drops one, taking a count from the first non-empty bin. The verification must
// catch it at every size that has a sample in range.
#include "kwb/kernel_descriptor.h"

namespace kwb::test {

KernelDescriptor histogramDropsOneSample();  // id "test.histogram_drops_one"

}  // namespace kwb::test
