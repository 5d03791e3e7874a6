// SPDX-License-Identifier: Apache-2.0
#include "timing_json.h"

#include "kwb/results_json.h"

#include "json_read.h"

namespace kwb {
using jsonread::get;
using nlohmann::json;

void to_json(json& j, const KernelRecord& v) {
  j = {{"name", v.name}, {"perLaunch", v.perLaunch}, {"medianMs", v.medianMs}};
}

void from_json(const json& j, KernelRecord& v) {
  get(j, "name", v.name);
  get(j, "perLaunch", v.perLaunch);
  get(j, "medianMs", v.medianMs);
}

json summaryToJson(const stats::Summary& s) {
  return {{"count", s.count}, {"median", s.median}, {"min", s.min},
          {"max", s.max},     {"mean", s.mean},     {"stddev", s.stddev},
          {"cv", s.cv},       {"p5", s.p5},         {"p25", s.p25},
          {"p75", s.p75},     {"p95", s.p95},       {"ci95", {s.ci95.low, s.ci95.high}}};
}
stats::Summary summaryFromJson(const json& j) {
  stats::Summary s;
  get(j, "count", s.count);
  get(j, "median", s.median);
  get(j, "min", s.min);
  get(j, "max", s.max);
  get(j, "mean", s.mean);
  get(j, "stddev", s.stddev);
  get(j, "cv", s.cv);
  get(j, "p5", s.p5);
  get(j, "p25", s.p25);
  get(j, "p75", s.p75);
  get(j, "p95", s.p95);
  jsonread::read(j.at("ci95").at(0), "ci95", s.ci95.low);
  jsonread::read(j.at("ci95").at(1), "ci95", s.ci95.high);
  return s;
}

json pairedToJson(const std::vector<PairedRatio>& paired) {
  json a = json::array();
  for (const auto& p : paired)
    a.push_back({{"reference", p.reference},
                 {"pct", p.pct},
                 {"ci95", {p.ci95.low, p.ci95.high}},
                 {"pairs", p.pairs},
                 {"replicates", p.replicates}});
  return a;
}
std::vector<PairedRatio> pairedFromJson(const json& a) {
  std::vector<PairedRatio> out;
  for (const auto& j : a) {
    PairedRatio p;
    get(j, "reference", p.reference);
    get(j, "pct", p.pct);
    jsonread::read(j.at("ci95").at(0), "ci95", p.ci95.low);
    jsonread::read(j.at("ci95").at(1), "ci95", p.ci95.high);
    get(j, "pairs", p.pairs);
    get(j, "replicates", p.replicates);
    out.push_back(p);
  }
  return out;
}
json uncertaintyToJson(const stats::Uncertainty& u) {
  return {{"replicates", u.replicates},   {"withinPct", u.withinPct},
          {"betweenPct", u.betweenPct},   {"effectiveRounds", u.effectiveRounds},
          {"runToRunPct", u.runToRunPct}, {"ciMethod", toString(u.method)}};
}
stats::Uncertainty uncertaintyFromJson(const json& j) {
  stats::Uncertainty u;
  get(j, "replicates", u.replicates);
  get(j, "withinPct", u.withinPct);
  get(j, "betweenPct", u.betweenPct);
  u.effectiveRounds = jsonread::value(j, "effectiveRounds", 0.0);
  u.runToRunPct = jsonread::value(j, "runToRunPct", 0.0);
  u.method = stats::parseCiMethod(j.at("ciMethod").get<std::string>());
  return u;
}

}  // namespace kwb
