// SPDX-License-Identifier: Apache-2.0
// What a JSON text would take as nlohmann's tree, from one pass over its bytes (json_read.h,
// checkTreeCost). A wide file such as a 63 MiB `[0,0,0,…]` or `{"cases":[{},{},…]}` costs 12 to
// 35 times its size as a tree; a kwb document 2 to 5 times as kwb writes it (indented), up to
// about 9 minified. The model (64-bit libstdc++, allocator overhead included): a value in an
// array 24 bytes (16, and half again for the array's growth), an object member about 96 (its
// map node, key and value) plus a key's length past 15, an object 64 and an array 40 more, a
// string 32 or, past 15 characters, 48 and its length. Scanning bytes costs a fraction of
// nlohmann's SAX lexer, so documents that pass pay little for the check.
#include <string>
#include <vector>

#include "json_read.h"

namespace kwb::jsonread {
namespace {

class CostScan {
 public:
  CostScan(std::string_view text, std::size_t budget) : m_text(text), m_budget(budget) {}

  void run() {
    for (std::size_t i = 0; i < m_text.size();) {
      const char c = m_text[i];
      switch (c) {
        case '"':
          i = string(i);
          continue;
        case '{':
          open('{', 64);
          break;
        case '[':
          open('[', 40);
          break;
        case '}':
        case ']':
          if (!m_open.empty()) m_open.pop_back();
          break;
        case ',':
          m_keyNext = !m_open.empty() && m_open.back() == '{';
          break;
        case ':':
          m_keyNext = false;
          break;
        case ' ':
        case '\t':
        case '\n':
        case '\r':
          break;
        default:  // a number, true, false or null: up to the next delimiter
          value(0);
          i = m_text.find_first_of(",]}: \t\n\r", i);
          if (i == std::string_view::npos) return;
          continue;
      }
      ++i;
    }
  }

 private:
  std::string_view m_text;
  std::size_t m_budget, m_bytes = 0;
  std::vector<char> m_open;  // '{' and '[' not yet closed
  bool m_keyNext = false;    // a string here is an object's key

  void charge(std::size_t bytes) {
    m_bytes += bytes;
    if (m_bytes > m_budget)
      throw InputError("would take more than " + std::to_string(m_budget >> 20) +
                       " MiB of memory to read (" + std::to_string(kMaxTreeBytesPerByte) +
                       " times its size; a kwb file takes 2 to 9): too many small values");
  }
  // A value: its slot in an array (an object member's was paid with its key), and what it holds.
  void value(std::size_t held) {
    charge((!m_open.empty() && m_open.back() == '[' ? 24 : 0) + held);
  }
  void open(char kind, std::size_t held) {
    value(held);
    if (m_open.size() >= std::size_t(kMaxJsonDepth)) throw InputError(deepMessage());
    m_open.push_back(kind);
    m_keyNext = kind == '{';
  }
  // The string starting at `at` (a key or a value); returns the index past its closing quote.
  std::size_t string(std::size_t at) {
    std::size_t end = at + 1;
    for (;;) {
      end = m_text.find_first_of("\"\\", end);
      if (end == std::string_view::npos) return m_text.size();
      if (m_text[end] == '"') break;
      end += 2;  // an escape and the character it escapes
    }
    const std::size_t length = end - at - 1;
    if (m_keyNext) {
      charge(96 + (length > 15 ? length + 1 : 0));
      m_keyNext = false;
    } else {
      value(length > 15 ? 48 + length : 32);
    }
    return end + 1;
  }
};

}  // namespace

void checkTreeCost(std::string_view text, std::size_t budget) { CostScan(text, budget).run(); }

}  // namespace kwb::jsonread
