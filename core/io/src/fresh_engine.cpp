// SPDX-License-Identifier: Apache-2.0
#include "kwb/fresh_engine.h"

#include <algorithm>
#include <charconv>

#include "kwb/child_process.h"
#include "kwb/error.h"

namespace kwb {
namespace {

constexpr const char* kName = "the fresh engine";
// A case may run for hours (a slow kernel, many rounds); the child's own bounds end it.
constexpr double kNoLineLimitS = 1e9;

}  // namespace

std::string runInFreshEngine(const std::vector<std::string>& argv,
                             const std::vector<std::size_t>& indices,
                             const std::function<void(StreamEvent)>& onEvent) {
  ChildProcess child(argv);
  for (int lineNo = 1;; ++lineNo) {
    std::string line;
    try {
      line = child.readLine(kNoLineLimitS);
    } catch (const InputError&) {
      return std::string(kName) + " ended (" + child.endState() + ") before it finished";
    }
    if (line.empty()) continue;
    StreamEvent e;
    try {
      e = parseEventLine(line, kName, lineNo);
    } catch (const InputError& err) {
      return err.what();
    }
    switch (e.type) {
      case EventType::kDone:
        return "";
      case EventType::kCaseStarted:
      case EventType::kCaseFinished:
      case EventType::kCaseFailed:
        if (e.index < 0 || std::size_t(e.index) >= indices.size())
          return std::string(kName) + " reported case " + std::to_string(e.index) +
                 ", which it was not given";
        e.index = int(indices[std::size_t(e.index)]);
        onEvent(std::move(e));
        break;
      case EventType::kLog:
        onEvent(std::move(e));
        break;
      default:  // hello, device, plan: the parent's stand
        break;
    }
  }
}

std::string caseIndexList(const std::vector<std::size_t>& indices) {
  std::string out;
  for (const std::size_t i : indices) {
    if (!out.empty()) out.push_back(',');
    out.append(std::to_string(i));
  }
  return out;
}

std::vector<std::size_t> parseCaseIndexList(const std::string& text, std::size_t planSize) {
  const auto bad = [&] {
    return InputError("--continue-cases '" + text + "': expected increasing case indices below " +
                      std::to_string(planSize) + ", separated by commas");
  };
  std::vector<std::size_t> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const char* first = text.data() + start;
    const char* last = text.data() + comma;
    std::size_t v = 0;
    const auto [next, ec] = std::from_chars(first, last, v);
    if (first == last || ec != std::errc() || next != last || v >= planSize ||
        (!out.empty() && v <= out.back()))
      throw bad();
    out.push_back(v);
    start = comma + 1;
  }
  return out;
}

}  // namespace kwb
