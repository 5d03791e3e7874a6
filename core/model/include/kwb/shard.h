// SPDX-License-Identifier: Apache-2.0
#pragma once
// Shards of a plan (docs/SCALE_OUT.md): `--shard I/N` runs the I-th of N deterministic parts of
// a plan, each a complete document that names its part and the plan it belongs to, so that
// `kwb merge` joins the parts of one plan and refuses a part of another.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kwb/case_size.h"
#include "kwb/kernel_descriptor.h"

namespace kwb {

// The I-th of N parts, 1-based as Slurm array task ids are: 1/4 .. 4/4.
struct ShardSpec {
  int index = 0;
  int count = 0;
  friend bool operator==(const ShardSpec&, const ShardSpec&) = default;
};
inline constexpr int kMaxShards = 100000;
// "I/N" with 1 ≤ I ≤ N ≤ kMaxShards; throws InputError quoting the text and the rule.
ShardSpec parseShard(std::string_view text);
std::string toString(const ShardSpec& s);  // "3/4"

// One case of the whole plan as a shard document records it, so that a merge can list the cases
// of a shard that never wrote a document.
struct PlanEntry {
  std::string kernel;
  CaseSize size;
  Precision precision = Precision::kFp32;
  int shard = 0;  // 1-based: the part that runs it
};

// What a shard document says of its part (RunDocument::shard).
struct ShardInfo {
  ShardSpec spec;
  std::string planHash;         // planHash() of the whole plan's text
  std::vector<PlanEntry> plan;  // every case of the whole plan, in plan order
};

// How a merged document got each part (RunDocument::merged): "merged" from its document,
// "missing" (no document, no failure record) or "failed" (a failure record: `reason`).
struct MergedShard {
  int index = 0;
  std::string state;
  std::string reason = {};
  std::string source = {};  // the file it came from; empty when missing
  std::string host = {};
};
struct MergeInfo {
  int count = 0;
  std::string planHash;
  std::vector<MergedShard> shards;  // one per part, 1..count
  bool complete() const;            // every part merged
};

// A short stable hash (16 hex digits, FNV-1a 64) of a plan's canonical text.
std::string planHash(std::string_view canonicalText);

// Assigns groups of estimated cost to `count` parts, balanced by cost: the costliest group first,
// each to the part with the least cost so far (on a tie the part with the fewest groups, then the
// lowest index). Deterministic for the
// same costs; a group much costlier than the rest ends alone in its part. Returns each group's
// part, 0-based. Negative or non-finite costs count as 0.
std::vector<int> partitionByCost(const std::vector<double>& groupCosts, int count);

}  // namespace kwb
