// kwb tune — the tuning sweep of one tunable kernel on one shape: every compile-time
// configuration is verified by the same pipeline as `kwb verify` (GemmSession), the ones that
// pass are timed by the same loop as `kwb run` (measure), and the fastest is reported.
#include <cuda_runtime_api.h>

#include <chrono>
#include <iostream>
#include <memory>

#include "commands.h"
#include "kwb/cuda/check.h"
#include "kwb/cuda/device.h"
#include "kwb/cuda/gemm_session.h"
#include "kwb/cuda/measure.h"
#include "kwb/error.h"
#include "kwb/results.h"
#include "kwb/run_info.h"
#include "kwb/stats.h"
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

// Verifies and, when it passes, times one configuration. Failures are data, not exceptions,
// except a lost context, which the caller must see to stop.
TuneResult tuneOne(cuda::GemmSession& session, cuda::PreparedCase& prepared,
                   const KernelDescriptor& k, const kernels::TuneVariant& v,
                   const cuda::MeasureOptions& opt, cuda::L2Flusher* flusher) {
  TuneResult r;
  r.config = v.config;
  try {
    const CaseResult c = session.verify(k, prepared);
    r.status = std::string(toString(c.status));
    r.message = c.message;
    r.ranKernel = c.ranKernel;
    if (c.status == CaseStatus::kFallback) {
      r.message = "not timed: the shape ran " + c.ranKernel + ", not this configuration";
    } else if (c.status == CaseStatus::kPass) {
      const GemmArgs args = prepared.args(1.0f, 0.0f);
      const cuda::Measurement m =
          cuda::measure([&] { k.launch(args); }, session.stream(), opt, flusher);
      const double ms = stats::median(m.samplesMs);
      r.medianMs = ms;
      r.gflops = prepared.shape().flops() / (ms * 1e6);
      r.samples = int(m.samplesMs.size());
    }
  } catch (const cuda::ContextLost&) {
    throw;
  } catch (const cuda::CudaError& e) {
    r.status = std::string(toString(CaseStatus::kError));
    r.message = e.what();
  }
  return r;
}

int tuneCommand(const TuneOpts& o) {
  const auto start = std::chrono::steady_clock::now();
  checkWritable(o.json);
  const KernelDescriptor& base = commandRegistry().find(o.kernel);  // InputError → exit 2
  const std::vector<kernels::TuneVariant> variants = kernels::tuneVariants(base.id);
  if (variants.empty())
    throw InputError("kernel '" + base.id + "' has no tuning configurations; tunable kernels: " +
                     joined(kernels::tunableKernels()));
  const Shape shape = parseShape(o.shape);

  const DeviceInfo d = cuda::queryDevice(o.device);  // NoDeviceError → exit 3
  KWB_CUDA_CHECK(cudaSetDevice(o.device));
  std::cout << "tuning " << base.id << " on " << toString(shape) << ", device " << d.index << ": "
            << d.name << " (sm_" << d.ccMajor << d.ccMinor << "), " << variants.size()
            << " configurations\n";

  cuda::GemmSession session(o.device);
  auto prepared = session.prepare(base, shape, o.seed);  // every variant shares the inputs
  cuda::MeasureOptions opt;
  opt.coldL2 = o.cold;
  opt.rule.maxTimeS = o.maxTime;
  opt.timer = parseTimerMode(o.timer);
  opt.cuptiCheck = false;  // a sweep ranks configurations; the kernel list adds nothing
  std::unique_ptr<cuda::L2Flusher> flusher;
  if (o.cold) flusher = std::make_unique<cuda::L2Flusher>(std::size_t(d.l2Bytes));

  TuneGrid grid;
  grid.kernel = base.id;
  grid.shape = shape;
  grid.seed = o.seed;
  std::string lost;  // set once the context is gone: the remaining configurations are skipped
  for (const auto& v : variants) {
    const KernelDescriptor k = kernels::withVariant(base, v);
    TuneResult r;
    if (!lost.empty()) {
      r.config = v.config;
      r.status = std::string(toString(CaseStatus::kSkipped));
      r.message = lost;
    } else {
      try {
        r = tuneOne(session, *prepared, k, v, opt, flusher.get());
      } catch (const cuda::ContextLost& e) {
        r.config = v.config;
        r.status = std::string(toString(e.result().status));
        r.message = e.what();
        lost = "not run: the CUDA context was lost after " + v.config.name;
      }
    }
    std::cout << "  " << v.config.name << ": " << r.status
              << (r.gflops ? " " + fixed(*r.gflops, 1) + " GFLOP/s" : "")
              << (r.message.empty() ? "" : " (" + r.message.substr(0, 160) + ")") << '\n';
    grid.results.push_back(std::move(r));
  }

  std::vector<std::vector<std::string>> rows{
      {"configuration", "status", "median ms", "GFLOP/s", "samples", "threads", "smem KB"}};
  for (const auto& r : grid.results) {
    const auto param = [&](const char* name) {
      const auto it = r.config.params.find(name);
      return it == r.config.params.end() ? std::string() : std::to_string(it->second);
    };
    const auto smem = r.config.params.find("smemBytes");
    rows.push_back({r.config.name, r.status, r.medianMs ? fixed(*r.medianMs, 4) : "",
                    r.gflops ? fixed(*r.gflops, 1) : "", std::to_string(r.samples),
                    param("threads"),
                    smem == r.config.params.end() ? "" : fixed(double(smem->second) / 1024, 1)});
  }
  std::cout << formatTable(rows);

  bool allGood = lost.empty();
  for (const auto& r : grid.results) allGood = allGood && isGood(parseCaseStatus(r.status));
  if (const auto best = fastest(grid.results)) {
    const TuneResult& b = grid.results[*best];
    grid.best = b.config.name;
    std::cout << "best: " << b.config.name << "  " << fixed(*b.gflops, 1) << " GFLOP/s, "
              << fixed(*b.medianMs, 4) << " ms\n";
  } else {
    std::cout << "best: none (no configuration passed verification on this shape)\n";
  }

  if (!o.json.empty()) {
    RunDocument doc = stampedDocument(KWB_VERSION, KWB_GIT_REVISION);
    doc.device = d;
    doc.settings.suite = "tune " + base.id;
    doc.settings.seed = o.seed;
    recordMeasureOptions(opt, doc.settings);
    doc.tuning = std::move(grid);
    doc.wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    writeDocument(doc, o.json);
  }
  return allGood ? kExitOk : kExitCaseFailed;
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
