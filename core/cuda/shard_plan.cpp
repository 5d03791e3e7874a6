// SPDX-License-Identifier: Apache-2.0
#include "kwb/cuda/shard_plan.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "case_block.h"
#include "kwb/error.h"
#include "kwb/format.h"
#include "kwb/shard_cost.h"

namespace kwb::cuda {

RunSettings settingsOf(const RunConfig& cfg) {
  RunSettings s = documentSettings(cfg);
  if (cfg.verifyOnly) recordMeasureOptions(cfg.measure, s);  // its plan's identity names them too
  return s;
}

namespace {

// The cost hints' part of a plan's identity: shards cut with other hints are of another cut.
std::string costHintsText(const RunConfig& cfg) {
  if (cfg.measuredCaseSeconds.empty()) return "";
  std::string hints;
  for (const auto& [key, seconds] : cfg.measuredCaseSeconds)
    hints += key + "=" + fixed(seconds, 4) + ";";
  return ";costHints=" + planHash(hints);
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
      ";maxCaseSeconds=" + fixed(cfg.maxCaseSeconds, 3) + costHintsText(cfg) + "\n";
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

// The units of `groups` cut into `pieces[g]` pieces each.
Units unitsOf(const std::vector<SizeGroup>& groups, const std::vector<std::size_t>& pieces,
              const std::vector<double>& caseCost) {
  Units u;
  u.owner.assign(caseCost.size(), 0);
  for (std::size_t g = 0; g < groups.size(); ++g) addPieces(groups[g], pieces[g], caseCost, u);
  return u;
}

std::vector<double> caseCosts(const std::vector<PlanCase>& plan, const RunConfig& cfg) {
  const RunSettings settings = settingsOf(cfg);
  std::vector<double> caseCost;
  caseCost.reserve(plan.size());
  for (const PlanCase& p : plan) {
    const CaseResult planned = skippedPlanCase(p, "");
    const auto measured = cfg.measuredCaseSeconds.find(caseCostKey(planned));
    caseCost.push_back(measured != cfg.measuredCaseSeconds.end()
                           ? measured->second
                           : estimateCaseSeconds(planned, settings, ratesFor(*p.kernel)));
  }
  return caseCost;
}

// `--shard I/N`: every part runs at once (a job array), so a size costlier than a fair part (the
// plan's cost over N) is cut into pieces no costlier than a fair part, each paying for the
// references again; none when the references alone are a fair part or there is nothing to spread.
Units planUnits(const std::vector<PlanCase>& plan, const RunConfig& cfg, int count) {
  const std::vector<double> caseCost = caseCosts(plan, cfg);
  double total = 0;
  for (double c : caseCost) total += c;
  const double fair = count > 0 ? total / count : total;
  const std::vector<SizeGroup> groups = sizeGroups(plan, caseCost);
  std::vector<std::size_t> pieces(groups.size(), 1);
  for (std::size_t i = 0; i < groups.size(); ++i) {
    const SizeGroup& g = groups[i];
    if (g.refCost + g.otherCost > fair && g.refCost < fair && g.others.size() > 1)
      pieces[i] =
          std::min(g.others.size(), std::size_t(std::ceil(g.otherCost / (fair - g.refCost))));
    pieces[i] = std::max<std::size_t>(pieces[i], 1);
  }
  return unitsOf(groups, pieces, caseCost);
}

// A shard's own cost in a pool beyond its cases: its request, its document and its merge.
constexpr double kShardOverheadS = 0.05;

// The pool's estimated wall time for `u` on `gpus` GPUs: the queue hands the costliest unit
// first to the first idle GPU, as partitionByCost assigns them.
double poolMakespan(const Units& u, int gpus) {
  std::vector<double> cost = u.cost;
  for (double& c : cost) c += kShardOverheadS;
  const std::vector<int> part = partitionByCost(cost, gpus);
  std::vector<double> load(std::size_t(gpus), 0.0);
  for (std::size_t i = 0; i < cost.size(); ++i) load[std::size_t(part[i])] += cost[i];
  return *std::max_element(load.begin(), load.end());
}

// A pool of `gpus` long-lived workers: each size is one unit; then the size of the costliest unit
// is cut into one more piece, again and again (each piece times the size's references again), and
// the cut with the shortest estimated wall time wins, by at least 1% over any with fewer pieces
// (so a cut pays only where it evens out the GPUs). On one GPU nothing is cut.
Units poolUnits(const std::vector<PlanCase>& plan, const RunConfig& cfg, int gpus) {
  const std::vector<double> caseCost = caseCosts(plan, cfg);
  const std::vector<SizeGroup> groups = sizeGroups(plan, caseCost);
  std::vector<std::size_t> pieces(groups.size(), 1);
  Units tried = unitsOf(groups, pieces, caseCost);
  Units best = tried;
  double bestTime = poolMakespan(best, gpus);
  // No cut can beat the uncut plan's cost (with each unit's overhead) spread evenly over the GPUs:
  // a cut only adds pieces and reference copies. Once the best is within 1% of that, no later
  // cut could win, and the search stops (a plan of many similar sizes stops at once).
  double evenSpread = 0;
  for (double c : best.cost) evenSpread += c + kShardOverheadS;
  evenSpread /= gpus;
  const std::size_t steps = gpus > 1 ? groups.size() + 8 * std::size_t(gpus) : 0;
  for (std::size_t step = 0; step < steps && evenSpread < bestTime * 0.99; ++step) {
    const auto costliest = std::max_element(tried.cost.begin(), tried.cost.end());
    const std::size_t unit = std::size_t(costliest - tried.cost.begin());
    // The size that unit belongs to: units are added size by size, pieces[g] each.
    std::size_t g = 0;
    for (std::size_t first = 0; first + pieces[g] <= unit; ++g) first += pieces[g];
    if (pieces[g] >= groups[g].others.size()) break;  // a piece per case already
    ++pieces[g];
    tried = unitsOf(groups, pieces, caseCost);
    const double t = poolMakespan(tried, gpus);
    if (t < bestTime * 0.99) {
      best = tried;
      bestTime = t;
    }
  }
  return best;
}

// Each unit's part: N parts balanced by cost, or in a pool, a part per unit.
std::vector<int> partsOf(const Units& u, int count, int poolGpus) {
  if (poolGpus <= 0) return partitionByCost(u.cost, count);
  if (std::size_t(count) != u.cost.size())
    throw InputError("a pool of " + std::to_string(poolGpus) + " GPU(s) cuts this plan into " +
                     std::to_string(u.cost.size()) + " shard(s), not " + std::to_string(count));
  std::vector<int> part(u.cost.size());
  for (std::size_t i = 0; i < part.size(); ++i) part[i] = int(i);
  return part;
}

Units unitsFor(const std::vector<PlanCase>& plan, const RunConfig& cfg, int count, int poolGpus) {
  return poolGpus > 0 ? poolUnits(plan, cfg, poolGpus) : planUnits(plan, cfg, count);
}

}  // namespace

int poolShardCount(const std::vector<PlanCase>& plan, const RunConfig& cfg, int gpus) {
  return int(poolUnits(plan, cfg, std::max(gpus, 1)).cost.size());
}

std::vector<double> shardCosts(const std::vector<PlanCase>& plan, const RunConfig& cfg, int count,
                               int poolGpus) {
  const Units u = unitsFor(plan, cfg, count, poolGpus);
  const std::vector<int> part = partsOf(u, count, poolGpus);
  std::vector<double> out(std::size_t(std::max(count, 0)), 0.0);
  for (std::size_t i = 0; i < u.cost.size(); ++i) out[std::size_t(part[i])] += u.cost[i];
  return out;
}

ShardedPlan selectShard(const std::vector<PlanCase>& plan, const RunConfig& cfg, ShardSpec spec,
                        int poolGpus) {
  const Units u = unitsFor(plan, cfg, spec.count, poolGpus);
  const std::vector<int> part = partsOf(u, spec.count, poolGpus);
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
