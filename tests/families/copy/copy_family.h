// SPDX-License-Identifier: Apache-2.0
#pragma once
// A test-only problem family, "copy": out[i] = in[i] (copy_family.cpp, copy_kernels.cu). It
// exists to show that a family is its folder and a registry: nothing in core/, cli/, gui/ or
// kernels/ names it.
#include <memory>
#include <vector>

#include "kwb/cuda/vector_family.h"
#include "kwb/kernel_descriptor.h"

namespace kwb::test {

std::shared_ptr<const cuda::VectorFamily> copyFamily();
// Its stages (copy.naive, copy.vectorized) and its reference (copy.ref), in list order.
std::vector<KernelDescriptor> copyKernels();

}  // namespace kwb::test
