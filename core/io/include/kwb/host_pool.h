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

// One shard's time on one GPU, in seconds since the pool started: from the request sent (the
// worker's start, for its first shard) to its end line or the worker's exit.
struct ShardSpan {
  int shard = 0;
  int gpu = 0;
  double startS = 0.0;
  double endS = 0.0;
  bool ok = false;     // its document was taken
  double runS = -1.0;  // its run's own seconds (the document's wall time); -1: no document
  // The worker's seconds on it (its end line's workerS: the run, the plan and the document);
  // the rest of the span is the pool's (the request and the end line in the pipes, the pool's
  // own work before it read the end line). -1: not said.
  double workerS = -1.0;
};

// A worker that ended after its last shard: when the pool closed its input (nothing left for it)
// and when its process was gone, in pool seconds. The pool waits for it; what lies between is the
// worker's exit (its CUDA context released by the driver).
struct WorkerExit {
  int gpu = 0;
  double closedS = 0.0;
  double endS = 0.0;
};

// A worker's start, in pool seconds: when it was started and when it said its CUDA context was
// up (its worker_ready line); readyS < 0: it never said so. Every GPU's worker starts at once.
struct WorkerStart {
  int gpu = 0;
  double startS = 0.0;
  double readyS = -1.0;
};

struct HostPoolResult {
  std::vector<ShardInput> inputs;   // each part's document or failure record; none if never run
  std::vector<ShardSpan> spans;     // every shard run, in the order they ended
  std::vector<WorkerExit> exits;    // every worker that ended with its input closed
  std::vector<WorkerStart> starts;  // every worker started, in the order they were
  bool interrupted = false;         // stopped by stopRequested
};

// Where the pool's wall time went, a line per GPU in the order of `gpus`: the shards it ran, when,
// and the seconds the plan's cost model expected of each (`costs`, of shards 1..N), how long
// it was busy of the pool's `wallS` and how much of that its shards' runs took (their documents'
// wall times: the rest is the worker's start, each shard's request, plan and document), how long
// its worker took to end once it had nothing left (`exits`; the longest, where one GPU had several
// workers), and when its first worker started and how long its CUDA start took (`starts`)
// (docs/SCALE_OUT.md), e.g. "GPU 1: 2 shards, busy 3.40 of 4.20 s, 2.95 s in their runs (shard 3
// 0.00-2.10 est 1.90, shard 6 2.10-3.40 est 1.20), worker's exit 0.08 s, started at 0.31 s, CUDA
// up 0.29 s later".
std::vector<std::string> poolTimeline(const std::vector<ShardSpan>& spans,
                                      const std::vector<int>& gpus, double wallS,
                                      const std::vector<double>& costs,
                                      const std::vector<WorkerExit>& exits = {},
                                      const std::vector<WorkerStart>& starts = {});

// Runs the pool to its end (every shard written, failed twice, or the pool stopped). Throws
// InputError when a worker cannot be started at all.
HostPoolResult runHostPool(const HostPoolConfig& cfg);

}  // namespace kwb
