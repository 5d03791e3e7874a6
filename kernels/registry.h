// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <vector>

#include "kwb/kernel_descriptor.h"

namespace kwb::kernels {

// Every kernel this build knows, from the one explicit list in registry.cpp. Registers the
// families first (registerFamilies).
const KernelRegistry& registry();
// The problem families of this build, each from its folder: gemm (core/cuda, beside its
// pipeline), reduce
// and scan (their *_family.cpp), registered with the family catalogs once (kwb/family.h,
// kwb/cuda/vector_family.h). A test binary registers its own families beside them.
void registerFamilies();

// `list` with the fields the list position decides: a stage's number is its position among the
// stages of its family (1, 2, ...), a reference's is 0; `tunable` is set for the kernels that
// kernels/tune/tune.cmake gives configurations.
std::vector<KernelDescriptor> inListOrder(std::vector<KernelDescriptor> list);

}  // namespace kwb::kernels
