#pragma once
#include "kwb/kernel_descriptor.h"

namespace kwb::kernels {

// Every kernel this build knows, from the one explicit list in registry.cpp.
const KernelRegistry& registry();

}  // namespace kwb::kernels
