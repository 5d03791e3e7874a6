// SPDX-License-Identifier: Apache-2.0
#include "conformance_json.h"

#include "json_read.h"

namespace kwb {
using jsonread::get;
using nlohmann::json;

// `passed` and `threadsPerBlock` are written for readers (the GUI) and recomputed on reading.
json conformanceToJson(const ConformanceReport& r) {
  json runs = json::array();
  for (const auto& run : r.runs) {
    json checks = json::array();
    for (const auto& c : run.checks)
      checks.push_back({{"id", c.id},
                        {"description", c.description},
                        {"passed", c.passed},
                        {"failures", c.failures},
                        {"notJudged", c.notJudged},
                        {"offenders", c.offenders}});
    runs.push_back({{"tileSize", run.tileSize},
                    {"block", run.launch.block},
                    {"grid", run.launch.grid},
                    {"threadsPerBlock", run.launch.threadsPerBlock()},
                    {"items", run.items},
                    {"tiles", run.tiles},
                    {"incompleteTiles", run.incompleteTiles},
                    {"error", run.error},
                    {"passed", run.passed()},
                    {"checks", checks}});
  }
  return {{"suite", r.suite}, {"warpSize", r.warpSize}, {"passed", r.passed()}, {"runs", runs}};
}

ConformanceReport conformanceFromJson(const json& j) {
  ConformanceReport r;
  get(j, "suite", r.suite);
  get(j, "warpSize", r.warpSize);
  for (const auto& jr : j.at("runs")) {
    SubgroupRun run;
    get(jr, "tileSize", run.tileSize);
    get(jr, "block", run.launch.block);
    get(jr, "grid", run.launch.grid);
    get(jr, "items", run.items);
    get(jr, "tiles", run.tiles);
    get(jr, "incompleteTiles", run.incompleteTiles);
    get(jr, "error", run.error);
    for (const auto& jc : jr.at("checks")) {
      ConformanceCheck c;
      get(jc, "id", c.id);
      get(jc, "description", c.description);
      get(jc, "passed", c.passed);
      get(jc, "failures", c.failures);
      get(jc, "notJudged", c.notJudged);
      get(jc, "offenders", c.offenders);
      run.checks.push_back(std::move(c));
    }
    r.runs.push_back(std::move(run));
  }
  return r;
}

}  // namespace kwb
