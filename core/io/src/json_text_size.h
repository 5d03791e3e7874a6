// SPDX-License-Identifier: Apache-2.0
#pragma once
// How large a JSON value's text would be, without writing it: what results.cpp needs to choose
// between indented and compact text for a document that must stay readable (kMaxDocumentBytes).
#include <cstdint>

#include <nlohmann/json.hpp>

namespace kwb::jsontext {

struct TextSize {
  // At least the size of j.dump(-1): exact but for numbers, each counted at its longest (a
  // double 25 characters, an integer its digits).
  std::uintmax_t compactAtMost = 0;
  // Exactly what j.dump(indent) adds to j.dump(-1): line breaks, indentation and the space after
  // each key's colon.
  std::uintmax_t indentation = 0;
};

TextSize textSize(const nlohmann::json& j, int indent);

}  // namespace kwb::jsontext
