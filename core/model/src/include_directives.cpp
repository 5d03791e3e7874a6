// SPDX-License-Identifier: Apache-2.0
#include "kwb/include_directives.h"

#include <algorithm>
#include <cctype>

namespace kwb {
namespace {

// The text with line splices joined and comments replaced by a space (phases 2 and 3), each
// logical line ending in as many newlines as it spanned, so line numbers stay those of the file.
// A block comment keeps its newlines: what follows it is read as starting a line, which finds
// every real directive and at worst one that is not (a check then reads one include too many).
std::string preprocessed(std::string_view in) {
  std::string out;
  out.reserve(in.size());
  int pendingNewlines = 0;  // line splices inside the current logical line
  char quote = 0;           // inside a string or character literal
  for (std::size_t i = 0; i < in.size(); ++i) {
    const char c = in[i];
    if (c == '\\' && i + 1 < in.size() && in[i + 1] == '\n') {
      ++i, ++pendingNewlines;
      continue;
    }
    if (quote) {
      out += c;
      if (c == '\\' && i + 1 < in.size() && in[i + 1] != '\n')
        out += in[++i];
      else if (c == quote || c == '\n')
        quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') {
      quote = c;
      out += c;
    } else if (c == '/' && i + 1 < in.size() && in[i + 1] == '/') {
      while (i + 1 < in.size() && in[i + 1] != '\n') {
        if (in[i + 1] == '\\' && i + 2 < in.size() && in[i + 2] == '\n') ++i, ++pendingNewlines;
        ++i;
      }
      out += ' ';
    } else if (c == '/' && i + 1 < in.size() && in[i + 1] == '*') {
      i += 2;
      out += ' ';
      while (i < in.size() && !(in[i] == '*' && i + 1 < in.size() && in[i + 1] == '/')) {
        if (in[i] == '\n') out += '\n';  // so a directive after it keeps its own line
        ++i;
      }
      ++i;
    } else if (c == '\n') {
      out.append(std::size_t(pendingNewlines) + 1, '\n');
      pendingNewlines = 0;
    } else {
      out += c;
    }
  }
  return out;
}

void skipBlanks(std::string_view& s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r' ||
                        s.front() == '\f' || s.front() == '\v'))
    s.remove_prefix(1);
}

}  // namespace

std::vector<IncludeDirective> includeDirectives(std::string_view text) {
  const std::string clean = preprocessed(text);
  std::vector<IncludeDirective> out;
  std::size_t at = 0;
  int lineNo = 0;
  while (at < clean.size()) {
    const std::size_t end = std::min(clean.find('\n', at), clean.size());
    std::string_view line(clean.data() + at, end - at);
    at = end + 1;
    ++lineNo;
    skipBlanks(line);
    if (line.empty() || line.front() != '#') continue;
    line.remove_prefix(1);
    skipBlanks(line);
    std::size_t word = 0;
    while (word < line.size() &&
           (std::isalnum(static_cast<unsigned char>(line[word])) || line[word] == '_'))
      ++word;
    const std::string_view directive = line.substr(0, word);
    if (directive != "include" && directive != "include_next" && directive != "import") continue;
    line.remove_prefix(word);
    skipBlanks(line);
    IncludeDirective d;
    d.line = lineNo;
    const char open = line.empty() ? 0 : line.front();
    const char close = open == '<' ? '>' : '"';
    const std::size_t closeAt = line.find(close, 1);
    if ((open == '"' || open == '<') && closeAt != std::string_view::npos) {
      d.name = std::string(line.substr(1, closeAt - 1));
      d.angled = open == '<';
    } else {
      while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back())))
        line.remove_suffix(1);
      d.operand = std::string(line);
    }
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace kwb
