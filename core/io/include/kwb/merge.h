// SPDX-License-Identifier: Apache-2.0
#pragma once
// `kwb merge` (docs/SCALE_OUT.md): the shard documents of one plan, and the failure records of
// shards that wrote none, joined into one document. Shards of another plan are refused; a
// missing or failed shard leaves its cases in the document as holes (not run, with the reason),
// never filled.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kwb/results.h"
#include "kwb/shard_failure.h"

namespace kwb {

// One input of a merge: a shard document or a failure record, and the file it came from.
struct ShardInput {
  std::string source;
  std::optional<RunDocument> document;
  std::optional<ShardFailure> failure;
  ShardSpec spec() const;
};
// Reads either kind of file. Throws InputError naming the file when it is neither, or a
// document that is not a shard's (run with --shard I/N).
ShardInput readShardInput(const std::filesystem::path& path);
// The same for a file's text already read (fetched over ssh); `source` names it in messages.
ShardInput parseShardInput(std::string_view text, const std::string& source);

struct MergeOutcome {
  RunDocument document;
  std::vector<std::string> notes;  // one line per missing, failed or duplicated shard
  bool complete = false;           // every part merged from its document, none duplicated
};

// Joins `inputs`. `expectedCount` (0: the inputs') is the number of parts. Throws InputError
// naming the file when the inputs disagree on the number of parts or on the plan, or when there
// is nothing to merge.
MergeOutcome mergeShards(const std::vector<ShardInput>& inputs, int expectedCount = 0);

}  // namespace kwb
