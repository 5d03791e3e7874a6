// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <memory>

#include "kwb/cuda/family_driver.h"

namespace kwb::kernels::sort {

// The radix sort family's driver (sort_family.cpp): its declaration and work, seeded inputs,
// the comparison with cub::DeviceRadixSort and the independent checks, the known answer.
std::shared_ptr<cuda::FamilyDriver> sortFamilyDriver();

}  // namespace kwb::kernels::sort
