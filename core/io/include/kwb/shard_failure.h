// SPDX-License-Identifier: Apache-2.0
#pragma once
// A shard failure record (docs/SCALE_OUT.md): when a shard ends without a document (no GPU, a
// crash, killed by the scheduler), whatever ran it writes this small JSON file in the
// document's place, and `kwb merge` reports that shard as failed with its reason.
// {"kind": "kwb-shard-failure", "version": 1, "shard": {"index", "count"}, "planHash",
//  "exitStatus", "signal", "host", "timestamp", "stderrTail": [lines]}
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "kwb/shard.h"

namespace kwb {

inline constexpr std::string_view kShardFailureKind = "kwb-shard-failure";
inline constexpr int kShardFailureVersion = 1;
// The last lines of the shard's standard error a record keeps, and their bytes at most.
inline constexpr std::size_t kFailureTailLines = 20;
inline constexpr std::size_t kFailureTailBytes = 8192;

struct ShardFailure {
  ShardSpec shard;
  std::string planHash;  // empty when the shard died before it knew its plan
  int exitStatus = -1;   // -1: it did not exit (a signal ended it)
  int signal = 0;        // the signal that ended it, 0 if none
  std::string host;
  std::string timestamp;                // ISO 8601 UTC when the record was written
  std::vector<std::string> stderrTail;  // the last lines of its standard error

  // One sentence: "exit 3 (no CUDA device): kwb: no CUDA device: ...", "killed by signal 9".
  std::string reason() const;
};

// The last kFailureTailLines lines of `text` (at most kFailureTailBytes), empty lines dropped.
std::vector<std::string> tailLines(std::string_view text);

std::string toJsonText(const ShardFailure& f);
// Throws InputError naming `source` when the text is not a failure record.
ShardFailure parseShardFailure(std::string_view text, std::string_view source);
ShardFailure readShardFailure(const std::filesystem::path& path);
void writeShardFailure(const ShardFailure& f, const std::filesystem::path& path);

// True when `text` is a JSON object whose "kind" is kShardFailureKind (a cheap look, for
// telling records from documents).
bool looksLikeShardFailure(std::string_view text);

}  // namespace kwb
