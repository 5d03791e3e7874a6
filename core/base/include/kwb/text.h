// SPDX-License-Identifier: Apache-2.0
#pragma once
// Reading typed text (shapes, sizes, option values).
#include <string_view>

namespace kwb {

// `s` without its leading and trailing blanks (spaces and tabs).
inline std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace kwb
