// SPDX-License-Identifier: Apache-2.0
#include "kwb/cuda/shard_plan.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "case_block.h"
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

// The units the plan is cut into: a size's cases together, or, for a size costlier than a fair
// part (the plan's cost over the parts), pieces of it. Every piece holds the size's references
// (the kernels its cases pair with, case_block.h) beside some of its other cases, so each stage
// is still timed with a reference on its own device in its own part; the first piece owns the
// references (a merge takes theirs), the others time copies.
struct Units {
  std::vector<double> cost;                     // each unit's estimated seconds
  std::vector<std::vector<std::size_t>> cases;  // each unit's cases (plan indices, in order)
  std::vector<std::size_t> owner;               // each case's owning unit
};

struct SizeGroup {
  std::vector<std::size_t> refs, others;  // plan indices
  double refCost = 0, otherCost = 0;
};

std::vector<SizeGroup> sizeGroups(const std::vector<PlanCase>& plan,
                                  const std::vector<double>& caseCost) {
  std::map<std::string, std::size_t> groupOf;
  std::vector<SizeGroup> groups;
  std::vector<std::vector<std::string>> refIds;  // per group: the kernels its cases pair with
  for (const PlanCase& p : plan) {
    const auto [it, added] = groupOf.emplace(sizeKey(p.size), groups.size());
    if (added) {
      groups.emplace_back();
      refIds.emplace_back();
    }
    for (const std::string& r : pairedReferences(skippedPlanCase(p, "")))
      refIds[it->second].push_back(r);
  }
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const std::size_t g = groupOf.at(sizeKey(plan[i].size));
    const auto& ids = refIds[g];
    const bool ref = std::find(ids.begin(), ids.end(), plan[i].kernel->id) != ids.end();
    (ref ? groups[g].refs : groups[g].others).push_back(i);
    (ref ? groups[g].refCost : groups[g].otherCost) += caseCost[i];
  }
  return groups;
}

// A size cut into `k` pieces: its other cases spread costliest first over the pieces, each with
// the references.
void addPieces(const SizeGroup& g, std::size_t k, const std::vector<double>& caseCost, Units& u) {
  const std::size_t first = u.cost.size();
  std::vector<std::size_t> order = g.others;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return caseCost[a] > caseCost[b]; });
  for (std::size_t p = 0; p < k; ++p) {
    u.cost.push_back(g.refCost);
    u.cases.push_back(g.refs);
  }
  for (std::size_t i : order) {
    const auto lightest = std::min_element(u.cost.begin() + std::ptrdiff_t(first), u.cost.end());
    *lightest += caseCost[i];
    u.cases[std::size_t(lightest - u.cost.begin())].push_back(i);
    u.owner[i] = std::size_t(lightest - u.cost.begin());
  }
  for (std::size_t r : g.refs) u.owner[r] = first;
  for (std::size_t p = first; p < u.cost.size(); ++p)
    std::sort(u.cases[p].begin(), u.cases[p].end());
}

Units planUnits(const std::vector<PlanCase>& plan, const RunConfig& cfg, int count) {
  const RunSettings settings = settingsOf(cfg);
  std::vector<double> caseCost;
  caseCost.reserve(plan.size());
  double total = 0;
  for (const PlanCase& p : plan)
    total += caseCost.emplace_back(estimateCaseSeconds(skippedPlanCase(p, ""), settings));
  const double fair = count > 0 ? total / count : total;
  Units u;
  u.owner.assign(plan.size(), 0);
  for (const SizeGroup& g : sizeGroups(plan, caseCost)) {
    // Pieces no costlier than a fair part, each paying for the references again; none when
    // the references alone are a fair part or there is nothing to spread.
    std::size_t k = 1;
    if (g.refCost + g.otherCost > fair && g.refCost < fair && g.others.size() > 1)
      k = std::min(g.others.size(), std::size_t(std::ceil(g.otherCost / (fair - g.refCost))));
    addPieces(g, std::max<std::size_t>(k, 1), caseCost, u);
  }
  return u;
}

}  // namespace

int sizeGroupCount(const std::vector<PlanCase>& plan, const RunConfig&) {
  std::set<std::string> sizes;
  for (const PlanCase& p : plan) sizes.insert(sizeKey(p.size));
  return int(sizes.size());
}

std::vector<double> shardCosts(const std::vector<PlanCase>& plan, const RunConfig& cfg, int count) {
  const Units u = planUnits(plan, cfg, count);
  const std::vector<int> part = partitionByCost(u.cost, count);
  std::vector<double> out(std::size_t(std::max(count, 0)), 0.0);
  for (std::size_t i = 0; i < u.cost.size(); ++i) out[std::size_t(part[i])] += u.cost[i];
  return out;
}

ShardedPlan selectShard(const std::vector<PlanCase>& plan, const RunConfig& cfg, ShardSpec spec) {
  const Units u = planUnits(plan, cfg, spec.count);
  const std::vector<int> part = partitionByCost(u.cost, spec.count);
  std::vector<bool> runsHere(plan.size(), false);  // owned here, or a reference copy
  for (std::size_t unit = 0; unit < u.cases.size(); ++unit)
    if (part[unit] + 1 == spec.index)
      for (std::size_t i : u.cases[unit]) runsHere[i] = true;

  ShardedPlan out;
  out.info.spec = spec;
  out.info.planHash = planHash(planText(plan, cfg));
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const CaseResult planned = skippedPlanCase(plan[i], "");
    out.info.plan.push_back(
        {planned.kernel, planned.size, planned.precision, part[u.owner[i]] + 1});
    if (runsHere[i]) out.cases.push_back(plan[i]);
  }
  return out;
}

}  // namespace kwb::cuda
