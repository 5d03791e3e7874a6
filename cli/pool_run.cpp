// SPDX-License-Identifier: Apache-2.0
#include "pool_run.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "interrupt.h"
#include "kwb/cuda/device.h"
#include "kwb/cuda/shard_plan.h"
#include "kwb/error.h"
#include "kwb/events.h"
#include "kwb/exporters.h"
#include "kwb/host_pool.h"
#include "kwb/merge.h"
#include "kwb/output_files.h"
#include "output.h"
#include "run_options.h"

namespace fs = std::filesystem;

namespace kwb::cli {
namespace {

std::vector<std::string>& commandLine() {
  static std::vector<std::string> args;
  return args;
}

// The host's GPUs; KWB_POOL_FAKE_DEVICES stands in for them in tests without a GPU.
int hostDeviceCount() {
  if (const char* fake = std::getenv("KWB_POOL_FAKE_DEVICES")) return std::atoi(fake);
  std::string reason;
  return cuda::deviceCount(&reason);
}

}  // namespace

std::vector<std::string> childCommandLine(const char* programEnv,
                                          const std::vector<std::string>& withValue) {
  const char* fake = programEnv ? std::getenv(programEnv) : nullptr;
  std::vector<std::string> argv{fake ? std::string(fake)
                                     : fs::read_symlink("/proc/self/exe").string()};
  const auto& args = commandLine();
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--stream") continue;
    bool dropped = false;
    for (const std::string& opt : withValue) {
      if (a == opt) {
        ++i;  // and its value
        dropped = true;
      }
      if (a.rfind(opt + "=", 0) == 0) dropped = true;
    }
    if (!dropped) argv.push_back(a);
  }
  return argv;
}

namespace {

// The worker: this kwb, or KWB_POOL_WORKER (a test's stand-in), with this command line less the
// options the pool sets per worker (devices, outputs, stream, device).
std::vector<std::string> workerArgv() {
  return childCommandLine("KWB_POOL_WORKER",
                          {"--devices", "--pool-shards", "--json", "--csv", "--md", "--device"});
}

// A worker's event line with its GPU and shard added as the first fields (docs/PROTOCOL.md).
std::string tagged(int gpu, int shard, const std::string& line) {
  return "{\"gpu\":" + std::to_string(gpu) + ",\"shard\":" + std::to_string(shard) + "," +
         line.substr(1);
}

// A temporary folder for the shards' files.
fs::path makeWorkDir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/kwb-pool-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr)
    throw InputError("cannot create a folder for the pool's shards under '" +
                     fs::path(pattern).parent_path().string() + "'");
  return pattern;
}

// Each worker's lines: forwarded tagged with --stream (its `done` dropped: the pool sends one
// for the whole run), else a progress line per case or the worker's own line, GPU first.
class Relay {
 public:
  Relay(const PoolRun& how, std::size_t planSize) : m_how(how), m_planSize(planSize) {}
  void line(int gpu, int shard, const std::string& text) {
    if (!m_how.workerStreams) {
      std::cout << "[gpu " << gpu << "] " << text << '\n' << std::flush;
      return;
    }
    StreamEvent e;
    try {
      e = parseEventLine(text, "the worker of shard " + std::to_string(shard), ++m_lines);
    } catch (const InputError& ex) {
      std::cerr << "[gpu " << gpu << "] " << ex.what() << '\n';
      return;
    }
    const bool finished = e.type == EventType::kCaseFinished || e.type == EventType::kCaseFailed;
    if (finished) ++m_done;
    if (m_how.stream) {
      if (e.type != EventType::kDone) std::cout << tagged(gpu, shard, text) << '\n' << std::flush;
      return;
    }
    if (finished && e.result)
      std::cerr << "[gpu " << gpu << "] " << progressLine(*e.result, m_done, m_planSize);
  }

 private:
  const PoolRun& m_how;
  std::size_t m_planSize;
  int m_lines = 0;
  int m_done = 0;
};

void emitDone(const RunDocument& doc, int exitCode) {
  StreamEvent done(EventType::kDone);
  done.exitCode = exitCode;
  done.knownAnswer = doc.knownAnswer;
  done.progression = doc.progression;
  done.wallSeconds = doc.wallSeconds;
  std::cout << toJsonLine(done) << '\n' << std::flush;
}

}  // namespace

void rememberCommandLine(int argc, char** argv) { commandLine().assign(argv, argv + argc); }

CLI::Option* addPoolOptions(CLI::App& sub, PoolOpts& o) {
  auto* devices =
      sub.add_option("--devices", o.devices,
                     "Run on several GPUs of this host: 'all' or indices such as 0,2,3; one engine "
                     "per GPU, shards from a queue, merged at the end (docs/SCALE_OUT.md)")
          ->check(kNotEmpty);
  sub.add_option("--pool-shards", o.shards,
                 "With --devices: cut the plan into S shards (default: 4 per GPU, at most one "
                 "per size)")
      ->check(CLI::Range(1, kMaxShards))
      ->needs(devices);
  return devices;
}

int runOnPool(const PoolOpts& o, const PoolRun& how, const std::vector<cuda::PlanCase>& plan,
              const cuda::RunConfig& cfg) {
  const std::vector<int> gpus = parseDevices(o.devices, hostDeviceCount());
  const int groups = std::max(1, cuda::sizeGroupCount(plan, cfg));
  const int count = o.shards > 0 ? o.shards : std::min(groups, 4 * int(gpus.size()));
  HostPoolConfig pool;
  pool.workerArgv = workerArgv();
  pool.gpus = gpus;
  pool.shardCosts = cuda::shardCosts(plan, cfg, count);
  pool.workerStreams = how.workerStreams;
  const fs::path work = makeWorkDir();
  pool.workDir = work;
  installInterruptHandlers();
  pool.stopRequested = [] { return interruptRequested(); };
  Relay relay(how, plan.size());
  pool.onLine = [&](int gpu, int shard, const std::string& l) { relay.line(gpu, shard, l); };
  pool.onNote = [](const std::string& n) { std::cerr << "kwb: " << n << '\n'; };
  const auto started = std::chrono::steady_clock::now();
  std::cerr << "kwb: " << plan.size() << " case(s) in " << count << " shard(s) on " << gpus.size()
            << " GPU(s)\n";
  const HostPoolResult result = runHostPool(pool);
  if (result.inputs.empty()) {
    fs::remove_all(work);
    std::cerr << "kwb: interrupted before any shard finished; nothing written\n";
    return kExitInterrupted;
  }
  const MergeOutcome m = mergeShards(result.inputs, count);
  fs::remove_all(work);
  for (const std::string& n : m.notes) std::cerr << "kwb: " << n << '\n';
  RunDocument doc = m.document;
  // The pool's own wall time (the merge keeps the longest shard's): what --devices saves.
  doc.wallSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  writeOutputs({{how.json, [&] { return toJsonText(doc); }, "--json"},
                {how.csv, [&] { return toCsv(doc); }, "--csv"},
                {how.md, [&] { return toMarkdown(doc); }, "--md"}});
  const int code = result.interrupted ? kExitInterrupted
                   : !m.complete      ? kExitCaseFailed
                   : allPassed(doc)   ? kExitOk
                                      : kExitCaseFailed;
  if (how.stream) emitDone(doc, code);
  if (!how.stream && how.table) std::cout << how.table(doc);
  std::cerr << "wall time " << fixed(doc.wallSeconds, 1) << " s on " << gpus.size() << " GPU(s)\n";
  return code;
}

}  // namespace kwb::cli
