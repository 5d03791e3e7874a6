// SPDX-License-Identifier: Apache-2.0
#include "kwb/merge.h"

#include <algorithm>
#include <map>
#include <set>

#include "kwb/error.h"
#include "kwb/text_file.h"
#include "kwb/tune_buckets.h"

namespace kwb {
namespace {

// What the merge found for one part.
struct Part {
  const ShardInput* document = nullptr;
  const ShardInput* failure = nullptr;
};

std::string shardText(int index, int count) {
  return "shard " + std::to_string(index) + "/" + std::to_string(count);
}

// The number of parts and the plan's hash all inputs agree on; throws naming the one that does
// not.
std::pair<int, std::string> commonPlan(const std::vector<ShardInput>& inputs, int expectedCount) {
  int count = expectedCount;
  std::string hash, hashSource;
  for (const ShardInput& in : inputs) {
    const ShardSpec s = in.spec();
    if (count == 0) count = s.count;
    if (s.count != count)
      throw InputError("'" + in.source + "' is " + shardText(s.index, s.count) + ", not one of " +
                       std::to_string(count) + " parts: shards of different plans are not merged");
    const std::string h = in.document ? in.document->shard->planHash : in.failure->planHash;
    if (h.empty()) continue;
    if (hash.empty()) {
      hash = h;
      hashSource = in.source;
    } else if (h != hash) {
      throw InputError("'" + in.source + "' is of plan " + h + ", '" + hashSource + "' of plan " +
                       hash + ": shards of different plans are not merged");
    }
  }
  if (count == 0) throw InputError("nothing to merge: no shard documents or failure records");
  return {count, hash};
}

// Each part's document and failure record; a second document of a part is noted, not used.
std::vector<Part> partsOf(const std::vector<ShardInput>& inputs, int count,
                          std::vector<std::string>& notes, bool& duplicated) {
  std::vector<Part> parts(std::size_t(count) + 1);
  for (const ShardInput& in : inputs) {
    Part& p = parts[std::size_t(in.spec().index)];
    const ShardInput*& slot = in.document ? p.document : p.failure;
    if (slot) {
      notes.push_back(shardText(in.spec().index, count) + ": duplicated ('" + slot->source +
                      "' and '" + in.source + "'); the first is merged");
      duplicated = duplicated || in.document;
      continue;
    }
    slot = &in;
  }
  return parts;
}

std::string deviceKey(const DeviceInfo& d) {
  return d.uuid.empty() ? d.host + "|" + d.name + "|" + std::to_string(d.index) : d.uuid;
}

// Adds `doc`'s devices to `out` (each physical GPU once) and returns their new indices.
std::vector<int> addDevices(const RunDocument& doc, std::vector<DeviceInfo>& out) {
  std::vector<int> map;
  for (DeviceInfo d : doc.deviceList()) {
    if (d.host.empty()) d.host = doc.host;
    const auto it = std::find_if(out.begin(), out.end(),
                                 [&](const DeviceInfo& o) { return deviceKey(o) == deviceKey(d); });
    map.push_back(int(it - out.begin()));
    if (it == out.end()) out.push_back(d);
  }
  return map;
}

template <class T>
void addById(std::vector<T>& into, const std::vector<T>& from) {
  for (const T& x : from)
    if (std::none_of(into.begin(), into.end(), [&](const T& y) { return y.id == x.id; }))
      into.push_back(x);
}

// The document-level parts of the merged document: the first document's settings and tool;
// every document's kernels, families, devices, checks; the earliest start and longest wall time.
void mergeHeaders(const std::vector<Part>& parts, RunDocument& out,
                  std::map<const RunDocument*, std::vector<int>>& deviceMaps) {
  std::set<std::string> hosts;
  bool first = true;
  for (const Part& p : parts) {
    if (!p.document) continue;
    const RunDocument& d = *p.document->document;
    if (first) {
      out.toolVersion = d.toolVersion;
      out.gitRevision = d.gitRevision;
      out.timestamp = d.timestamp;
      out.settings = d.settings;
      out.launchOverhead = d.launchOverhead;
      out.knownAnswer = d.knownAnswer;
      first = false;
    } else {
      out.timestamp = std::min(out.timestamp, d.timestamp);
      // A failed known answer of any shard is the merged document's.
      if (d.knownAnswer.ran && (!out.knownAnswer.ran || !d.knownAnswer.passed))
        out.knownAnswer = d.knownAnswer;
    }
    if (d.tuning && !out.tuning) out.tuning = d.tuning;
    hosts.insert(d.host);
    addById(out.kernels, d.kernels);
    addById(out.families, d.families);
    deviceMaps[&d] = addDevices(d, out.devices);
    out.progression.checked = out.progression.checked || d.progression.checked;
    for (const auto& v : d.progression.violations) out.progression.violations.push_back(v);
    out.wallSeconds = std::max(out.wallSeconds, d.wallSeconds);
  }
  for (const std::string& h : hosts) out.host += (out.host.empty() ? "" : ", ") + h;
  if (!out.devices.empty()) out.device = out.devices.front();
}

// The cases a part's document holds, by kernel and size (a tuning sweep's results too).
std::map<std::string, const CaseResult*> casesOf(const RunDocument& d) {
  std::map<std::string, const CaseResult*> m;
  for (const CaseResult& c : d.cases) m.emplace(c.kernel + " " + sizeKey(c.size), &c);
  if (d.tuning)
    for (const CaseResult& c : d.tuning->results) m.emplace(c.kernel + " " + sizeKey(c.size), &c);
  return m;
}

CaseResult hole(const PlanEntry& e, const std::string& why) {
  CaseResult c;
  c.kernel = e.kernel;
  c.size = e.size;
  c.precision = e.precision;
  c.status = CaseStatus::kSkipped;
  c.message = "not run: " + why;
  c.device = -1;
  return c;
}

// A tuning sweep's shards: the merged cases are the sweep's results, chosen again per bucket
// over every tuned shape (holes are untimed, so never chosen).
void moveIntoTuning(RunDocument& doc) {
  TuneGrid& grid = *doc.tuning;
  grid.results = std::move(doc.cases);
  doc.cases.clear();
  std::vector<Shape> shapes;
  for (const CaseResult& c : grid.results)
    if (std::find(shapes.begin(), shapes.end(), c.shape()) == shapes.end())
      shapes.push_back(c.shape());
  if (shapes.empty()) return;
  grid.shape = shapes.front();
  grid.choices = chooseByBucket(grid.results, shapes);
  grid.best.clear();
  for (const TuneChoice& c : grid.choices)
    if (c.shape == grid.shape && c.gflops > 0) grid.best = c.config;
}

}  // namespace

ShardSpec ShardInput::spec() const { return document ? document->shard->spec : failure->shard; }

ShardInput readShardInput(const std::filesystem::path& path) {
  return parseShardInput(readTextFile(path, "shard", kMaxDocumentBytes), path.string());
}

ShardInput parseShardInput(std::string_view text, const std::string& source) {
  ShardInput in;
  in.source = source;
  if (looksLikeShardFailure(text)) {
    in.failure = parseShardFailure(text, in.source);
    return in;
  }
  in.document = parseDocument(text, in.source);
  if (!in.document->shard)
    throw InputError("'" + in.source +
                     "' is not a shard's document (it names no shard; run with --shard I/N)");
  return in;
}

MergeOutcome mergeShards(const std::vector<ShardInput>& inputs, int expectedCount) {
  const auto [count, hash] = commonPlan(inputs, expectedCount);
  MergeOutcome out;
  bool duplicated = false;
  const std::vector<Part> parts = partsOf(inputs, count, out.notes, duplicated);
  RunDocument& doc = out.document;
  std::map<const RunDocument*, std::vector<int>> deviceMaps;
  mergeHeaders(parts, doc, deviceMaps);
  doc.merged = MergeInfo{count, hash, {}};
  const std::vector<PlanEntry>* plan = nullptr;
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const Part& p = parts[i];
    MergedShard m{int(i), "missing"};
    if (p.document) {
      m = {int(i), "merged", "", p.document->source, p.document->document->host};
      if (!plan) plan = &p.document->document->shard->plan;
      if (p.failure)
        out.notes.push_back(shardText(int(i), count) + ": its failure record '" +
                            p.failure->source + "' is superseded by its document");
    } else if (p.failure) {
      const ShardFailure& f = *p.failure->failure;
      m = {int(i), "failed", f.reason(), p.failure->source, f.host};
      out.notes.push_back(shardText(int(i), count) + ": failed: " + m.reason);
    } else {
      out.notes.push_back(shardText(int(i), count) + ": missing (no document, no failure record)");
    }
    doc.merged->shards.push_back(m);
  }
  std::vector<std::map<std::string, const CaseResult*>> found(parts.size());
  for (std::size_t i = 1; i < parts.size(); ++i)
    if (parts[i].document) found[i] = casesOf(*parts[i].document->document);
  for (const PlanEntry& e : plan ? *plan : std::vector<PlanEntry>{}) {
    const Part& p = parts[std::size_t(e.shard)];
    const MergedShard& m = doc.merged->shards[std::size_t(e.shard) - 1];
    const std::string part = shardText(e.shard, count);
    if (!p.document) {
      doc.cases.push_back(
          hole(e, part + (m.state == "failed" ? " failed: " + m.reason : " missing")));
      continue;
    }
    const auto it = found[std::size_t(e.shard)].find(e.kernel + " " + sizeKey(e.size));
    if (it == found[std::size_t(e.shard)].end()) {
      doc.cases.push_back(hole(e, "not in " + part + "'s document"));
      continue;
    }
    CaseResult c = *it->second;
    const auto& map = deviceMaps[&*p.document->document];
    c.device =
        c.device >= 0 && std::size_t(c.device) < map.size() ? map[std::size_t(c.device)] : -1;
    doc.cases.push_back(std::move(c));
  }
  if (doc.tuning) moveIntoTuning(doc);
  out.complete = doc.merged->complete() && !duplicated;
  return out;
}

}  // namespace kwb
