// kwb tune — the tuning sweep of one tunable kernel on one shape: a plan over the kernel's
// compile-time configurations, run by the case loop of `kwb run` (cuda::runPlan): each is
// verified, the ones that pass are timed, and the fastest is reported.
#include <iostream>

#include "commands.h"
#include "kwb/cuda/runner.h"
#include "kwb/error.h"
#include "kwb/results.h"
#include "kwb/tuning.h"
#include "output.h"
#include "registry.h"
#include "run_options.h"
#include "tuning_variants.h"

namespace kwb::cli {

namespace {

struct TuneOpts {
  std::string kernel;
  std::string shape;
  std::string json;
  std::uint64_t seed = 0x5EED;
  int device = 0;
  bool cold = false;
  std::string timer;
  double maxTime = 0.3;
};

std::string joined(const std::vector<std::string>& xs) {
  std::string s;
  for (const auto& x : xs) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// The sweep's table: one row per configuration, with the parameters people look at first.
std::string tuneTable(const TuneGrid& grid) {
  std::vector<std::vector<std::string>> rows{
      {"configuration", "status", "median ms", "GFLOP/s", "samples", "threads", "smem KB"}};
  for (const auto& r : grid.results) {
    const auto& params = r.config->params;
    const auto param = [&](const char* name) {
      const auto it = params.find(name);
      return it == params.end() ? std::string() : std::to_string(it->second);
    };
    const auto smem = params.find("smemBytes");
    const bool timed = r.summary.median > 0;
    rows.push_back({r.config->name, std::string(toString(r.status)),
                    timed ? fixed(r.summary.median, 4) : "", timed ? fixed(r.gflops, 1) : "",
                    std::to_string(r.summary.count), param("threads"),
                    smem == params.end() ? "" : fixed(double(smem->second) / 1024, 1)});
  }
  return formatTable(rows);
}

int tuneCommand(const TuneOpts& o) {
  checkWritable(o.json);
  const KernelDescriptor& base = commandRegistry().find(o.kernel);  // InputError → exit 2
  const std::vector<kernels::TuneVariant> variants = kernels::tuneVariants(base.id);
  if (variants.empty())
    throw InputError("kernel '" + base.id + "' has no tuning configurations; tunable kernels: " +
                     joined(kernels::tunableKernels()));
  const Shape shape = parseShape(o.shape);

  // A plan over the configuration axis: one case per configuration, same kernel and shape.
  std::vector<KernelDescriptor> configured;
  configured.reserve(variants.size());
  for (const auto& v : variants) configured.push_back(kernels::withVariant(base, v));
  std::vector<cuda::PlanCase> plan;
  for (std::size_t i = 0; i < variants.size(); ++i)
    plan.push_back({&configured[i], shape, variants[i].config});

  cuda::RunConfig cfg;
  cfg.suite = "tune " + base.id;
  cfg.seed = o.seed;
  cfg.device = o.device;
  cfg.toolVersion = KWB_VERSION;
  cfg.gitRevision = KWB_GIT_REVISION;
  cfg.measure.coldL2 = o.cold;
  cfg.measure.rule.maxTimeS = o.maxTime;
  cfg.measure.timer = parseTimerMode(o.timer);
  cfg.measure.cuptiCheck = false;  // a sweep ranks configurations; the kernel list adds nothing
  const auto sink = [&](const StreamEvent& e) {
    if (e.type == EventType::kDevice && e.device)
      std::cout << "tuning " << base.id << " on " << toString(shape) << ", device "
                << e.device->index << ": " << e.device->name << " (sm_" << e.device->ccMajor
                << e.device->ccMinor << "), " << variants.size() << " configurations\n";
    if (e.type == EventType::kLog && e.level != "info")
      std::cerr << "[" << e.level << "] " << e.message << '\n';
    if ((e.type == EventType::kCaseFinished || e.type == EventType::kCaseFailed) && e.result) {
      const CaseResult& r = *e.result;
      std::cout << "  " << r.config->name << ": " << toString(r.status)
                << (r.timed() ? " " + fixed(r.gflops, 1) + " GFLOP/s" : "")
                << (r.message.empty() ? "" : " (" + r.message.substr(0, 160) + ")") << '\n';
    }
  };
  RunDocument doc = cuda::runPlan(plan, cfg, sink, {});  // NoDeviceError → exit 3

  TuneGrid grid;
  grid.kernel = base.id;
  grid.shape = shape;
  grid.seed = o.seed;
  grid.results = std::move(doc.cases);
  doc.cases.clear();
  std::cout << tuneTable(grid);
  if (const auto best = fastest(grid.results)) {
    const CaseResult& b = grid.results[*best];
    grid.best = b.config->name;
    std::cout << "best: " << b.config->name << "  " << fixed(b.gflops, 1) << " GFLOP/s, "
              << fixed(b.summary.median, 4) << " ms\n";
  } else {
    std::cout << "best: none (no configuration passed verification on this shape)\n";
  }
  doc.tuning = std::move(grid);
  if (!o.json.empty()) writeDocument(doc, o.json);
  return allPassed(doc) ? kExitOk : kExitCaseFailed;
}

}  // namespace

void addTuneCommand(CLI::App& app, int& exitCode) {
  auto* sub = app.add_subcommand(
      "tune",
      "Verify and time every compile-time configuration of a tunable kernel on one shape and "
      "report the fastest: exit 0 when every configuration verifies, 1 when one fails");
  auto o = std::make_shared<TuneOpts>();
  sub->add_option("--kernel", o->kernel,
                  "Tunable kernel id (" + joined(kernels::tunableKernels()) + ")")
      ->required();
  sub->add_option("--shape", o->shape, "Shape MxNxK (or one number for a cube)")->required();
  sub->add_option("--json", o->json, "Also write the results document, grid included, to FILE");
  sub->add_option("--seed", o->seed, "Seed of the inputs")->check(kSeed);
  sub->add_option("--device", o->device, "Device index")->check(CLI::NonNegativeNumber);
  sub->add_flag("--cold-l2", o->cold, "Flush L2 before every sample");
  addTimerOption(*sub, o->timer);
  sub->add_option("--max-time", o->maxTime, "Most seconds of samples per configuration")
      ->check(finiteRange(1e-6, 86400.0));
  sub->callback([o, &exitCode] { exitCode = tuneCommand(*o); });
}

}  // namespace kwb::cli
