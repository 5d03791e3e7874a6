// SPDX-License-Identifier: Apache-2.0
#pragma once
// The descriptor of the planted out-of-bounds read (planted_read_kernel.h), registered only in
// test binaries: test_sgemm's PlantedRead suite and kwb_planted (tests/gpu/CMakeLists.txt).
#include "kwb/kernel_descriptor.h"

namespace kwb::test {

inline constexpr const char* kPlantedReadId = "test.planted_oob_read";

KernelDescriptor plantedReadDescriptor();

}  // namespace kwb::test
