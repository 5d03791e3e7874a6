// SPDX-License-Identifier: Apache-2.0
#include "kwb/tuning_json.h"

#include <cmath>
#include <limits>

#include "json_read.h"
#include "kwb/error.h"
#include "kwb/kernel_info.h"
#include "kwb/results_json.h"
#include "kwb/tune_buckets.h"

namespace kwb {
using nlohmann::json;

void to_json(json& j, const TuneConfig& v) { j = {{"name", v.name}, {"params", v.params}}; }
void from_json(const json& j, TuneConfig& v) {
  jsonread::get(j, "name", v.name);
  jsonread::get(j, "params", v.params);  // every parameter a whole number in range
}

namespace {

// A configuration's result as schema 2 wrote it ({config, status, message, ranKernel,
// medianMs, gflops, samples}), read into the case it now is: the median and the sample count
// are kept in the summary (the samples themselves were never written).
CaseResult legacyResult(const json& j, const TuneGrid& grid) {
  CaseResult c;
  jsonread::get(j, "config", c.config.emplace());
  c.kernel = grid.kernel + "[" + c.config->name + "]";
  c.size = gemmSize(grid.shape);
  const std::string precision = legacyKernelInfo(grid.kernel).precision;
  c.precision = precision.empty() ? Precision::kFp32 : parsePrecision(precision);
  c.status = parseCaseStatus(j.at("status").get<std::string>());
  c.message = jsonread::value(j, "message", std::string());
  c.ranKernel = jsonread::value(j, "ranKernel", std::string());
  if (auto it = j.find("medianMs"); it != j.end() && !it->is_null()) {
    c.summary.median = jsonread::toNumber(*it, "medianMs");
    c.summary.count = jsonread::value(j, "samples", std::size_t(0));
    c.gflops = jsonread::value(j, "gflops", 0.0);
  }
  return c;
}

// A sweep of one shape written before per-shape buckets has no choices: its bucket is every
// shape. A grid built without them (one shape) is written as a reader would derive it.
std::vector<TuneChoice> oneShapeChoices(const TuneGrid& grid) {
  return chooseByBucket(grid.results, std::span<const Shape>(&grid.shape, 1));
}

}  // namespace

void to_json(json& j, const TuneChoice& v) {
  j = {{"shape", v.shape},
       {"minFlops", v.minFlops},
       {"maxFlops", std::isinf(v.maxFlops) ? json(nullptr) : json(v.maxFlops)},
       {"config", v.config},
       {"gflops", v.gflops > 0 ? json(v.gflops) : json(nullptr)}};
}
void from_json(const json& j, TuneChoice& v) {
  jsonread::get(j, "shape", v.shape);
  jsonread::get(j, "minFlops", v.minFlops);
  v.maxFlops = jsonread::value(j, "maxFlops", std::numeric_limits<double>::infinity());
  jsonread::get(j, "config", v.config);
  v.gflops = jsonread::value(j, "gflops", 0.0);
}

void to_json(json& j, const TuneGrid& v) {
  j = {{"kernel", v.kernel},   {"shape", v.shape},
       {"seed", v.seed},       {"best", v.best.empty() ? json(nullptr) : json(v.best)},
       {"results", v.results}, {"choices", v.choices.empty() ? oneShapeChoices(v) : v.choices}};
}
void from_json(const json& j, TuneGrid& v) {
  jsonread::get(j, "kernel", v.kernel);
  jsonread::get(j, "shape", v.shape);
  jsonread::get(j, "seed", v.seed);
  const auto it = j.find("best");
  v.best = it != j.end() && !it->is_null() ? it->get<std::string>() : std::string();
  v.results.clear();
  for (const auto& r : j.at("results")) {
    v.results.push_back(r.contains("kernel") ? r.get<CaseResult>() : legacyResult(r, v));
    if (!v.results.back().config)
      throw InputError("tuning result " + std::to_string(v.results.size()) + " ('" +
                       v.results.back().kernel + "') has no 'config'");
  }
  if (const auto c = j.find("choices"); c != j.end() && !c->is_null()) {
    jsonread::get(j, "choices", v.choices);
    checkBuckets(v.choices);
  } else {
    v.choices = oneShapeChoices(v);
  }
}

}  // namespace kwb
