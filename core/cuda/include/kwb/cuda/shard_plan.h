// SPDX-License-Identifier: Apache-2.0
#pragma once
// `--shard I/N` for run, verify and tune (docs/SCALE_OUT.md): the plan's sizes are cut into N
// parts balanced by estimated cost (kwb/shard_cost.h, kwb/shard.h). A size's cases stay in one
// part unless the size is costlier than a fair part (the plan's cost over N): it is then cut into
// pieces, each with the size's references, so each stage is still timed interleaved with its
// reference on the same device and its "% of reference" holds. Each case is owned by one part
// (the plan entries say which); the references' copies in the other pieces are not merged.
// A host pool (kwb run --devices) cuts for its GPU count instead: a shard per size, and a size
// cut into more pieces only while that shortens the pool's estimated wall time.
#include <string>
#include <vector>

#include "kwb/cuda/runner.h"
#include "kwb/shard.h"

namespace kwb::cuda {

struct ShardedPlan {
  std::vector<PlanCase> cases;  // the part's cases, in plan order
  ShardInfo info;               // what its document records
};

// The settings a document of `cfg`'s run records (documentSettings), with the measurement
// options also when it only verifies: a plan's identity (planText) and its cases' costs name them.
RunSettings settingsOf(const RunConfig& cfg);

// The text that identifies a plan: the suite, seed, measurement settings and every case
// (kernel, size, configuration) in order. Shards of one plan hash it alike.
std::string planText(const std::vector<PlanCase>& plan, const RunConfig& cfg);
// The part `spec` of `plan`: of N parts balanced by cost (poolGpus 0), or of the cut for a pool
// of `poolGpus` GPUs (spec.count must then be poolShardCount's; else InputError).
ShardedPlan selectShard(const std::vector<PlanCase>& plan, const RunConfig& cfg, ShardSpec spec,
                        int poolGpus = 0);

// How many shards a pool of `gpus` GPUs cuts the plan into.
int poolShardCount(const std::vector<PlanCase>& plan, const RunConfig& cfg, int gpus);
// The estimated seconds of each of `count` parts (index 0 is part 1/count), as selectShard cuts
// them: a host pool (kwb run --devices) hands the costliest out first.
std::vector<double> shardCosts(const std::vector<PlanCase>& plan, const RunConfig& cfg, int count,
                               int poolGpus = 0);

}  // namespace kwb::cuda
