// SPDX-License-Identifier: Apache-2.0
#pragma once
// The #include lines of a C++ source as the preprocessor sees them: after line splices and
// with comments removed, so `/**/#include "x"` and `#\<newline>include "x"` are found too.
// Lines inside #if 0 are included: a check reads every include a file could make.
#include <string>
#include <string_view>
#include <vector>

namespace kwb {

struct IncludeDirective {
  std::string name;     // as written between the quotes or the angle brackets
  bool angled = false;  // <name>
  int line = 0;         // 1-based, where the directive starts
  std::string operand;  // the whole operand, for a computed include (a macro) where name is ""
};

// #include, #include_next and #import, in order.
std::vector<IncludeDirective> includeDirectives(std::string_view text);

}  // namespace kwb
