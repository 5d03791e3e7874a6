// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <optional>

#include "commands.h"
#include "case_timeout.h"
#include "fresh_engine.h"
#include "interrupt.h"
#include "kwb/case_budget.h"
#include "kwb/cuda/runner.h"
#include "kwb/cuda/tuned_plan.h"
#include "kwb/error.h"
#include "kwb/exporters.h"
#include "kwb/output_files.h"
#include "kwb/output_watch.h"
#include "kwb/profiler_env.h"
#include "kwb/progression.h"
#include "kwb/results.h"
#include "kwb/run_info.h"
#include "output.h"
#include "pool_run.h"
#include "energy_output.h"
#include "run_options.h"
#include "tuning_variants.h"
#include "user_source.h"

namespace kwb::cli {
namespace {

struct RunOpts {
  cuda::Selection sel;
  int samples = 0;
  int warmups = 2;
  bool cold = false;
  double maxNoise = 0.01;
  double minTime = 0.08;
  int rounds = 20;
  bool timerGiven = false;
  double maxTime = 0.3;
  bool maxTimeGiven = false;  // the user's --max-time caps the minimum sample count too
  double maxCaseSeconds = kDefaultMaxCaseSeconds;
  double caseTimeout = 0;  // seconds one case may run before the engine ends; 0: no limit
  int freshInputs = 1;     // input sets the timed launches rotate through
  double energy = 0;       // --energy SECONDS: each case's energy window; 0: none
  bool stream = false;
  std::string timer;
  bool noCuptiCheck = false;
  std::string json, csv, md;
  std::string shard;   // --shard I/N: one part of the plan
  std::string tuning;  // a `kwb tune` document: its kernel runs each shape's chosen configuration
  SourceOpts user;     // --source: a user kernel (docs/BRING_YOUR_OWN.md)
  PoolOpts pool;       // --devices: every GPU of the host (docs/SCALE_OUT.md)
  FreshEngineOpts fresh;  // --max-restarts: the cases left after a lost context (fresh_engine.h)
};

std::string pct(const std::optional<double>& v) { return v ? fixed(*v, 1) + "%" : ""; }

std::string vsCupti(const CaseResult& c) {
  return c.timerVsCuptiPct
             ? (*c.timerVsCuptiPct >= 0 ? "+" : "") + fixed(*c.timerVsCuptiPct, 1) + "%"
             : "";
}

std::string figure(const CaseResult& c, const char* key, bool percent) {
  const auto it = c.figures.find(key);
  if (it == c.figures.end()) return "";
  return percent ? fixed(it->second, 1) + "%" : fixed(it->second, 1);
}

std::string caseStatus(const RunDocument& doc, const CaseResult& c) {
  // Faster than the device allows (kwb/plausibility.h): a failure named as what it is.
  std::string status(c.suspicious.empty() ? toString(c.status) : "SUSPICIOUS");
  if (c.fallback) status += " (ran " + c.ranKernel + ")";
  if (c.timed() && c.timer != doc.settings.timer)
    status += " [timer " + std::string(toString(c.timer)) + "]";
  if (c.throttledSamples > 0)
    status += " [" + std::to_string(c.throttledSamples) + " throttled samples dropped]";
  if (!isGood(c.status) && !c.message.empty()) status += ": " + c.message.substr(0, 120);
  return status;
}

// The memory-bound families: GB/s, % of the family's CUB reference, of the device's peak
// bandwidth and of the copy measured at run start.
std::string vectorTable(const RunDocument& doc) {
  std::vector<std::vector<std::string>> rows{{"kernel", "size", "median ms", "min ms", "max ms",
                                              "CV", "samples", "GB/s", "% CUB", "% peak", "% copy",
                                              "vs CUPTI", "status"}};
  for (const auto& c : doc.cases) {
    if (!isOneDimensional(c)) continue;
    if (c.timed())
      rows.push_back({c.kernel, sizeLabel(c), fixed(c.summary.median, 4), fixed(c.summary.min, 4),
                      fixed(c.summary.max, 4), fixed(100 * c.summary.cv, 1) + "%",
                      std::to_string(c.samplesMs.size()), figure(c, "gbps", false),
                      figure(c, "pct_of_reference", true), figure(c, "pct_of_peak", true),
                      figure(c, "pct_of_roof", true), vsCupti(c), caseStatus(doc, c)});
    else
      rows.push_back(
          {c.kernel, sizeLabel(c), "", "", "", "", "", "", "", "", "", "", caseStatus(doc, c)});
  }
  appendEnergyColumns(rows, doc, isOneDimensional);
  std::string head;
  if (doc.device && doc.device->copyBandwidthGBs > 0)
    head = "device-to-device copy: " + fixed(doc.device->copyBandwidthGBs, 1) + " GB/s; peak " +
           fixed(doc.device->peakBandwidthGBs, 1) + " GB/s\n";
  return head + formatTable(rows);
}

std::string runTable(const RunDocument& doc) {
  std::vector<std::vector<std::string>> rows{{"kernel", "shape", "median ms", "min ms", "max ms",
                                              "CV", "samples", "GFLOP/s", "% cuBLAS",
                                              "% FP16/BF16 ref", "vs CUPTI", "status"}};
  const bool anyVector = std::any_of(doc.cases.begin(), doc.cases.end(), isOneDimensional);
  const bool anyGemm = !std::all_of(doc.cases.begin(), doc.cases.end(), isOneDimensional);
  for (const auto& c : doc.cases) {
    if (isOneDimensional(c)) continue;
    const std::string status = caseStatus(doc, c);
    if (c.timed())
      rows.push_back({c.kernel, sizeLabel(c), fixed(c.summary.median, 4), fixed(c.summary.min, 4),
                      fixed(c.summary.max, 4), fixed(100 * c.summary.cv, 1) + "%",
                      std::to_string(c.samplesMs.size()), fixed(c.gflops, 1),
                      pct(c.pctOfFp32Reference), pct(c.pctOf16BitReference()), vsCupti(c), status});
    else
      rows.push_back({c.kernel, sizeLabel(c), "", "", "", "", "", "", "", "", "", status});
  }
  appendEnergyColumns(rows, doc, [](const CaseResult& c) { return !isOneDimensional(c); });
  std::string head = "times: " + std::string(timerLabel(doc.settings.timer));
  if (doc.launchOverhead)
    head += "; empty kernel " + fixed(doc.launchOverhead->isolatedUs, 2) + " us isolated, " +
            fixed(doc.launchOverhead->backToBackUs, 2) + " us back-to-back (not subtracted)";
  return head + "\n" + (anyGemm || !anyVector ? formatTable(rows) : "") +
         (anyVector ? vectorTable(doc) : "") + energyNotes(doc);
}

std::string progressionText(const ProgressionCheck& p) {
  if (!p.checked) return "";
  if (p.violations.empty()) return "progression: GFLOP/s never drops from one stage to the next\n";
  std::string s = "progression: " + violationCount(p) + "\n";
  for (const auto& v : p.violations) s += "  " + violationText(v) + "\n";
  return s;
}

// The run's configuration from the options: measurement, bounds and the outside profiler.
cuda::RunConfig runConfig(const RunOpts& o, const std::string& suiteName) {
  cuda::RunConfig cfg = baseRunConfig(suiteName, o.sel.seed, o.sel.device);
  cfg.measure.warmups = o.warmups;
  cfg.measure.coldL2 = o.cold;
  cfg.measure.rule.maxNoise = o.maxNoise;
  cfg.measure.rule.minTimeS = o.minTime;
  cfg.measure.rule.maxTimeS = o.maxTime;
  cfg.measure.rule.timeCapsMinSamples = o.maxTimeGiven;
  cfg.maxCaseSeconds = o.maxCaseSeconds;
  cfg.freshInputs = o.freshInputs;
  cfg.measure.energySeconds = o.energy;
  cfg.measure.timer = parseTimerMode(o.timer);
  cfg.measure.cuptiCheck = !o.noCuptiCheck;
  cfg.measure.rounds = o.rounds;
  cfg.isolateUserKernels = o.caseTimeout > 0;
  cfg.measure.seed = o.sel.seed;
  cfg.reuseDeviceFacts = o.pool.serve;  // a pool's worker measures the device once
  if (o.samples > 0) {
    // A fixed count: no noise target, no time cap.
    cfg.measure.rule.minSamples = cfg.measure.rule.maxSamples = o.samples;
    cfg.measure.rule.minTimeS = 0;
    cfg.measure.rule.maxTimeS = 1e9;
    cfg.measure.rule.maxNoise = 0;
  }
  const Profiler profiler = detectProfiler();
  cfg.profilerNote = cuda::adaptToProfiler(profiler, o.timerGiven, cfg.measure);
  cfg.profiler = std::string(toString(profiler));
  return cfg;
}

// `kernels` (a --kernels list) without `id`; `named` says whether it was there.
std::string withoutKernel(const std::string& kernels, const std::string& id, bool& named) {
  std::string out;
  std::size_t start = 0;
  while (start <= kernels.size() && !kernels.empty()) {
    const std::size_t comma = std::min(kernels.find(',', start), kernels.size());
    const std::string item = kernels.substr(start, comma - start);
    if (item == id)
      named = true;
    else
      out += (out.empty() ? "" : ",") + item;
    start = comma + 1;
  }
  return out;
}

// The selection, with --source's kernel compiled for the device and added (`userKernels` holds
// it). --kernels may name it (user.<stem>): the registry's kernels are then the others named,
// none when it is named alone, so a reader can ask for exactly the cases it wants. With neither
// --kernels nor --suite, cuBLAS runs beside it.
cuda::ResolvedSelection resolveWithSource(const RunOpts& o,
                                          std::vector<KernelDescriptor>& userKernels) {
  cuda::Selection selection = o.sel;
  bool userNamed = false;
  bool userAlone = false;
  if (!o.user.source.empty()) {
    std::string arch;
    try {
      arch = cuda::deviceArch(o.sel.device);
    } catch (const cuda::CudaError&) {  // no device: runPlan reports it (exit 3)
    }
    userKernels.reserve(1);
    userKernels.push_back(cuda::makeUserKernel(compileSource(o.user, arch)));
    selection.kernels = withoutKernel(selection.kernels, userKernels.front().id, userNamed);
    userAlone = userNamed && selection.kernels.empty();
    if (userAlone)
      selection.kernels = "all";  // for the family and sizes only: none of them runs
    else if (selection.kernels.empty() && selection.suite.empty())
      selection.kernels = "cublas.sgemm";
  }
  cuda::ResolvedSelection sel = resolve(selection, "quick");
  if (userAlone) sel.kernels.clear();
  for (const auto& u : userKernels) sel.kernels.push_back(&u);
  return sel;
}

// The configurations this build has of a tunable kernel (kwb run --tuning).
std::vector<cuda::TuneOption> tuneOptions(const KernelDescriptor& base) {
  std::vector<cuda::TuneOption> out;
  for (const kernels::TuneVariant& v : kernels::tuneVariants(base.id))
    out.push_back({v.config.name, kernels::withVariant(base, v)});
  return out;
}

// The event of a case that ran past --case-timeout: an error, the engine ends after it.
StreamEvent timedOutCase(const cuda::PlanCase& p, int index, double seconds) {
  StreamEvent failed(EventType::kCaseFailed);
  failed.index = index;
  failed.result = cuda::skippedPlanCase(p, "");
  failed.result->status = CaseStatus::kError;
  failed.result->message = "did not finish within --case-timeout " + fixed(seconds, 1) +
                           " s (a kernel that never ends?); the engine ended to free the GPU";
  return failed;
}

// --stream's events on stdout. A stream nobody reads any more (the GUI cancelled, its ssh
// connection dropped) cancels the run at the next sample, and a failed write stops the writing:
// the engine then ends as on SIGTERM instead of running for no one, or dying from SIGPIPE with
// outputs half written.
class EventStream {
 public:
  explicit EventStream(bool on) : m_ok(on) {
    if (!on) return;
    std::signal(SIGPIPE, SIG_IGN);
    m_readerGone.emplace(fileno(stdout));
  }
  void emit(const StreamEvent& e) {
    if (m_ok &&
        (std::fputs((toJsonLine(e) + "\n").c_str(), stdout) < 0 || std::fflush(stdout) != 0)) {
      m_ok = false;
      std::cerr << "kwb: the event stream's reader is gone; stopping the run\n";
    }
  }
  // Streaming, and nobody reads it any more.
  bool lost() const { return m_readerGone && (!m_ok || m_readerGone->closed()); }

 private:
  bool m_ok;
  std::optional<OutputWatch> m_readerGone;
};

// What kwb run writes (--json, --csv, --md): the run's document, or, for a run ended early, the
// cases finished so far and the rest skipped. Cases finish out of plan order after a fresh
// engine took the cases left (fresh_engine.h), so the finished ones are kept by plan index.
class RunOutputs {
 public:
  RunOutputs(const RunOpts& o, const std::vector<cuda::PlanCase>& plan,
             const std::optional<ShardInfo>& shard)
      : m_o(o), m_plan(plan), m_shard(shard), m_finished(plan.size(), false) {}
  void apply(const StreamEvent& e) {
    m_partial.apply(e);
    const bool ends = e.type == EventType::kCaseFinished || e.type == EventType::kCaseFailed;
    if (ends && e.index >= 0 && std::size_t(e.index) < m_finished.size())
      m_finished[std::size_t(e.index)] = true;
  }
  int finishedCases() const { return m_partial.finishedCases(); }
  void write(RunDocument doc) const {
    doc.shard = m_shard;
    writeOutputs({{m_o.json, [&] { return toJsonText(doc); }, "--json"},
                  {m_o.csv, [&] { return toCsv(doc); }, "--csv"},
                  {m_o.md, [&] { return toMarkdown(doc); }, "--md"}});
  }
  void writePartial(const std::string& why) const {
    RunDocument doc = m_partial.document();
    for (std::size_t i = 0; i < m_plan.size(); ++i)
      if (!m_finished[i]) doc.cases.push_back(cuda::skippedPlanCase(m_plan[i], why));
    write(doc);
  }

 private:
  const RunOpts& m_o;
  const std::vector<cuda::PlanCase>& m_plan;
  std::optional<ShardInfo> m_shard;
  DocumentBuilder m_partial;
  std::vector<bool> m_finished;  // by plan index
};

// --devices: the plan's shards on every GPU named, merged into the outputs (pool_run.h).
int runPooled(const RunOpts& o, const std::vector<cuda::PlanCase>& plan, const cuda::RunConfig& cfg,
              const cuda::AppliedTuning& tuning) {
  PoolRun how{o.stream, true, o.json, o.csv, o.md, [&](const RunDocument& d) {
                return runTable(d) + cuda::tunedCasesText(d, tuning) +
                       progressionText(d.progression);
              }};
  return runOnPool(o.pool, how, plan, cfg);
}

int runCommand(const RunOpts& o) {
  checkOutputs({{"--tuning", o.tuning}, {"--suite", o.sel.suite}, {"--source", o.user.source}},
               {{"--json", o.json}, {"--csv", o.csv}, {"--md", o.md}});
  std::vector<KernelDescriptor> userKernels;  // outlive the run
  const cuda::ResolvedSelection sel = resolveWithSource(o, userKernels);
  cuda::RunConfig cfg = runConfig(o, sel.suiteName);
  applyCostHints(o.pool, cfg);  // before the plan is cut (--shard, --devices)
  auto plan = cuda::orderedPlan(sel);
  cuda::AppliedTuning tuning;  // outlives the run
  if (!o.tuning.empty()) tuning = cuda::applyTuning(o.tuning, plan, tuneOptions);
  if (!o.pool.devices.empty()) return runPooled(o, plan, cfg, tuning);
  const std::optional<ShardInfo> shard = applyShard(o.shard, plan, cfg, o.pool.gpus);
  const std::vector<std::size_t> continued = selectContinuedCases(o.fresh, plan);
  installInterruptHandlers();
  // What has finished, for the watchdog: a run that does not return within the grace period
  // after Ctrl-C (a kernel can run for minutes) is ended with these results written.
  RunOutputs outputs(o, plan, shard);
  EventStream events(o.stream);
  auto emitLine = [&](const StreamEvent& e) { events.emit(e); };
  InterruptWatchdog watchdog([&] {
    StreamEvent done(EventType::kDone);
    done.exitCode = kExitInterrupted;
    emitLine(done);
    outputs.writePartial("not run: interrupted");
    std::cerr << "interrupted: " << outputs.finishedCases()
              << " finished case(s) kept, the rest not run\n";
  });
  // --case-timeout: the case that ran too long is an error and the rest are not run. No `done`
  // event follows, so the GUI starts a new engine for the cases left, as after a crash.
  CaseTimeout caseTimeout(o.caseTimeout, watchdog.lock(), [&](int index) {
    const cuda::PlanCase& p = plan[std::size_t(index)];
    const StreamEvent failed = timedOutCase(p, index, o.caseTimeout);
    const std::string what = p.kernel->id + " " + sizeLabel(*failed.result);
    outputs.apply(failed);
    emitLine(failed);
    outputs.writePartial("not run: the engine ended after " + what + " timed out");
    std::cerr << "kwb: " << what << " " << failed.result->message << "; "
              << outputs.finishedCases() - 1 << " finished case(s) kept, the rest not run\n";
  });
  useFreshEngines(o.fresh, continued, o.shard, cfg,
                  [&] { caseTimeout.finish(); });  // it watches its own
  // Interleaved rounds move between the cases of a block: the watch follows each sample.
  cfg.heartbeat = [&](int index) { caseTimeout.started(index); };
  const auto sink = [&](const StreamEvent& e) {
    const std::lock_guard<std::mutex> hold(watchdog.lock());
    if (e.type == EventType::kCaseStarted) caseTimeout.started(e.index);
    if (e.type == EventType::kCaseFinished || e.type == EventType::kCaseFailed) caseTimeout.ended();
    outputs.apply(e);
    emitLine(e);
    // Human progress on stderr in both modes; a fresh engine's parent prints it.
    if (!continued.empty()) return;
    if (e.type == EventType::kDevice && e.device) std::cerr << formatBanner(*e.device);
    if (e.type == EventType::kLog) std::cerr << "[" << e.level << "] " << e.message << '\n';
    if ((e.type == EventType::kCaseFinished || e.type == EventType::kCaseFailed) && e.result)
      std::cerr << progressLine(*e.result, e.index + 1, plan.size());
  };
  const RunDocument doc =
      cuda::runPlan(plan, cfg, sink, [&] { return interruptRequested() || events.lost(); });
  watchdog.finish();
  caseTimeout.finish();

  outputs.write(doc);
  if (!o.stream)
    std::cout << runTable(doc) << cuda::tunedCasesText(doc, tuning)
              << progressionText(doc.progression);
  if (continued.empty()) std::cerr << "wall time " << fixed(doc.wallSeconds, 1) << " s\n";
  if (interruptRequested()) return kExitInterrupted;
  return allPassed(doc) ? kExitOk : kExitCaseFailed;
}

}  // namespace

void addRunCommand(CLI::App& app, int& exitCode) {
  auto* sub =
      app.add_subcommand("run", "Verify, then benchmark kernels on shapes (default suite: quick)");
  auto o = std::make_shared<RunOpts>();
  addSelectionOptions(*sub, o->sel, "quick");
  sub->add_option("--samples", o->samples, "Take exactly N samples per case (default: adaptive)")
      ->check(CLI::Range(1, 1000000));
  sub->add_option("--warmups", o->warmups, "Warm-up launches before sampling")
      ->check(CLI::Range(0, 1000000));
  sub->add_flag("--cold", o->cold, "Flush L2 before every sample (default: hot L2)");
  sub->add_option(
         "--max-noise", o->maxNoise,
         "A case whose median's 95% CI is wider than ±X (relative) after the rounds gets "
         "up to as many rounds again, within --max-time (default 0.01; 0: no extra rounds)")
      ->check(finiteRange(0.0, 1.0));
  sub->add_option("--min-time", o->minTime, "Minimum sampling time per case, seconds")
      ->check(finiteRange(0.0, 86400.0));
  auto* maxTime =
      sub->add_option("--max-time", o->maxTime,
                      "Maximum sampling time per case, seconds (given, it also caps the minimum "
                      "of 10 samples; by default a slow case still takes 10)")
          ->check(finiteRange(1e-6, 86400.0));
  sub->add_option("--max-case-seconds", o->maxCaseSeconds,
                  "Skip a case whose estimated time (FLOPs over the kernel's measured rate) "
                  "exceeds this many seconds; 0: no bound (default 60)")
      ->check(finiteRange(0.0, 1e9));
  sub->add_option("--case-timeout", o->caseTimeout,
                  "End the run when one case runs longer than this many seconds (a kernel that "
                  "never ends): that case is an error, the rest are not run; 0: no limit (default)")
      ->check(finiteRange(0.0, 1e9));
  sub->add_option("--fresh-inputs", o->freshInputs,
                  "Rotate K (>= 2, default 2 when given bare) seeded input sets through the timed "
                  "launches of each case, as many as fit the device memory: a kernel cannot "
                  "replay or cache its output (docs/MEASUREMENT.md, \"Fresh inputs\")")
      ->expected(0, 1)
      ->default_str("2")
      ->check(CLI::Range(2, 64));
  auto* timer = addTimerOption(*sub, o->timer);
  sub->add_option("--rounds", o->rounds,
                  "Spread each case's samples over N rounds, round-robin across the cases; the "
                  "CI comes from the spread between rounds (default 20; 1: all at once)")
      ->check(CLI::Range(1, 1000));
  sub->add_flag("--no-cupti-check", o->noCuptiCheck,
                "Do not time each case with CUPTI too (its kernel list and agreement figure)");
  sub->add_option("--tuning", o->tuning,
                  "A kwb tune --json document: its kernel's cases run the configuration their "
                  "shape's bucket chose, named in ranKernel (docs/KERNELS.md)")
      ->check(kNotEmpty);
  addEnergyOption(*sub, o->energy);
  addSourceOptions(*sub, o->user, false);
  addShardOption(*sub, o->shard);
  addFreshEngineOptions(*sub, o->fresh);
  addPoolOptions(*sub, o->pool)->excludes("--shard")->excludes("--source");
  sub->add_flag("--stream", o->stream, "Write JSON-lines events on stdout (docs/PROTOCOL.md)");
  sub->add_option("--json", o->json, "Write the results document here");
  sub->add_option("--csv", o->csv, "Write a CSV table here");
  sub->add_option("--md", o->md, "Write a Markdown report here");
  sub->callback([o, maxTime, timer, &exitCode] {
    o->maxTimeGiven = maxTime->count() > 0;
    o->timerGiven = timer->count() > 0;
    exitCode = runOrServeShards(*o, &runCommand);
  });
}

}  // namespace kwb::cli
