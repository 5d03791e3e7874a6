// SPDX-License-Identifier: Apache-2.0
#include "kwb/family_info.h"

#include <algorithm>
#include <charconv>

#include "kwb/error.h"
#include "kwb/text.h"

namespace kwb {
namespace {

std::vector<std::string_view> splitOn(std::string_view t,
                                      bool (*isSep)(std::string_view, std::size_t&)) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= t.size();) {
    std::size_t len = 0;
    if (i == t.size() || isSep(t.substr(i), len)) {
      if (i > start || i == t.size()) parts.push_back(t.substr(start, i - start));
      if (i == t.size()) break;
      i += len;
      start = i;
    } else {
      ++i;
    }
  }
  return parts;
}

bool isSpace(std::string_view s, std::size_t& len) {
  len = 1;
  return s.front() == ' ' || s.front() == '\t';
}

// 'x', 'X' or the UTF-8 multiplication sign (C3 97).
bool isTimes(std::string_view s, std::size_t& len) {
  len = s.substr(0, 2) == "\xC3\x97" ? 2 : 1;
  return len == 2 || s.front() == 'x' || s.front() == 'X';
}

struct SizeParser {
  const FamilyInfo& f;
  std::string_view text;

  [[noreturn]] void bad(const std::string& why) const {
    throw InputError("bad " + (f.id.empty() ? std::string() : f.id + " ") + "size '" +
                     std::string(text) + "': " + why + " (expected " + sizeGrammar(f) + ")");
  }

  // A whole number, or 2^K: within the axis's range.
  std::int64_t number(const AxisSpec& a, std::string_view part) const {
    if (part.empty()) bad(a.name + " is empty");
    if (part.front() == '-') bad(a.name + " is negative");
    std::int64_t v = 0;
    const auto caret = part.find('^');
    const std::string_view digits = caret == part.npos ? part : part.substr(caret + 1);
    if (caret != part.npos && part.substr(0, caret) != "2")
      bad(a.name + " '" + std::string(part) + "': only powers of two (2^K) are known");
    const auto* end = digits.data() + digits.size();
    if (caret != part.npos && !digits.empty() && digits.front() == '-')
      bad(a.name + " '" + std::string(part) + "': the exponent is negative");
    const auto [ptr, ec] = std::from_chars(digits.data(), end, v);
    const bool tooLarge = ec == std::errc::result_out_of_range || (caret != part.npos && v > 62);
    if (!tooLarge && (ec != std::errc{} || ptr != end || digits.empty()))
      bad(a.name + " '" + std::string(part) + "' is not a whole number");
    if (!tooLarge && caret != part.npos) v = std::int64_t{1} << v;
    if (tooLarge || v > a.max)
      bad(a.name + " is above " + std::to_string(a.max) +
          (a.kind == AxisKind::kCount ? ": too large for memory" : ""));
    if (v < a.min) bad(a.name + " must be at least " + std::to_string(a.min));
    return v;
  }

  // The axes the text names, in the family's order; an axis it leaves out is empty.
  std::vector<std::optional<SizeAxis>> partial() const {
    const std::string_view t = trim(text);
    if (t.empty()) bad("it is empty");
    std::vector<std::string_view> tokens = splitOn(t, isSpace);
    std::vector<const AxisSpec*> extent;
    for (const AxisSpec& a : f.axes)
      if (a.kind != AxisKind::kWord && a.unit.empty()) extent.push_back(&a);
    std::vector<std::int64_t> extentValues;
    std::size_t next = 0;
    if (!extent.empty()) {
      const auto parts = splitOn(tokens[next++], isTimes);
      const bool fill = parts.size() == 1 && extent.size() > 1 &&
                        std::all_of(extent.begin(), extent.end(), [](const AxisSpec* a) {
                          return a->kind == AxisKind::kDimension;
                        });
      if (!fill && parts.size() != extent.size())
        bad("it has " + std::to_string(parts.size()) + " numbers, not " +
            std::to_string(extent.size()));
      for (std::size_t i = 0; i < extent.size(); ++i)
        extentValues.push_back(number(*extent[i], parts[fill ? 0 : i]));
    }
    std::vector<std::optional<SizeAxis>> out(f.axes.size());
    for (; next < tokens.size(); ++next) {
      const std::string_view tok = tokens[next];
      bool taken = false;
      for (std::size_t i = 0; i < f.axes.size() && !taken; ++i) {
        const AxisSpec& a = f.axes[i];
        if (out[i] || (a.kind != AxisKind::kWord && a.unit.empty())) continue;
        if (a.kind == AxisKind::kWord &&
            std::find(a.words.begin(), a.words.end(), tok) != a.words.end()) {
          out[i] = SizeAxis{a.name, a.kind, 0, std::string(tok), a.unit};
          taken = true;
        } else if (a.kind != AxisKind::kWord && next + 1 < tokens.size() &&
                   tokens[next + 1] == a.unit) {
          out[i] = SizeAxis{a.name, a.kind, number(a, tok), {}, a.unit};
          ++next;
          taken = true;
        }
      }
      if (!taken) {
        std::string why(1, '\'');  // built in steps: GCC 12 warns (-Wrestrict) on "'" + string
        why.append(tok).append("' is not a value of any of its axes");
        bad(why);
      }
    }
    std::size_t e = 0;
    for (std::size_t i = 0; i < f.axes.size(); ++i)
      if (f.axes[i].kind != AxisKind::kWord && f.axes[i].unit.empty())
        out[i] = SizeAxis{f.axes[i].name, f.axes[i].kind, extentValues[e++], {}, {}};
    return out;
  }

  // A word the text leaves out takes its axis's first word; a missing "N unit" is an error.
  CaseSize parse() const {
    std::vector<std::optional<SizeAxis>> given = partial();
    CaseSize s{f.id, {}};
    for (std::size_t i = 0; i < f.axes.size(); ++i) {
      const AxisSpec& a = f.axes[i];
      if (!given[i] && a.kind == AxisKind::kWord)
        given[i] = SizeAxis{a.name, a.kind, 0, a.words.empty() ? "" : a.words.front(), a.unit};
      if (!given[i]) bad("the number of " + a.unit + " is missing");
      s.axes.push_back(std::move(*given[i]));
    }
    return s;
  }
};

std::vector<FamilyInfo> legacyTable() {
  const AxisSpec count{"count", AxisKind::kCount, {}, {}, 0};
  const AxisSpec type{"type", AxisKind::kWord, {}, {"f32", "i32"}};
  const auto dim = [](std::string n) {
    return AxisSpec{std::move(n), AxisKind::kDimension, {}, {}, 1};
  };
  return {
      {"gemm",
       "Matrix multiply (SGEMM)",
       {dim("m"), dim("n"), dim("k")},
       Metric::kGflops,
       "compute peak",
       "cublas.sgemm"},
      {"reduce",
       "Sum reduction",
       {count, type},
       Metric::kGbps,
       "device-to-device copy bandwidth",
       "cub.reduce_sum"},
      {"scan",
       "Inclusive prefix sum",
       {count, type},
       Metric::kGbps,
       "device-to-device copy bandwidth",
       "cub.inclusive_sum"},
  };
}

}  // namespace

std::string_view figureKey(Metric m) { return m == Metric::kGbps ? "gbps" : "gflops"; }
std::string_view metricUnit(Metric m) { return m == Metric::kGbps ? "GB/s" : "GFLOP/s"; }

CaseSize parseSize(const FamilyInfo& f, std::string_view text) {
  return SizeParser{f, text}.parse();
}

std::vector<std::optional<SizeAxis>> parsePartialSize(const FamilyInfo& f, std::string_view text) {
  return SizeParser{f, text}.partial();
}

std::vector<CaseSize> parseSizeList(const FamilyInfo& f, std::string_view text) {
  std::vector<CaseSize> out;
  std::size_t start = 0;
  while (true) {
    const auto comma = text.find(',', start);
    out.push_back(parseSize(f, text.substr(start, comma == text.npos ? text.npos : comma - start)));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

CaseSize checkedSize(const FamilyInfo& f, const CaseSize& s) {
  const std::string label = sizeLabel(s);
  const auto bad = [&](const std::string& why) {
    throw InputError("bad " + f.id + " size '" + label + "': " + why + " (expected " +
                     sizeGrammar(f) + ")");
  };
  if (s.family != f.id) bad("it is a size of '" + s.family + "'");
  CaseSize out{f.id, {}};
  for (const AxisSpec& a : f.axes) {
    const SizeAxis* v = s.axis(a.name);
    if (!v) bad("axis " + a.name + " is missing");
    SizeAxis x{a.name, a.kind, v->number, v->word, a.unit};
    if (a.kind == AxisKind::kWord) {
      if (std::find(a.words.begin(), a.words.end(), x.word) == a.words.end())
        bad(a.name + " '" + x.word + "' is not one it takes");
      x.number = 0;
    } else {
      if (x.number < a.min) bad(a.name + " must be at least " + std::to_string(a.min));
      if (x.number > a.max) bad(a.name + " is above " + std::to_string(a.max));
      x.word.clear();
    }
    out.axes.push_back(std::move(x));
  }
  if (s.axes.size() != f.axes.size()) bad("it has axes the family does not");
  return out;
}

std::string sizeGrammar(const FamilyInfo& f) {
  std::string extent, rest;
  for (const AxisSpec& a : f.axes) {
    if (a.kind == AxisKind::kWord) {
      std::string ws;
      for (const std::string& w : a.words) ws += (ws.empty() ? "" : "|") + w;
      rest += " " + a.name + " " + ws;
    } else if (a.unit.empty()) {
      extent += (extent.empty() ? "" : " x ") + a.name;
    } else {
      rest += " N " + a.unit;
    }
  }
  return extent + rest;
}

const FamilyInfo* legacyFamilyInfo(std::string_view id) {
  static const std::vector<FamilyInfo> table = legacyTable();
  for (const FamilyInfo& f : table)
    if (f.id == id) return &f;
  return nullptr;
}

}  // namespace kwb
