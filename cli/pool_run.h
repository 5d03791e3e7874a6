// SPDX-License-Identifier: Apache-2.0
#pragma once
// `kwb run|tune --devices all|0,2,3` (docs/SCALE_OUT.md, "Every GPU of a host"): the plan cut into
// shards that a host pool (kwb/host_pool.h) runs one child engine per GPU, merged at the end into
// the command's usual outputs. The CLI side: options, the child's command line, printing.
#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

#include "kwb/cuda/device.h"
#include "kwb/cuda/runner.h"
#include "kwb/error.h"
#include "kwb/results.h"
#include "pool_serve.h"

namespace kwb::cli {

// Keeps this process's arguments: the pool's workers run the same command line.
void rememberCommandLine(int argc, char** argv);
// A child kwb's command line: this program (or the one the environment variable `programEnv`
// names, a test's stand-in; may be null) with this process's arguments less --stream and the
// options `withValue` (each with its value).
std::vector<std::string> childCommandLine(const char* programEnv,
                                          const std::vector<std::string>& withValue);

struct PoolOpts {
  std::string devices;    // --devices: empty when not given
  int shards = 0;         // --pool-shards: 0 for the default
  bool serve = false;     // --pool-serve: a pool's long-lived worker
  int gpus = 0;           // --pool-gpus: a worker's pool size, which cut its shards (0: --shard's)
  std::string costHints;  // --cost-hints: an earlier results document to cut shards by
};
// Adds --devices, --pool-shards and the hidden --pool-serve and --pool-gpus; returns --devices
// (for the options it excludes).
CLI::Option* addPoolOptions(CLI::App& sub, PoolOpts& o);

struct PoolRun {
  bool stream = false;        // run --stream: forward the workers' events, tagged with their GPU
  bool workerStreams = true;  // the worker takes --stream (run); tune's prints lines instead
  std::string json, csv, md;
  // The finished document's human summary (stdout, without --stream).
  std::function<std::string(const RunDocument&)> table;
};

// `command` on `o` as given, or, in a pool's worker (o.pool.serve), on each shard the pool
// sends: `o` with that part (`shard`) and that document (`json`). kwb run and kwb tune alike.
// The worker first starts its CUDA context on its one visible GPU (the pool pins it, --device 0).
template <class Opts>
int runOrServeShards(const Opts& o, int (*command)(const Opts&)) {
  if (!o.pool.serve) return command(o);
  const int code = serveShards(
      [&o, command](const std::string& shard, const std::string& json) {
        Opts part = o;
        part.shard = shard;
        part.json = json;
        return command(part);
      },
      [] { return cuda::contextUsable(); }, [] { cuda::startContext(0); });
  if (code == kExitOk) endPoolWorker();
  return code;
}

// --cost-hints DOC: each case of DOC with samples gives its measured seconds to cfg (the shard
// cut balances by them, kwb/shard_cost.h measuredCaseSeconds). Throws InputError naming the
// option when DOC cannot be read.
void applyCostHints(const PoolOpts& o, cuda::RunConfig& cfg);

// Runs `plan` on the pool and writes the merged outputs; returns the exit status kwb run would.
// Refuses (InputError, exit 2) a --devices naming a GPU the host lacks.
int runOnPool(const PoolOpts& o, const PoolRun& how, const std::vector<cuda::PlanCase>& plan,
              const cuda::RunConfig& cfg);

}  // namespace kwb::cli
