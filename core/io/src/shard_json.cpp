// SPDX-License-Identifier: Apache-2.0
// JSON of what scale-out adds to a document (docs/RESULTS.md, schema 7): the devices list, a
// shard's part of its plan and a merge's parts.
#include "json_read.h"
#include "kwb/error.h"
#include "kwb/results_json.h"
#include "kwb/size_json.h"

namespace kwb {
using jsonread::get;
using nlohmann::json;

namespace {

json shardToJson(const ShardInfo& s) {
  json plan = json::array();
  for (const PlanEntry& e : s.plan)
    plan.push_back({{"kernel", e.kernel},
                    {"size", e.size},
                    {"precision", toString(e.precision)},
                    {"shard", e.shard}});
  return {
      {"index", s.spec.index}, {"count", s.spec.count}, {"planHash", s.planHash}, {"plan", plan}};
}

ShardSpec specFromJson(const json& j) {
  ShardSpec spec;
  get(j, "index", spec.index);
  get(j, "count", spec.count);
  if (spec.count < 1 || spec.count > kMaxShards || spec.index < 1 || spec.index > spec.count)
    throw InputError("shard " + toString(spec) + " is out of range (I/N with 1 <= I <= N)");
  return spec;
}

ShardInfo shardFromJson(const json& j) {
  ShardInfo s;
  s.spec = specFromJson(j);
  get(j, "planHash", s.planHash);
  for (const json& e : j.at("plan")) {
    PlanEntry p;
    get(e, "kernel", p.kernel);
    p.size = readCaseSize(e);
    p.precision = parsePrecision(e.at("precision").get<std::string>());
    get(e, "shard", p.shard);
    if (p.shard < 1 || p.shard > s.spec.count)
      throw InputError("plan entry " + p.kernel + " names shard " + std::to_string(p.shard) +
                       " of " + std::to_string(s.spec.count));
    s.plan.push_back(std::move(p));
  }
  return s;
}

json mergeToJson(const MergeInfo& m) {
  json shards = json::array();
  for (const MergedShard& s : m.shards)
    shards.push_back({{"index", s.index},
                      {"state", s.state},
                      {"reason", s.reason},
                      {"source", s.source},
                      {"host", s.host}});
  return {{"count", m.count}, {"planHash", m.planHash}, {"shards", shards}};
}

MergeInfo mergeFromJson(const json& j) {
  MergeInfo m;
  get(j, "count", m.count);
  get(j, "planHash", m.planHash);
  for (const json& e : j.at("shards")) {
    MergedShard s;
    get(e, "index", s.index);
    get(e, "state", s.state);
    if (s.state != "merged" && s.state != "missing" && s.state != "failed")
      throw InputError("merged shard state '" + s.state + "' is not merged, missing or failed");
    s.reason = jsonread::value(e, "reason", std::string());
    s.source = jsonread::value(e, "source", std::string());
    s.host = jsonread::value(e, "host", std::string());
    m.shards.push_back(std::move(s));
  }
  return m;
}

}  // namespace

void writeScaleOut(json& j, const RunDocument& v) {
  if (v.shard) j["shard"] = shardToJson(*v.shard);
  if (v.merged) j["merged"] = mergeToJson(*v.merged);
}

void readScaleOut(const json& j, RunDocument& v) {
  v.devices.clear();
  if (auto d = j.find("devices"); d != j.end() && !d->is_null()) get(j, "devices", v.devices);
  if (v.devices.size() == 1 && v.device) v.devices.clear();  // a run's: `device` alone
  if (!v.devices.empty() && !v.device) v.device = v.devices.front();
  v.shard.reset();
  if (auto s = j.find("shard"); s != j.end() && !s->is_null()) v.shard = shardFromJson(*s);
  v.merged.reset();
  if (auto m = j.find("merged"); m != j.end() && !m->is_null()) v.merged = mergeFromJson(*m);
  const std::size_t n = v.deviceList().size();
  for (const CaseResult& c : v.cases)
    if (c.device < -1 || (c.device >= 0 && std::size_t(c.device) >= n && n > 0))
      throw InputError("case " + c.kernel + " names device " + std::to_string(c.device) +
                       ", but the document lists " + std::to_string(n));
}

}  // namespace kwb
