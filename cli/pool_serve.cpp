// SPDX-License-Identifier: Apache-2.0
#include "pool_serve.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "interrupt.h"
#include "kwb/error.h"
#include "kwb/pool_protocol.h"

namespace kwb::cli {

int serveShards(const ShardRunner& runShard, const std::function<bool()>& engineUsable,
                const std::function<void()>& startEngine) {
  installInterruptHandlers();  // a SIGTERM between two shards ends the worker as within one
  if (startEngine) {
    try {
      startEngine();
    } catch (const std::exception&) {  // no device, say: the first shard reports it, exit 3
    }
  }
  std::cout << workerReadyLine() << '\n' << std::flush;
  std::string line;
  int lineNumber = 0;
  while (!interruptRequested() && std::getline(std::cin, line)) {
    ++lineNumber;
    if (line.empty()) continue;
    const auto since = std::chrono::steady_clock::now();
    const ShardRequest r = parseShardRequest(line, lineNumber);
    const int code = runShard(toString(r.shard), r.json);
    const bool answered = code == kExitOk || code == kExitCaseFailed;
    const bool ends = answered && !engineUsable();
    if (ends)
      std::cerr << "kwb: this pool worker's CUDA context was lost in shard " << toString(r.shard)
                << " (its cases after the fault ran in a fresh engine): the worker ends, and the "
                   "pool starts a new one for the shards left\n"
                << std::flush;
    const double workerS =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
    std::cout << shardEndLine({r.shard.index, code, ends, workerS}) << '\n' << std::flush;
    if (!answered) return code;
    if (ends) return kExitOk;
  }
  return interruptRequested() ? kExitInterrupted : kExitOk;
}

void endPoolWorker() {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  std::_Exit(kExitOk);
}

}  // namespace kwb::cli
