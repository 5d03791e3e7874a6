// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <vector>

#include "kwb/kernel_descriptor.h"

namespace kwb::kernels {

// Every kernel this build knows, from the one explicit list in registry.cpp.
const KernelRegistry& registry();

// `list` with the fields the list position decides: a stage's number is its position among the
// stages of its family (1, 2, ...), a reference's is 0; `tunable` is set for the kernels that
// kernels/tune/tune.cmake gives configurations.
std::vector<KernelDescriptor> inListOrder(std::vector<KernelDescriptor> list);

}  // namespace kwb::kernels
