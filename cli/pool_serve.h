// SPDX-License-Identifier: Apache-2.0
#pragma once
// A host pool's worker (`kwb run|tune --pool-serve`, docs/SCALE_OUT.md): the loop that takes the
// pool's shard requests one after another in this process, kept apart from the commands so that
// its tests need no GPU.
#include <functional>
#include <string>

namespace kwb::cli {

using ShardRunner = std::function<int(const std::string& shard, const std::string& json)>;

// Reads shard requests on standard input (kwb/pool_protocol.h), runs each with
// `runShard(shard "I/N", json path)` in this process (its CUDA context and libraries loaded
// once) and ends each with its shard_end line on standard output. Returns kExitOk at the end of
// input, or after a shard that ended 0 or 1 when `engineUsable` says this process cannot go on
// (its CUDA context was lost: every later call would fail), having said so on standard error and
// in that shard's end line (`workerEnds`), so that the pool sends it nothing more and starts a
// fresh worker for what is left. Returns 130 after an interrupt, or the
// exit status of a shard that ended otherwise than 0 or 1. A bad request line throws InputError
// (exit 2). First, `startEngine` (when given) starts what every shard shares (the CUDA context),
// and the worker_ready line says it is up (the pool's timeline times each worker's start).
int serveShards(const ShardRunner& runShard, const std::function<bool()>& engineUsable,
                const std::function<void()>& startEngine = {});

// Ends a worker whose shards are all answered: output flushed, then std::_Exit(0), without the
// CUDA runtime's teardown at exit (each module unregistered, the context destroyed), which the
// pool would wait for; the driver releases the context when the process goes. (No leak report
// either, in a sanitizer build: the worker's engine state is kept for the process's life.)
[[noreturn]] void endPoolWorker();

}  // namespace kwb::cli
