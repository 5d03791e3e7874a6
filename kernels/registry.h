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
// kernels/tune/tune.cmake gives configurations. An absentStage holds its place (its number is
// taken) and is dropped from the list.
std::vector<KernelDescriptor> inListOrder(std::vector<KernelDescriptor> list);

// The place of a stage this build does not have (the sm_90a-only sgemm.wgmma in other builds):
// the stages after it keep the numbers they have in every build, so a document recorded on one
// build names its kernels' stages as another build's registry does.
KernelDescriptor absentStage(std::string family);

}  // namespace kwb::kernels
