// SPDX-License-Identifier: Apache-2.0
#include "pool_run.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>

#include "interrupt.h"
#include "kwb/cuda/device.h"
#include "kwb/cuda/family_driver.h"
#include "kwb/cuda/measure.h"
#include "kwb/cuda/shard_plan.h"
#include "kwb/error.h"
#include "kwb/events.h"
#include "kwb/exporters.h"
#include "kwb/host_pool.h"
#include "kwb/merge.h"
#include "kwb/output_files.h"
#include "kwb/results.h"
#include "kwb/shard_cost.h"
#include "kwb/visible_devices.h"
#include "output.h"
#include "run_options.h"

namespace fs = std::filesystem;

namespace kwb::cli {
namespace {

std::vector<std::string>& commandLine() {
  static std::vector<std::string> args;
  return args;
}

// The host's GPUs; KWB_POOL_FAKE_DEVICES stands in for them in tests without a GPU. Counted
// without starting CUDA here where the driver lists them (kwb/visible_devices.h): on a host of
// four H200s starting it cost the pool about 1 s before any worker started.
int hostDeviceCount() {
  if (const char* fake = std::getenv("KWB_POOL_FAKE_DEVICES")) return std::atoi(fake);
  if (const int seen = visibleGpuCount(std::getenv("CUDA_VISIBLE_DEVICES")); seen >= 0) return seen;
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
    if (a == "--stream" || a == "--pool-serve") continue;
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
  return childCommandLine("KWB_POOL_WORKER", {"--devices", "--pool-shards", "--json", "--csv",
                                              "--md", "--device", "--shard"});
}

// A worker's event line with its GPU and shard added as the first fields (docs/PROTOCOL.md).
std::string tagged(int gpu, int shard, const std::string& line) {
  return line.substr(0, 1) + "\"gpu\":" + std::to_string(gpu) +
         ",\"shard\":" + std::to_string(shard) + "," +
         line.substr(1);  // after the line's opening brace
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

// Each case's owning shard, by kernel and size: a shard that holds a copy of a size's
// references (a size cut into pieces, docs/SCALE_OUT.md) does not own them.
std::map<std::string, int> ownerOf(const std::vector<cuda::PlanCase>& plan,
                                   const cuda::RunConfig& cfg, int count, int poolGpus) {
  std::map<std::string, int> out;
  for (const PlanEntry& e : cuda::selectShard(plan, cfg, {1, count}, poolGpus).info.plan)
    out[e.kernel + " " + sizeKey(e.size)] = e.shard;
  return out;
}

// Each worker's lines: forwarded tagged with --stream (its `done` dropped: the pool sends one
// for the whole run, and the case events of a reference's copy: every planned case is reported
// once, by its owner), else a progress line per case or the worker's own line, GPU first.
class Relay {
 public:
  Relay(const PoolRun& how, std::size_t planSize, std::map<std::string, int> owner)
      : m_how(how), m_planSize(planSize), m_owner(std::move(owner)) {}
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
    if (finished && e.result && !owns(shard, e.result->kernel, e.result->size)) return;
    if (e.type == EventType::kCaseStarted && !owns(shard, e.planned.kernel, e.planned.size)) return;
    if (finished) ++m_done;
    if (m_how.stream) {
      if (e.type != EventType::kDone) std::cout << tagged(gpu, shard, text) << '\n' << std::flush;
      return;
    }
    if (finished && e.result)
      std::cerr << "[gpu " << gpu << "] " << progressLine(*e.result, m_done, m_planSize);
  }

 private:
  bool owns(int shard, const std::string& kernel, const CaseSize& size) const {
    const auto it = m_owner.find(kernel + " " + sizeKey(size));
    return it == m_owner.end() || it->second == shard;
  }

  const PoolRun& m_how;
  std::size_t m_planSize;
  std::map<std::string, int> m_owner;
  int m_lines = 0;
  int m_done = 0;
};

// The whole run's plan, untagged, before any worker's events: a reader learns every case the run
// will report (each worker's own plan lists only its shard's).
void emitPlan(const std::vector<cuda::PlanCase>& plan, const cuda::RunConfig& cfg) {
  StreamEvent e(EventType::kPlan);
  e.settings = cuda::documentSettings(cfg);  // as each worker's document records them
  for (const cuda::PlanCase& p : plan) e.plan.push_back(cuda::plannedCase(p));
  for (const cuda::PlanCase& p : plan) (void)cuda::findFamilyDriver(p.size.family);  // GEMM's
  e.kernels = cuda::planKernels(plan);
  e.families = cuda::planFamilies(plan);
  std::cout << toJsonLine(e) << '\n' << std::flush;
}

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
                 "With --devices: cut the plan into S shards as --shard I/S does (default: a shard "
                 "per size, a size cut into pieces only where that evens out the GPUs)")
      ->check(CLI::Range(1, kMaxShards))
      ->needs(devices);
  sub.add_option("--cost-hints", o.costHints,
                 "An earlier results document of this plan (a merged one too): --shard and "
                 "--devices balance the parts by each case's measured seconds where it has them, "
                 "by the model's estimate elsewhere (docs/SCALE_OUT.md, \"Cost hints\")")
      ->check(kNotEmpty);
  sub.add_flag("--pool-serve", o.serve, "")->group("")->excludes(devices);  // the pool's worker
  // Hidden: the pool's GPU count, for a worker and for the fresh engine a worker starts after a
  // lost context (which has --shard instead of --pool-serve); applyShard refuses it alone.
  sub.add_option("--pool-gpus", o.gpus, "")->group("")->check(CLI::Range(1, kMaxShards));
  return devices;
}

void applyCostHints(const PoolOpts& o, cuda::RunConfig& cfg) {
  if (o.costHints.empty()) return;
  RunDocument doc;
  try {
    doc = readDocument(o.costHints);
  } catch (const InputError& e) {
    throw InputError("--cost-hints '" + o.costHints + "': " + e.what());
  }
  const RunSettings settings = cuda::settingsOf(cfg);
  for (const CaseResult& c : doc.cases)
    if (const auto seconds = measuredCaseSeconds(c, settings))
      cfg.measuredCaseSeconds[caseCostKey(c)] = *seconds;
}

int runOnPool(const PoolOpts& o, const PoolRun& how, const std::vector<cuda::PlanCase>& plan,
              const cuda::RunConfig& cfg) {
  const std::vector<int> gpus = parseDevices(o.devices, hostDeviceCount());
  const auto started = std::chrono::steady_clock::now();
  const auto since = [started] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  };
  // By default the plan is cut for this many GPUs (shard_plan.h): a shard per size, a size cut
  // into pieces, each with its references, only where that evens out the GPUs' ends; the workers
  // are told the pool's size, to cut the same shards. --pool-shards cuts N parts as --shard does.
  const int poolGpus = o.shards > 0 ? 0 : int(gpus.size());
  const int count = o.shards > 0 ? o.shards : cuda::poolShardCount(plan, cfg, poolGpus);
  HostPoolConfig pool;
  pool.workerArgv = workerArgv();
  if (poolGpus > 0)
    pool.workerArgv.insert(pool.workerArgv.end(), {"--pool-gpus", std::to_string(poolGpus)});
  pool.gpus = gpus;
  pool.shardCosts = cuda::shardCosts(plan, cfg, count, poolGpus);
  pool.workerStreams = how.workerStreams;
  const fs::path work = makeWorkDir();
  pool.workDir = work;
  installInterruptHandlers();
  pool.stopRequested = [] { return interruptRequested(); };
  Relay relay(how, plan.size(), ownerOf(plan, cfg, count, poolGpus));
  pool.onLine = [&](int gpu, int shard, const std::string& l) { relay.line(gpu, shard, l); };
  pool.onNote = [](const std::string& n) { std::cerr << "kwb: " << n << '\n'; };
  std::cerr << "kwb: " << plan.size() << " case(s) in " << count << " shard(s) on " << gpus.size()
            << " GPU(s)\n";
  if (how.stream) emitPlan(plan, cfg);
  const double cutS = since();
  const HostPoolResult result = runHostPool(pool);
  const double poolS = since();
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
  doc.wallSeconds = since();
  writeOutputs({{how.json, [&] { return toJsonText(doc); }, "--json"},
                {how.csv, [&] { return toCsv(doc); }, "--csv"},
                {how.md, [&] { return toMarkdown(doc); }, "--md"}});
  const int code = result.interrupted ? kExitInterrupted
                   : !m.complete      ? kExitCaseFailed
                   : allPassed(doc)   ? kExitOk
                                      : kExitCaseFailed;
  if (how.stream) emitDone(doc, code);
  if (!how.stream && how.table) std::cout << how.table(doc);
  std::cerr << "wall time " << fixed(since(), 1) << " s on " << gpus.size()
            << " GPU(s): cutting the plan " << fixed(cutS, 2) << " s, the workers and their shards "
            << fixed(poolS - cutS, 2) << " s, merging and writing " << fixed(since() - poolS, 2)
            << " s\n";
  for (const std::string& l :
       poolTimeline(result.spans, gpus, poolS, pool.shardCosts, result.exits, result.starts))
    std::cerr << "kwb: " << l << '\n';
  return code;
}

}  // namespace kwb::cli
