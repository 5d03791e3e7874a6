// SPDX-License-Identifier: Apache-2.0
#include "kwb/case_size.h"

#include <cmath>

#include "kwb/error.h"

namespace kwb {
namespace {

std::string numberText(const SizeAxis& a) {
  return a.kind == AxisKind::kCount ? countText(a.number) : std::to_string(a.number);
}

// The size written out; `pretty`: UTF-8 '×' and "N³" for a cube, else ASCII 'x'.
std::string written(const CaseSize& s, bool pretty) {
  std::vector<std::string> parts;
  std::vector<const SizeAxis*> extent;  // the current run of unit-less numbers
  const auto closeExtent = [&] {
    if (extent.empty()) return;
    std::string t;
    const bool cube = pretty && extent.size() == 3 && extent[0]->kind == AxisKind::kDimension &&
                      extent[0]->number == extent[1]->number &&
                      extent[1]->number == extent[2]->number;
    if (cube) {
      t = std::to_string(extent[0]->number) + "\xC2\xB3";
    } else {
      for (const SizeAxis* a : extent)
        t += (t.empty() ? "" : (pretty ? "\xC3\x97" : "x")) + numberText(*a);
    }
    parts.push_back(t);
    extent.clear();
  };
  for (const SizeAxis& a : s.axes) {
    if (a.isNumber() && a.unit.empty()) {
      extent.push_back(&a);
      continue;
    }
    closeExtent();
    parts.push_back(a.isNumber() ? numberText(a) + " " + a.unit : a.word);
  }
  closeExtent();
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : " ") + p;
  return out;
}

}  // namespace

std::string_view toString(AxisKind k) {
  switch (k) {
    case AxisKind::kDimension:
      return "dimension";
    case AxisKind::kCount:
      return "count";
    case AxisKind::kWord:
      return "word";
  }
  return "dimension";
}

AxisKind parseAxisKind(std::string_view text) {
  for (const AxisKind k : {AxisKind::kDimension, AxisKind::kCount, AxisKind::kWord})
    if (toString(k) == text) return k;
  throw InputError("unknown axis kind '" + std::string(text) + "' (known: dimension, count, word)");
}

std::strong_ordering operator<=>(const SizeAxis& a, const SizeAxis& b) {
  if (const auto c = a.name <=> b.name; c != 0) return c;
  if (const auto c = a.number <=> b.number; c != 0) return c;
  return a.word.compare(b.word) <=> 0;
}

std::strong_ordering operator<=>(const CaseSize& a, const CaseSize& b) {
  if (const auto c = a.family.compare(b.family) <=> 0; c != 0) return c;
  for (std::size_t i = 0; i < a.axes.size() && i < b.axes.size(); ++i)
    if (const auto c = a.axes[i] <=> b.axes[i]; c != 0) return c;
  return a.axes.size() <=> b.axes.size();
}

const SizeAxis* CaseSize::axis(std::string_view name) const {
  for (const SizeAxis& a : axes)
    if (a.name == name) return &a;
  return nullptr;
}

std::int64_t CaseSize::number(std::string_view name) const {
  const SizeAxis* a = axis(name);
  return a ? a->number : 0;
}

std::string CaseSize::word(std::string_view name) const {
  const SizeAxis* a = axis(name);
  return a ? a->word : std::string();
}

std::string sizeText(const CaseSize& s) { return written(s, true); }
std::string sizeLabel(const CaseSize& s) { return written(s, false); }
std::string sizeKey(const CaseSize& s) { return s.family + " " + written(s, false); }

double extentProduct(const CaseSize& s) {
  double p = 1;
  bool any = false;
  for (const SizeAxis& a : s.axes)
    if (a.isNumber() && a.unit.empty()) {
      p *= double(a.number);
      any = true;
    }
  return any ? p : 0.0;
}

double scalingValue(const CaseSize& s) {
  int n = 0;
  for (const SizeAxis& a : s.axes) n += a.isNumber() && a.unit.empty() ? 1 : 0;
  return n == 0 ? 0.0 : std::pow(extentProduct(s), 1.0 / n);
}

std::string countText(std::int64_t count) {
  if (count >= 1024 && (count & (count - 1)) == 0) {
    int e = 0;
    while ((std::int64_t{1} << e) < count) ++e;
    return "2^" + std::to_string(e);
  }
  return std::to_string(count);
}

CaseSize::CaseSize(const Shape& s)
    : family("gemm"),
      axes{{"m", AxisKind::kDimension, s.m},
           {"n", AxisKind::kDimension, s.n},
           {"k", AxisKind::kDimension, s.k}} {}

CaseSize gemmSize(const Shape& s) { return CaseSize(s); }

bool isGemm(const CaseSize& s) { return s.family == "gemm"; }

Shape shapeOf(const CaseSize& s) {
  if (!isGemm(s)) return {};
  return {s.number("m"), s.number("n"), s.number("k")};
}

CaseSize vectorSize(std::string family, std::int64_t count, std::string type) {
  return {std::move(family),
          {{"count", AxisKind::kCount, count}, {"type", AxisKind::kWord, 0, std::move(type)}}};
}

}  // namespace kwb
