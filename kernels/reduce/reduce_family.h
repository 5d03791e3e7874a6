// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <memory>

#include "kwb/cuda/vector_family.h"

namespace kwb::kernels {

// The reduce family: a sum of float or int32 elements (reduce_family.cpp).
std::shared_ptr<const cuda::VectorFamily> reduceFamily();

}  // namespace kwb::kernels
