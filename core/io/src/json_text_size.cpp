// SPDX-License-Identifier: Apache-2.0
// One pass over the tree, as nlohmann's serializer lays it out (dump(indent) against dump(-1)):
// a non-empty array of n values at depth d gains n + 1 line breaks, indent * (d + 1) spaces before
// each value and indent * d before its closing bracket; an object as much plus one space after
// each of its n keys' colons. Empty containers are "[]" and "{}" either way.
#include "json_text_size.h"

#include <string>

namespace kwb::jsontext {
namespace {

// The characters a string takes written: its quotes, and the escapes of quote, backslash and
// control characters (\n or \u001f: at most 6).
std::uintmax_t stringAtMost(const std::string& s) {
  std::uintmax_t n = 2;
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    n += c == '"' || c == '\\' ? 2 : u < 0x20 ? 6 : 1;
  }
  return n;
}

std::uintmax_t digits(std::uintmax_t v) {
  std::uintmax_t n = 1;
  while (v >= 10) v /= 10, ++n;
  return n;
}

void add(const nlohmann::json& j, int indent, std::uintmax_t depth, TextSize& size) {
  using V = nlohmann::json::value_t;
  switch (j.type()) {
    case V::object:
    case V::array: {
      const bool object = j.is_object();
      const std::uintmax_t n = j.size();
      size.compactAtMost += 2 + (n > 0 ? n - 1 : 0);  // brackets and commas
      if (n > 0)
        size.indentation += (n + 1) + n * std::uintmax_t(indent) * (depth + 1) +
                            std::uintmax_t(indent) * depth + (object ? n : 0);
      for (auto it = j.begin(); it != j.end(); ++it) {
        if (object) size.compactAtMost += stringAtMost(it.key()) + 1;  // "key":
        add(it.value(), indent, depth + 1, size);
      }
      return;
    }
    case V::string:
      size.compactAtMost += stringAtMost(j.get_ref<const std::string&>());
      return;
    case V::boolean:
      size.compactAtMost += j.get<bool>() ? 4 : 5;
      return;
    case V::number_integer: {
      const auto v = j.get<std::int64_t>();
      size.compactAtMost +=
          v < 0 ? 1 + digits(std::uintmax_t(0) - std::uintmax_t(v)) : digits(std::uintmax_t(v));
      return;
    }
    case V::number_unsigned:
      size.compactAtMost += digits(j.get<std::uint64_t>());
      return;
    case V::number_float:
      size.compactAtMost += 25;  // -1.2345678901234567e-308 and a margin
      return;
    default:  // null, discarded, binary (kwb writes none)
      size.compactAtMost += j.is_binary() ? j.get_binary().size() * 4 + 16 : 4;
      return;
  }
}

}  // namespace

TextSize textSize(const nlohmann::json& j, int indent) {
  TextSize size;
  add(j, indent < 0 ? 0 : indent, 0, size);
  return size;
}

}  // namespace kwb::jsontext
