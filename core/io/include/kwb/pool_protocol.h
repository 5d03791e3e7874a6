// SPDX-License-Identifier: Apache-2.0
#pragma once
// The line protocol between the host pool and its long-lived workers (docs/PROTOCOL.md, "Pool
// workers"): the pool writes one request per line on a worker's standard input,
//   {"json":"/tmp/kwb-pool-x/shard-3.json","op":"shard","shard":"3/7"}
// the worker runs that shard as `--shard 3/7 --json …` would, streams its output as usual, and
// ends it with one line of its own on standard output,
//   {"event":"shard_end","exitCode":0,"shard":3,"workerS":1.234}
// (workerS: the seconds from the request's line read to this line, the run and the worker's own
// work around it: its plan, its document written)
// then waits for the next request. End of input: the worker exits. Before its first request the
// worker starts its CUDA context and says so with one line,
//   {"event":"worker_ready"}
// which the pool's timeline reports (how long each worker's CUDA start took).
#include <optional>
#include <string>

#include "kwb/shard.h"

namespace kwb {

struct ShardRequest {
  ShardSpec shard;
  std::string json;  // where the shard's document goes
};

std::string shardRequestLine(const ShardRequest& r);
// Throws InputError naming the line's number and what is wrong.
ShardRequest parseShardRequest(const std::string& line, int lineNumber);

struct ShardEnd {
  int shard = 0;
  int exitCode = 0;
  // The worker takes no more shards after this one and ends (its CUDA context was lost): the
  // pool sends it nothing more and starts a new worker for what is left. On the line only when
  // set ("workerEnds": true).
  bool workerEnds = false;
  // Seconds the worker spent on the shard, from its request read to this line; -1: not said.
  double workerS = -1.0;
};
std::string shardEndLine(const ShardEnd& e);
// The marker, or nothing for any other line (an event, a line of text).
std::optional<ShardEnd> parseShardEnd(const std::string& line);

// The worker's line once its CUDA context is up, and whether a line is that line.
std::string workerReadyLine();
bool isWorkerReadyLine(const std::string& line);

}  // namespace kwb
