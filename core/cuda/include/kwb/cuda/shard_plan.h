// SPDX-License-Identifier: Apache-2.0
#pragma once
// `--shard I/N` for run, verify and tune (docs/SCALE_OUT.md): the plan's sizes are cut into N
// parts balanced by estimated cost (kwb/shard_cost.h, kwb/shard.h), a size's cases always in one
// part, so each stage is timed interleaved with its reference on the same device and its
// "% of reference" holds.
#include <string>
#include <vector>

#include "kwb/cuda/runner.h"
#include "kwb/shard.h"

namespace kwb::cuda {

struct ShardedPlan {
  std::vector<PlanCase> cases;  // the part's cases, in plan order
  ShardInfo info;               // what its document records
};

// The text that identifies a plan: the suite, seed, measurement settings and every case
// (kernel, size, configuration) in order. Shards of one plan hash it alike.
std::string planText(const std::vector<PlanCase>& plan, const RunConfig& cfg);
// The part `spec` of `plan`.
ShardedPlan selectShard(const std::vector<PlanCase>& plan, const RunConfig& cfg, ShardSpec spec);

// How many size groups (the unit a shard takes whole) the plan has.
int sizeGroupCount(const std::vector<PlanCase>& plan, const RunConfig& cfg);
// The estimated seconds of each of `count` parts (index 0 is part 1/count), as selectShard cuts
// them: a host pool (kwb run --devices) hands the costliest out first.
std::vector<double> shardCosts(const std::vector<PlanCase>& plan, const RunConfig& cfg, int count);

}  // namespace kwb::cuda
