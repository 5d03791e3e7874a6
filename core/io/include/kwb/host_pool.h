// SPDX-License-Identifier: Apache-2.0
#pragma once
// The host pool (docs/SCALE_OUT.md, "Every GPU of a host"): `kwb run|tune --devices` cuts the plan
// into shards and runs them on one long-lived child engine per GPU, pinned with
// CUDA_VISIBLE_DEVICES, that takes shard after shard, costliest first, from a queue over its
// standard input (kwb/pool_protocol.h). A child that dies is reported with its GPU and its shard
// runs once more on another GPU; a second death leaves a failure record. The caller merges what
// the shards wrote (kwb/merge.h).
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "kwb/merge.h"

namespace kwb {

// "all" (every GPU of the host, 0..deviceCount-1) or a comma list of device indices, each once
// and below deviceCount. Throws InputError naming the text and what is wrong.
std::vector<int> parseDevices(std::string_view text, int deviceCount);

// The parts 1..costs.size() in the order a pool hands them out: costliest first, ties by index.
std::vector<int> poolOrder(const std::vector<double>& costs);

struct HostPoolConfig {
  // The worker program and the arguments every shard shares; each worker adds
  // `--pool-serve --device 0 [--stream]` and is sent its shards (`I/N`, the document's path
  // <workDir>/shard-I.json) one request line at a time.
  std::vector<std::string> workerArgv;
  bool workerStreams = true;            // add --stream (kwb run's workers; kwb tune has no stream)
  std::vector<int> gpus;                // the host's device indices, one worker each
  std::vector<double> shardCosts;       // each part's estimated seconds; their count is N
  std::filesystem::path workDir;        // shard documents, standard errors and failure records
  std::function<bool()> stopRequested;  // Ctrl-C: every worker is sent SIGTERM
  // A line of a worker's standard output (its event stream), with its GPU and shard.
  std::function<void(int gpu, int shard, const std::string& line)> onLine;
  // A sentence for the user: a worker that died, a shard run again.
  std::function<void(const std::string& note)> onNote;
};

struct HostPoolResult {
  std::vector<ShardInput> inputs;  // each part's document or failure record; none if never run
  bool interrupted = false;        // stopped by stopRequested
};

// Runs the pool to its end (every shard written, failed twice, or the pool stopped). Throws
// InputError when a worker cannot be started at all.
HostPoolResult runHostPool(const HostPoolConfig& cfg);

}  // namespace kwb
