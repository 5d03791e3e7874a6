// SPDX-License-Identifier: Apache-2.0
#include "kwb/run_sizes.h"

#include <algorithm>
#include <optional>

#include "kwb/error.h"
#include "kwb/text.h"

namespace kwb {
namespace {

std::string axisNames(const Family& f) {
  std::string out;
  for (const AxisSpec& a : f.axes) out += (out.empty() ? "" : ", ") + a.name;
  return out;
}

// One value of axis `a`, checked as a size's value is ("2^20", "u8", "256").
SizeAxis axisValue(const Family& f, const AxisSpec& a, const std::string& text) {
  SizeAxis v{a.name, a.kind, 0, {}, a.unit};
  if (a.kind == AxisKind::kWord) {
    v.word = text;
  } else {
    FamilyInfo one;  // the axis alone, so the size parser reads and checks the number
    one.id = f.id;
    one.axes = {a};
    one.axes[0].unit.clear();
    v.number = parseSize(one, text).axes.at(0).number;  // InputError quoting the value
  }
  if (a.kind == AxisKind::kWord &&
      std::find(a.words.begin(), a.words.end(), text) == a.words.end()) {
    std::string ws;
    for (const std::string& w : a.words) ws += (ws.empty() ? "" : "|") + w;
    throw InputError("bad --axis " + a.name + " value '" + text + "' for the " + f.id +
                     " family (it takes " + ws + ")");
  }
  return v;
}

// Each axis's values, in the family's order: what `axes` gives, checked.
std::vector<std::vector<SizeAxis>> givenValues(const Family& f,
                                               const std::vector<AxisValues>& axes) {
  std::vector<std::vector<SizeAxis>> out(f.axes.size());
  for (const AxisValues& g : axes) {
    const auto it = std::find_if(f.axes.begin(), f.axes.end(),
                                 [&](const AxisSpec& a) { return a.name == g.name; });
    if (it == f.axes.end())
      throw InputError("unknown axis '" + g.name + "' for the " + f.id +
                       " family (its axes: " + axisNames(f) + ")");
    auto& slot = out[std::size_t(it - f.axes.begin())];
    if (!slot.empty()) throw InputError("axis '" + g.name + "' is given twice");
    if (g.values.empty()) throw InputError("axis '" + g.name + "' has no value");
    for (const std::string& v : g.values) {
      SizeAxis x = axisValue(f, *it, v);
      if (std::find(slot.begin(), slot.end(), x) == slot.end()) slot.push_back(std::move(x));
    }
  }
  return out;
}

// The values an axis takes in a size: the text's, else the given ones, else the default.
std::vector<SizeAxis> valuesOf(const Family& f, std::size_t i, const std::optional<SizeAxis>& named,
                               const std::vector<SizeAxis>& given, const std::string& text) {
  const AxisSpec& a = f.axes[i];
  if (named && !given.empty())
    throw InputError("size '" + text + "' names its " + a.name + " and --axis " + a.name +
                     " gives it too (--axis covers only the axes a size leaves out)");
  if (named) return {*named};
  if (!given.empty()) return given;
  if (a.kind != AxisKind::kWord || a.words.empty())
    throw InputError("bad " + f.id + " size '" + text + "': no " + a.name +
                     " (give it in the size or with --axis " + a.name + "=...; expected " +
                     sizeGrammar(f) + ")");
  const bool all = std::find(f.allWordsByDefault.begin(), f.allWordsByDefault.end(), a.name) !=
                   f.allWordsByDefault.end();
  std::vector<SizeAxis> out;
  for (const std::string& w : a.words) {
    out.push_back({a.name, a.kind, 0, w, a.unit});
    if (!all) break;
  }
  return out;
}

// Every combination of the axes' values, the first axis outermost.
void cross(const std::string& family, const std::vector<std::vector<SizeAxis>>& values,
           std::vector<CaseSize>& out) {
  std::vector<std::size_t> at(values.size(), 0);
  while (true) {
    CaseSize s{family, {}};
    for (std::size_t i = 0; i < values.size(); ++i) s.axes.push_back(values[i][at[i]]);
    out.push_back(std::move(s));
    std::size_t i = values.size();
    while (i > 0 && ++at[i - 1] == values[i - 1].size()) at[--i] = 0;
    if (i == 0) return;
  }
}

}  // namespace

bool takesShapes(const FamilyInfo& f) {
  return !f.axes.empty() && std::all_of(f.axes.begin(), f.axes.end(), [](const AxisSpec& a) {
    return a.kind == AxisKind::kDimension;
  });
}

AxisValues parseAxisValues(std::string_view text) {
  const auto eq = text.find('=');
  const std::string_view name = trim(text.substr(0, eq));
  if (eq == std::string_view::npos || name.empty())
    throw InputError("bad --axis '" + std::string(text) + "': expected NAME=V1,V2,...");
  AxisValues out{std::string(name), splitList(text.substr(eq + 1))};
  for (const std::string& v : out.values)
    if (v.empty())
      throw InputError("bad --axis '" + std::string(text) + "': an empty value (expected " +
                       out.name + "=V1,V2,...)");
  return out;
}

std::vector<std::string> splitList(std::string_view text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const auto comma = text.find(',', start);
    out.emplace_back(trim(text.substr(start, comma == text.npos ? text.npos : comma - start)));
    if (comma == std::string_view::npos) return out;
    start = comma + 1;
  }
}

std::vector<CaseSize> runSizes(const Family& f, const std::vector<std::string>& texts,
                               const std::vector<AxisValues>& axes) {
  const std::vector<std::vector<SizeAxis>> given = givenValues(f, axes);
  std::vector<CaseSize> out;
  const std::vector<std::string> items = texts.empty() ? std::vector<std::string>{""} : texts;
  for (const std::string& text : items) {
    std::vector<std::optional<SizeAxis>> named(f.axes.size());
    if (!texts.empty()) named = parsePartialSize(f, text);
    std::vector<std::vector<SizeAxis>> values;
    for (std::size_t i = 0; i < f.axes.size(); ++i)
      values.push_back(valuesOf(f, i, named[i], given[i], text));
    cross(f.id, values, out);
  }
  return out;
}

}  // namespace kwb
