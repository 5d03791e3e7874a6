// SPDX-License-Identifier: Apache-2.0
#pragma once
// Test-only 1-D kernels for the family pipeline's GPU tests (family_test.cpp): plain, correct
// reduce and scan launchers (one posing as each family's reference id, so "% of reference"
// is exercised), and planted faults the pipeline must catch. Not in kwb's registry.
#include <vector>

#include "kwb/kernel_descriptor.h"

namespace kwb::testing {

// Correct: "testreduce.block_atomic" (stage 1), "testscan.block_serial" (stage 1), and the
// same code as "cub.reduce_sum" / "cub.inclusive_sum" references.
std::vector<KernelDescriptor> vectorTestKernels();

// Planted faults:
//  "testreduce.skip_last"   sums all but the last element (int32 exactness catches it)
//  "testscan.leave_last"    writes all but the last element (the canary catches it)
//  "testscan.suffix"        out[i] = x[i] + … + x[n-1], the wrong order (seeded and
//                            alternating data make it visible)
std::vector<KernelDescriptor> vectorFaultKernels();

}  // namespace kwb::testing
