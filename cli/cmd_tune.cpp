// SPDX-License-Identifier: Apache-2.0
// kwb tune — the tuning sweep of one tunable kernel on one or more shapes: a plan over the
// kernel as registered ("default") and its compile-time configurations, shape by shape, run by
// the case loop of `kwb run` (cuda::runPlan): each is verified, the ones that pass are timed,
// and each shape's bucket takes its fastest (kwb/tune_buckets.h). After a configuration that
// loses the CUDA context, the configurations left run in a fresh engine (fresh_engine.h).
#include <algorithm>
#include <cmath>
#include <iostream>

#include "commands.h"
#include "fresh_engine.h"
#include "interrupt.h"
#include "kwb/cuda/runner.h"
#include "kwb/error.h"
#include "kwb/output_files.h"
#include "kwb/results.h"
#include "kwb/tune_buckets.h"
#include "output.h"
#include "pool_run.h"
#include "registry.h"
#include "run_options.h"
#include "tuning_variants.h"

namespace kwb::cli {

namespace {

struct TuneOpts {
  std::string kernel;
  std::string shape;
  std::string shapes;
  std::string json;
  std::uint64_t seed = 0x5EED;
  int device = 0;
  bool cold = false;
  std::string timer;
  double maxTime = 0.3;
  std::string shard;      // --shard I/N: one part of the sweep, whole shapes
  PoolOpts pool;          // --devices: the configurations spread over every GPU of the host
  FreshEngineOpts fresh;  // --max-restarts: the configurations left after a lost context
};

std::string joined(const std::vector<std::string>& xs) {
  std::string s;
  for (const auto& x : xs) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// The sweep's table: one row per configuration and shape, with the parameters people look at
// first.
std::string tuneTable(const TuneGrid& grid) {
  std::vector<std::vector<std::string>> rows{{"shape", "configuration", "status", "median ms",
                                              "GFLOP/s", "samples", "threads", "smem KB"}};
  for (const auto& r : grid.results) {
    const auto& params = r.config->params;
    const auto param = [&](const char* name) {
      const auto it = params.find(name);
      return it == params.end() ? std::string() : std::to_string(it->second);
    };
    const auto smem = params.find("smemBytes");
    const bool timed = r.summary.median > 0;
    rows.push_back({toString(r.shape()), r.config->name, std::string(toString(r.status)),
                    timed ? fixed(r.summary.median, 4) : "", timed ? fixed(r.gflops, 1) : "",
                    std::to_string(r.summary.count), param("threads"),
                    smem == params.end() ? "" : fixed(double(smem->second) / 1024, 1)});
  }
  return formatTable(rows);
}

std::string flopsText(double flops) {
  return std::isinf(flops) ? "inf" : fixed(flops / 1e9, flops < 1e10 ? 3 : 1);
}

// The choice table: each tuned shape, the FLOPs its bucket spans and what it runs there.
std::string choiceTable(const TuneGrid& grid) {
  std::vector<std::vector<std::string>> rows{
      {"tuned shape", "bucket GFLOP (2MNK)", "runs", "GFLOP/s"}};
  for (const auto& c : grid.choices)
    rows.push_back({toString(c.shape),
                    "[" + flopsText(c.minFlops) + ", " + flopsText(c.maxFlops) + ")", c.config,
                    c.gflops > 0 ? fixed(c.gflops, 1) : "not timed"});
  return formatTable(rows);
}

// Sorts `cases` into the plan's order (kernel and size): after a lost context the cases verified
// but not yet timed before the fault come back from the fresh engine after the fault's.
void inPlanOrder(const std::vector<cuda::PlanCase>& plan, std::vector<CaseResult>& cases) {
  const auto rank = [&](const CaseResult& c) {
    for (std::size_t i = 0; i < plan.size(); ++i)
      if (plan[i].kernel->id == c.kernel && plan[i].size == c.size) return i;
    return plan.size();
  };
  std::stable_sort(cases.begin(), cases.end(),
                   [&](const CaseResult& a, const CaseResult& b) { return rank(a) < rank(b); });
}

// The sweep's grid: its results in plan order, and the choice by bucket of each shape of the plan
// (of this part, with --shard); `first` names the sweep when the part has none.
TuneGrid sweepGrid(const std::string& kernel, std::uint64_t seed,
                   const std::vector<cuda::PlanCase>& plan, std::vector<CaseResult> results,
                   const Shape& first) {
  std::vector<Shape> tuned;
  for (const cuda::PlanCase& p : plan)
    if (std::find(tuned.begin(), tuned.end(), p.shape()) == tuned.end()) tuned.push_back(p.shape());
  inPlanOrder(plan, results);  // a fresh engine's configurations came after the fault's
  TuneGrid grid;
  grid.kernel = kernel;
  grid.shape = tuned.empty() ? first : tuned.front();
  grid.seed = seed;
  grid.results = std::move(results);
  if (!tuned.empty()) grid.choices = chooseByBucket(grid.results, tuned);
  for (const TuneChoice& c : grid.choices)
    if (c.shape == grid.shape && c.gflops > 0) grid.best = c.config;
  return grid;
}

std::vector<Shape> tunedShapes(const TuneOpts& o) {
  if (o.shape.empty() == o.shapes.empty())
    throw InputError("give the shapes to tune: --shape MxNxK or --shapes LIST (not both)");
  return o.shapes.empty() ? std::vector<Shape>{parseShape(o.shape)} : parseShapeList(o.shapes);
}

int tuneCommand(const TuneOpts& o) {
  checkOutputs({}, {{"--json", o.json}});
  const KernelDescriptor& base = commandRegistry().find(o.kernel);  // InputError → exit 2
  const std::vector<kernels::TuneVariant> variants = commandTuneVariants(base.id);
  if (variants.empty())
    throw InputError("kernel '" + base.id + "' has no tuning configurations; tunable kernels: " +
                     joined(commandTunableKernels()));
  const std::vector<Shape> shapes = tunedShapes(o);
  chooseByBucket({}, shapes);  // two shapes of one bucket: refused before the device is opened

  // A plan over the configuration axis, shape by shape: the kernel as registered, then each
  // configuration; the cases of one shape share their inputs.
  std::vector<KernelDescriptor> configured;
  configured.reserve(variants.size());
  for (const auto& v : variants) configured.push_back(kernels::withVariant(base, v));
  std::vector<cuda::PlanCase> plan;
  for (const Shape& shape : shapes) {
    plan.push_back({&base, gemmSize(shape), TuneConfig{std::string(kDefaultConfig), {}}});
    for (std::size_t i = 0; i < variants.size(); ++i)
      plan.push_back({&configured[i], gemmSize(shape), variants[i].config});
  }

  cuda::RunConfig cfg = baseRunConfig("tune " + base.id, o.seed, o.device);
  cfg.measure.coldL2 = o.cold;
  cfg.measure.rule.maxTimeS = o.maxTime;
  cfg.measure.timer = parseTimerMode(o.timer);
  cfg.measure.cuptiCheck = false;  // a sweep ranks configurations; the kernel list adds nothing
  cfg.reuseDeviceFacts = o.pool.serve;  // a pool's worker measures the device once
  applyCostHints(o.pool, cfg);
  if (!o.pool.devices.empty()) {
    PoolRun how{false, false, o.json, "", "", [](const RunDocument& d) {
                  return d.tuning ? tuneTable(*d.tuning) + "\nchoice by bucket:\n" +
                                        choiceTable(*d.tuning)
                                  : std::string();
                }};
    return runOnPool(o.pool, how, plan, cfg);
  }
  const std::optional<ShardInfo> shard = applyShard(o.shard, plan, cfg, o.pool.gpus);
  const std::vector<std::size_t> continued = selectContinuedCases(o.fresh, plan);
  // A pool's worker (--pool-serve) may cut its part for the pool's GPU count (--pool-gpus), which
  // a kwb started on its own cannot: after a lost context its configurations left are skipped.
  if (!o.pool.serve) useFreshEngines(o.fresh, continued, o.shard, cfg, {});
  const auto sink = [&](const StreamEvent& e) {
    if (o.fresh.stream) return writeEventLine(e);  // a fresh engine: its parent reports
    if (e.type == EventType::kDevice && e.device)
      std::cout << "tuning " << base.id << " on " << o.shape << o.shapes << ", device "
                << e.device->index << ": " << e.device->name << " (sm_" << e.device->ccMajor
                << e.device->ccMinor << "), " << variants.size()
                << " configurations and the default\n";
    if (e.type == EventType::kLog && e.level != "info")
      std::cerr << "[" << e.level << "] " << e.message << '\n';
    if ((e.type == EventType::kCaseFinished || e.type == EventType::kCaseFailed) && e.result) {
      const CaseResult& r = *e.result;
      std::cout << "  " << toString(r.shape()) << " " << r.config->name << ": "
                << toString(r.status) << (r.timed() ? " " + fixed(r.gflops, 1) + " GFLOP/s" : "")
                << (r.message.empty() ? "" : " (" + r.message.substr(0, 160) + ")") << '\n';
    }
  };
  // A pool worker (--pool-serve) stops at Ctrl-C with the configurations timed so far.
  RunDocument doc = cuda::runPlan(plan, cfg, sink, [] { return interruptRequested(); });
  if (o.fresh.stream) return allPassed(doc) ? kExitOk : kExitCaseFailed;
  doc.shard = shard;
  TuneGrid grid = sweepGrid(base.id, o.seed, plan, std::move(doc.cases), shapes.front());
  doc.cases.clear();
  std::cout << tuneTable(grid) << "\nchoice by bucket (a shape runs the choice of the tuned shape "
            << "nearest in log FLOPs; 'default': the kernel as registered):\n"
            << choiceTable(grid);
  doc.tuning = std::move(grid);
  writeOutputs({{o.json, [&] { return toJsonText(doc); }, "--json"}});
  return allPassed(doc) ? kExitOk : kExitCaseFailed;
}

}  // namespace

void addTuneCommand(CLI::App& app, int& exitCode) {
  auto* sub = app.add_subcommand(
      "tune",
      "Verify and time every compile-time configuration of a tunable kernel, and the kernel as "
      "registered, on each shape, and choose the fastest per shape bucket (kwb run --tuning "
      "reads the choice): exit 0 when every configuration verifies, 1 when one fails");
  auto o = std::make_shared<TuneOpts>();
  sub->add_option("--kernel", o->kernel,
                  "Tunable kernel id (" + joined(commandTunableKernels()) + ")")
      ->required();
  auto* one = sub->add_option("--shape", o->shape, "Shape MxNxK (or one number for a cube)")
                  ->check(kNotEmpty);
  sub->add_option("--shapes", o->shapes,
                  "Comma-separated shapes, as kwb run --shapes: one bucket each (512,256x384x640)")
      ->check(kNotEmpty)
      ->excludes(one);
  sub->add_option("--json", o->json, "Also write the results document, grid included, to FILE");
  sub->add_option("--seed", o->seed, "Seed of the inputs")->check(kSeed);
  sub->add_option("--device", o->device, "Device index")->check(kDeviceIndex);
  sub->add_flag("--cold-l2", o->cold, "Flush L2 before every sample");
  addShardOption(*sub, o->shard);
  addPoolOptions(*sub, o->pool)->excludes("--shard");
  addFreshEngineOptions(*sub, o->fresh, true);
  addTimerOption(*sub, o->timer);
  sub->add_option("--max-time", o->maxTime, "Most seconds of samples per configuration")
      ->check(finiteRange(1e-6, 86400.0));
  sub->callback([o, &exitCode] { exitCode = runOrServeShards(*o, &tuneCommand); });
}

}  // namespace kwb::cli
