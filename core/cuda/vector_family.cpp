// SPDX-License-Identifier: Apache-2.0
#include "kwb/cuda/vector_family.h"

#include <cstring>

namespace kwb::cuda {

double vectorValue(std::uint32_t bits, ElementType type) {
  if (type == ElementType::kInt32) return double(std::int32_t(bits));
  float f;
  std::memcpy(&f, &bits, 4);
  return double(f);
}

double vectorWrap(std::int64_t v) { return double(std::int32_t(std::uint32_t(v))); }

}  // namespace kwb::cuda
