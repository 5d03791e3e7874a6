// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <memory>

#include "kwb/cuda/vector_family.h"

namespace kwb::kernels {

// The scan family: an inclusive prefix sum of float or int32 elements (scan_family.cpp).
std::shared_ptr<const cuda::VectorFamily> scanFamily();

}  // namespace kwb::kernels
