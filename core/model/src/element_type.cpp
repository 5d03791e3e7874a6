// SPDX-License-Identifier: Apache-2.0
#include <string>

#include "kwb/error.h"
#include "kwb/vector_args.h"

namespace kwb {

std::string_view toString(ElementType t) { return t == ElementType::kInt32 ? "i32" : "f32"; }

ElementType parseElementType(std::string_view text) {
  if (text == "f32" || text == "float") return ElementType::kFloat32;
  if (text == "i32" || text == "int32") return ElementType::kInt32;
  throw InputError("unknown element type '" + std::string(text) + "': expected f32 or i32");
}

}  // namespace kwb
