// SPDX-License-Identifier: Apache-2.0
#include "kwb/size_json.h"

#include "json_read.h"
#include "kwb/error.h"
#include "kwb/results_json.h"

namespace kwb {
using jsonread::get;
using nlohmann::json;

namespace {
constexpr std::int64_t kMaxAxisNumber = std::int64_t{1} << 62;

}  // namespace

void to_json(json& j, const CaseSize& v) {
  json axes = json::array();
  for (const SizeAxis& a : v.axes) {
    json x = {{"name", a.name}, {"kind", toString(a.kind)}};
    x["value"] = a.isNumber() ? json(a.number) : json(a.word);
    if (!a.unit.empty()) x["unit"] = a.unit;
    axes.push_back(std::move(x));
  }
  j = {{"family", v.family}, {"axes", std::move(axes)}};
}

void from_json(const json& j, CaseSize& v) {
  get(j, "family", v.family);
  if (v.family.empty()) throw InputError("a size names no family");
  v.axes.clear();
  for (const json& x : j.at("axes")) {
    SizeAxis a;
    get(x, "name", a.name);
    if (a.name.empty()) throw InputError("an axis of a " + v.family + " size has no name");
    a.kind = parseAxisKind(x.at("kind").get<std::string>());
    a.unit = jsonread::value(x, "unit", std::string());
    if (a.kind == AxisKind::kWord) {
      get(x, "value", a.word);
      if (a.word.empty())
        throw InputError("axis " + a.name + " of a " + v.family + " size is empty");
    } else {
      get(x, "value", a.number);
      if (a.number < 0 || a.number > kMaxAxisNumber)
        throw InputError("axis " + a.name + " of a " + v.family + " size is " +
                         std::to_string(a.number) + ", outside 0 to 2^62");
    }
    v.axes.push_back(std::move(a));
  }
}

void to_json(json& j, const FamilyInfo& v) {
  json axes = json::array();
  for (const AxisSpec& a : v.axes) {
    json x = {{"name", a.name}, {"kind", toString(a.kind)}};
    if (!a.unit.empty()) x["unit"] = a.unit;
    if (a.kind == AxisKind::kWord) {
      x["words"] = a.words;
    } else {
      x["min"] = a.min;
      x["max"] = a.max;
    }
    axes.push_back(std::move(x));
  }
  j = {{"id", v.id},     {"title", v.title},
       {"axes", axes},   {"headline", figureKey(v.headline)},
       {"roof", v.roof}, {"reference", v.reference}};
}

void from_json(const json& j, FamilyInfo& v) {
  get(j, "id", v.id);
  if (v.id.empty()) throw InputError("a family has no id");
  get(j, "title", v.title);
  v.axes.clear();
  for (const json& x : j.at("axes")) {
    AxisSpec a;
    get(x, "name", a.name);
    a.kind = parseAxisKind(x.at("kind").get<std::string>());
    a.unit = jsonread::value(x, "unit", std::string());
    if (a.kind == AxisKind::kWord) {
      get(x, "words", a.words);
    } else {
      get(x, "min", a.min);
      get(x, "max", a.max);
    }
    v.axes.push_back(std::move(a));
  }
  const std::string headline = j.at("headline").get<std::string>();
  if (headline != "gflops" && headline != "gbps")
    throw InputError("family " + v.id + ": unknown headline '" + headline + "' (gflops, gbps)");
  v.headline = headline == "gbps" ? Metric::kGbps : Metric::kGflops;
  get(j, "roof", v.roof);
  get(j, "reference", v.reference);
}

CaseSize legacyCaseSize(const json& j) {
  const std::string problem = jsonread::value(j, "problem", std::string("gemm"));
  const FamilyInfo* f = legacyFamilyInfo(problem);
  if (!f) throw InputError("unknown problem family '" + problem + "'");
  if (problem == "gemm") return gemmSize(j.at("shape").get<Shape>());
  const std::int64_t count = jsonread::value(j, "count", std::int64_t{0});
  return checkedSize(*f,
                     vectorSize(problem, count, jsonread::value(j, "elementType", std::string())));
}

CaseSize readCaseSize(const json& j) {
  const auto it = j.find("size");
  if (it == j.end() || !it->is_object()) return legacyCaseSize(j);
  CaseSize s = it->get<CaseSize>();
  // The families kwb has always had keep their rules (a GEMM dimension is at least 1).
  if (const FamilyInfo* f = legacyFamilyInfo(s.family)) return checkedSize(*f, s);
  return s;
}

}  // namespace kwb
