// SPDX-License-Identifier: Apache-2.0
#include "kwb/cuda/shard_plan.h"

#include <algorithm>
#include <map>

#include "kwb/format.h"
#include "kwb/shard_cost.h"

namespace kwb::cuda {
namespace {

RunSettings settingsOf(const RunConfig& cfg) {
  RunSettings s;
  recordMeasureOptions(cfg.measure, s);
  s.verifyOnly = cfg.verifyOnly;
  s.suite = cfg.suite;
  s.seed = cfg.seed;
  return s;
}

}  // namespace

std::string planText(const std::vector<PlanCase>& plan, const RunConfig& cfg) {
  const RunSettings s = settingsOf(cfg);
  std::string t =
      "suite=" + s.suite + ";seed=" + std::to_string(s.seed) +
      ";verifyOnly=" + std::to_string(int(s.verifyOnly)) +
      ";cold=" + std::to_string(int(s.coldL2)) + ";warmups=" + std::to_string(s.warmups) +
      ";samples=" + std::to_string(s.minSamples) + "-" + std::to_string(s.maxSamples) +
      ";time=" + fixed(s.minTimeS, 6) + "-" + fixed(s.maxTimeS, 6) +
      ";noise=" + fixed(s.maxNoise, 6) + ";timer=" + std::string(toString(s.timer)) +
      ";cupti=" + std::to_string(int(s.cuptiCheck)) + ";rounds=" + std::to_string(s.replicates) +
      ";maxCaseSeconds=" + fixed(cfg.maxCaseSeconds, 3) + "\n";
  for (const PlanCase& p : plan) {
    t += p.kernel->id + " " + sizeKey(p.size);
    if (p.config) t += " [" + p.config->name + "]";
    if (!p.ranAs.empty()) t += " as " + p.ranAs;
    t += '\n';
  }
  return t;
}

namespace {

// The plan's size groups, in order of first appearance: a size's reference and stages together.
struct SizeGroups {
  std::vector<double> cost;        // each group's estimated seconds
  std::vector<std::size_t> group;  // each case's group
};

SizeGroups sizeGroups(const std::vector<PlanCase>& plan, const RunConfig& cfg) {
  const RunSettings settings = settingsOf(cfg);
  std::map<std::string, std::size_t> groupOf;
  SizeGroups g;
  g.group.reserve(plan.size());
  for (const PlanCase& p : plan) {
    const auto [it, added] = groupOf.emplace(sizeKey(p.size), g.cost.size());
    if (added) g.cost.push_back(0.0);
    g.cost[it->second] += estimateCaseSeconds(skippedPlanCase(p, ""), settings);
    g.group.push_back(it->second);
  }
  return g;
}

}  // namespace

int sizeGroupCount(const std::vector<PlanCase>& plan, const RunConfig& cfg) {
  return int(sizeGroups(plan, cfg).cost.size());
}

std::vector<double> shardCosts(const std::vector<PlanCase>& plan, const RunConfig& cfg, int count) {
  const SizeGroups g = sizeGroups(plan, cfg);
  const std::vector<int> part = partitionByCost(g.cost, count);
  std::vector<double> out(std::size_t(std::max(count, 0)), 0.0);
  for (std::size_t i = 0; i < g.cost.size(); ++i) out[std::size_t(part[i])] += g.cost[i];
  return out;
}

ShardedPlan selectShard(const std::vector<PlanCase>& plan, const RunConfig& cfg, ShardSpec spec) {
  const SizeGroups g = sizeGroups(plan, cfg);
  const std::vector<int> part = partitionByCost(g.cost, spec.count);
  const std::vector<std::size_t>& caseGroup = g.group;

  ShardedPlan out;
  out.info.spec = spec;
  out.info.planHash = planHash(planText(plan, cfg));
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const int shard = part[caseGroup[i]] + 1;
    const CaseResult planned = skippedPlanCase(plan[i], "");
    out.info.plan.push_back({planned.kernel, planned.size, planned.precision, shard});
    if (shard == spec.index) out.cases.push_back(plan[i]);
  }
  return out;
}

}  // namespace kwb::cuda
