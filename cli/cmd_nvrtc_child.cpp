// SPDX-License-Identifier: Apache-2.0
// A user's source compiled in a child process (docs/RELIABILITY.md, "Bounded user sources"): kwb
// starts itself as `kwb nvrtc-child` (hidden), writes it one JSON line ({"name", "text",
// "options", "headers", "nameExpressions"}) and reads one back ({"ok", "ptx", "log"}) within
// --compile-timeout seconds; the child caps its own address space at --compile-memory MiB more than
// it has at start. A macro or template bomb then ends as exit 2 naming the bound, not as a hung or
// swapping engine.
#include <sys/resource.h>
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "kwb/child_process.h"
#include "kwb/cuda/user_kernel.h"
#include "kwb/exit_codes.h"
#include "kwb/format.h"
#include "user_source.h"

namespace kwb::cli {
namespace {
using nlohmann::json;

// This process's address space now, in bytes (0 where /proc cannot say).
rlim_t addressSpaceNow() {
  std::ifstream statm("/proc/self/statm");
  unsigned long long pages = 0;
  statm >> pages;
  return rlim_t(pages) * rlim_t(::sysconf(_SC_PAGESIZE));
}

int runChild(std::size_t memoryMib, double cpuSeconds) {
  const rlimit as{addressSpaceNow() + rlim_t(memoryMib) * (rlim_t(1) << 20), RLIM_INFINITY};
  const auto cpu = rlim_t(cpuSeconds) + 1;
  const rlimit cpuLimit{cpu, cpu + 1};
  ::setrlimit(RLIMIT_AS, &as);
  ::setrlimit(RLIMIT_CPU, &cpuLimit);
  std::string line;
  if (!std::getline(std::cin, line)) return kExitBadInput;
  const json req = json::parse(line);
  const cuda::NvrtcOutput out =
      cuda::nvrtcCompile({req.at("name").get<std::string>(), req.at("text").get<std::string>(),
                          req.at("options").get<std::vector<std::string>>(),
                          req.at("headers").get<std::vector<std::pair<std::string, std::string>>>(),
                          req.at("nameExpressions").get<std::vector<std::string>>()});
  std::cout << json{{"ok", out.ok}, {"ptx", out.ptx}, {"log", out.log}}.dump() << std::endl;
  return kExitOk;
}

}  // namespace

void addNvrtcChildCommand(CLI::App& app, int& exitCode) {
  auto* sub = app.add_subcommand("nvrtc-child", "");  // hidden: an empty description
  sub->group("");
  auto memoryMib = std::make_shared<std::size_t>(8192);
  auto cpuSeconds = std::make_shared<double>(600);
  sub->add_option("--memory-mib", *memoryMib);
  sub->add_option("--cpu-seconds", *cpuSeconds);
  sub->callback(
      [&exitCode, memoryMib, cpuSeconds] { exitCode = runChild(*memoryMib, *cpuSeconds); });
}

cuda::NvrtcRunner isolatedNvrtc(const SourceOpts& o) {
  return [o](const cuda::NvrtcRequest& q) {
    const std::string& name = q.name;
    ChildProcess child({"/proc/self/exe", "nvrtc-child", "--memory-mib",
                        std::to_string(o.compileMemoryMib), "--cpu-seconds",
                        std::to_string(o.compileTimeoutS)});
    child.writeLine(json{{"name", q.name},
                         {"text", q.text},
                         {"options", q.options},
                         {"headers", q.headers},
                         {"nameExpressions", q.nameExpressions}}
                        .dump());
    std::string line;
    try {
      line = child.readLine(o.compileTimeoutS, std::size_t(512) << 20);
    } catch (const InputError&) {
      if (child.endState() == "running")
        throw InputError("--source " + name + ": NVRTC did not finish within " +
                         fixed(o.compileTimeoutS, 0) + " s (raise it with --compile-timeout)");
      throw InputError("--source " + name + ": NVRTC ended (" + child.endState() +
                       ") without a result: the compile needs more than " +
                       std::to_string(o.compileMemoryMib) +
                       " MiB or more CPU time (raise them with --compile-memory, "
                       "--compile-timeout)");
    }
    const json r = json::parse(line);
    return cuda::NvrtcOutput{
        r.at("ok").get<bool>(), r.at("ptx").get<std::string>(), r.at("log").get<std::string>(), {}};
  };
}

}  // namespace kwb::cli
