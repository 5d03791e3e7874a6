#include "kwb/tuning.h"

#include "json_read.h"
#include "kwb/results.h"
#include "kwb/results_json.h"
#include "kwb/tuning_json.h"

namespace kwb {
using nlohmann::json;

std::optional<std::size_t> fastest(std::span<const TuneResult> results) {
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const TuneResult& r = results[i];
    if (r.status != "pass" || !r.medianMs) continue;
    if (!best || *r.medianMs < *results[*best].medianMs) best = i;
  }
  return best;
}

namespace {
json optNumber(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }
std::optional<double> readOptNumber(const json& j, const char* key) {
  if (auto it = j.find(key); it != j.end() && !it->is_null()) return jsonread::toNumber(*it, key);
  return std::nullopt;
}
}  // namespace

void to_json(json& j, const TuneConfig& v) { j = {{"name", v.name}, {"params", v.params}}; }
void from_json(const json& j, TuneConfig& v) {
  jsonread::get(j, "name", v.name);
  jsonread::get(j, "params", v.params);  // every parameter a whole number in range
}

void to_json(json& j, const TuneResult& v) {
  j = {{"config", v.config},
       {"status", v.status},
       {"message", v.message},
       {"ranKernel", v.ranKernel},
       {"medianMs", optNumber(v.medianMs)},
       {"gflops", optNumber(v.gflops)},
       {"samples", v.samples}};
}
void from_json(const json& j, TuneResult& v) {
  j.at("config").get_to(v.config);
  j.at("status").get_to(v.status);
  parseCaseStatus(v.status);  // throws InputError on an unknown status
  v.message = j.value("message", std::string());
  v.ranKernel = j.value("ranKernel", std::string());
  v.medianMs = readOptNumber(j, "medianMs");
  v.gflops = readOptNumber(j, "gflops");
  v.samples = jsonread::value(j, "samples", 0);
}

void to_json(json& j, const TuneGrid& v) {
  j = {{"kernel", v.kernel},
       {"shape", v.shape},
       {"seed", v.seed},
       {"best", v.best.empty() ? json(nullptr) : json(v.best)},
       {"results", v.results}};
}
void from_json(const json& j, TuneGrid& v) {
  j.at("kernel").get_to(v.kernel);
  j.at("shape").get_to(v.shape);
  jsonread::get(j, "seed", v.seed);
  const auto it = j.find("best");
  v.best = it != j.end() && !it->is_null() ? it->get<std::string>() : std::string();
  j.at("results").get_to(v.results);
}

}  // namespace kwb
