// SPDX-License-Identifier: Apache-2.0
// kwb ab: two kernels, or two versions of a user's kernel, timed interleaved in one run
// (docs/MEASUREMENT.md, "A/B in one run").
#include <iostream>

#include "commands.h"
#include "interrupt.h"
#include "kwb/cuda/ab.h"
#include "kwb/cuda/device.h"
#include "kwb/error.h"
#include "kwb/family.h"
#include "kwb/format.h"
#include "kwb/output_files.h"
#include "energy_output.h"
#include "output.h"
#include "run_options.h"
#include "user_source.h"

namespace kwb::cli {
namespace {

struct AbOpts {
  cuda::Selection sel;
  std::string a, b;
  std::string against;     // --against old.cu: A is this version, B is --source
  std::string againstKwb;  // --against-kwb PATH: A is the kernel in that build of kwb
  SourceOpts user;
  std::string sameWithin;  // empty: 1%, or 2.5% with --against-kwb (kSameWithinAcrossBuilds)
  std::string failOnSlower;
  int rounds = 10;
  int processPairs = 0;  // --process-pairs, with --against-kwb only; 0: not given (the default)
  double energy = 0;     // --energy SECONDS: each side's energy window at each size
  std::string json;
};

std::string abTable(const AbReport& r) {
  std::vector<std::vector<std::string>> rows{
      {"size", "A us", "B us", "B / A", "95% CI", "pairs", "verdict", "CUPTI B / A"}};
  for (const AbResult& x : r.results)
    rows.push_back({x.size, fixed(x.aMs * 1e3, 2), fixed(x.bMs * 1e3, 2),
                    x.ratio > 0 ? fixed(x.ratio, 4) : "",
                    x.ratio > 0 ? fixed(x.ci95.low, 4) + " .. " + fixed(x.ci95.high, 4) : "",
                    std::to_string(x.pairs), std::string(toString(x.verdict)),
                    x.cuptiRatio ? fixed(*x.cuptiRatio, 4) : ""});
  return formatTable(rows);
}

// What is compared: A and B with the labels the user gave them, and the sizes (from B).
struct Sides {
  const KernelDescriptor* a = nullptr;  // null with --against-kwb: A lives in the other build
  const KernelDescriptor* b = nullptr;
  std::string aKernel;  // A's id (in the other build with --against-kwb)
  std::string aLabel, bLabel;
  std::vector<KernelDescriptor> users;  // --against/--source: the two versions, compiled
  std::vector<cuda::PlanCase> sizes;
  std::string suiteName;
};

// --against old.cu --source new.cu: both versions compiled for the device.
void userSides(const AbOpts& o, Sides& s) {
  if (o.user.source.empty() || o.against.empty())
    throw InputError("--source and --against go together: --against old.cu --source new.cu");
  if (!o.a.empty() || !o.b.empty() || !o.againstKwb.empty())
    throw InputError(
        "give either two kernel ids (with --against-kwb: one or two) or --against/--source");
  std::string arch;
  try {
    arch = cuda::deviceArch(o.sel.device);
  } catch (const cuda::CudaError&) {  // no device: runAb reports it (exit 3)
  }
  SourceOpts old = o.user;
  old.source = o.against;
  s.users.reserve(2);  // a and b point into it
  const cuda::CompiledUserKernel before = compileSource(old, arch);
  const cuda::CompiledUserKernel after = compileSource(o.user, arch);
  // One stem in both (old/k.cu, new/k.cu): A gets its own id, or B's registration would
  // replace A's kernel and both sides would run B's code.
  const bool sameStem = before.source.stem == after.source.stem;
  s.users.push_back(cuda::makeUserKernel(before, sameStem ? "#a" : ""));
  s.users.push_back(cuda::makeUserKernel(after));
  s.a = &s.users[0];
  s.b = &s.users[1];
  s.aLabel = o.against;
  s.bLabel = o.user.source;
}

void resolveSides(const AbOpts& o, Sides& s) {
  cuda::Selection sel = o.sel;
  std::string bId = o.b;
  if (!o.user.source.empty() || !o.against.empty()) {
    userSides(o, s);
    sel.kernels = "cublas.sgemm";  // only for the shapes: user kernels are GEMM kernels
  } else if (!o.againstKwb.empty()) {
    if (o.a.empty())
      throw InputError(
          "kwb ab --against-kwb PATH needs a kernel id (kwb ab sgemm.tiled "
          "--against-kwb ../old/build/cli/kwb)");
    if (bId.empty()) bId = o.a;  // the same kernel in both builds
    sel.kernels = bId;
    s.aKernel = o.a;
    s.aLabel = o.a + " in " + o.againstKwb;
    s.bLabel = bId + " in this kwb";
  } else {
    if (o.a.empty() || o.b.empty())
      throw InputError(
          "kwb ab needs two kernel ids (kwb ab sgemm.tiled sgemm.bank_free), one with "
          "--against-kwb PATH, or --against old.cu --source new.cu");
    sel.kernels = o.a + "," + o.b;
  }
  const cuda::ResolvedSelection resolved = resolve(sel, "quick");
  s.suiteName = resolved.suiteName;
  for (const KernelDescriptor* k : resolved.kernels) {
    if (!s.a && o.againstKwb.empty() && k->id == o.a) s.a = k;
    if (!s.b && k->id == bId) s.b = k;
  }
  if (!s.b || (!s.a && o.againstKwb.empty()))
    throw InputError("kernel '" + (s.b ? o.a : bId) + "' was not found");
  if (s.a && s.a->problem != s.b->problem)
    throw InputError(s.a->id + " (" + s.a->problem + ") and " + s.b->id + " (" + s.b->problem +
                     ") solve different problems");
  for (const cuda::PlanCase& p : cuda::orderedPlan(resolved))
    if (p.kernel == resolved.kernels.front()) s.sizes.push_back(p);
}

// SAME's margin by default: within one process the same code reads within 1%; two processes
// running the same code read up to 2% apart on an H200 (where each one's buffers land does not
// change from round to round, so interleaving cannot average it out: docs/MEASUREMENT.md).
constexpr double kSameWithinOneBuild = 0.01;
constexpr double kSameWithinAcrossBuilds = 0.025;

int abCommand(const AbOpts& o) {
  checkOutputs({{"--suite", o.sel.suite},
                {"--against", o.against},
                {"--against-kwb", o.againstKwb},
                {"--source", o.user.source}},
               {{"--json", o.json}});
  const double sameWithin = !o.sameWithin.empty()  ? parsePercent(o.sameWithin, "--same-within")
                            : o.againstKwb.empty() ? kSameWithinOneBuild
                                                   : kSameWithinAcrossBuilds;
  std::optional<double> failAbove;
  if (!o.failOnSlower.empty()) failAbove = parsePercent(o.failOnSlower, "--fail-on-slower");
  if (o.processPairs != 0 && o.againstKwb.empty())
    throw InputError(
        "--process-pairs goes with --against-kwb: one build's kernels share a process");
  Sides sides;
  resolveSides(o, sides);
  cuda::RunConfig cfg = baseRunConfig(sides.suiteName, o.sel.seed, o.sel.device);
  cfg.measure.rounds = o.rounds;
  cfg.measure.seed = o.sel.seed;
  cfg.measure.rule.minTimeS = 0.1;  // both sides sampled for at least 0.1 s at each size
  cfg.measure.rule.maxTimeS = 1.0;
  cfg.measure.energySeconds = o.energy;
  const Profiler profiler = detectProfiler();
  if (profiler != Profiler::kNone)
    throw InputError("kwb ab times two kernels against each other and cannot run under " +
                     std::string(toString(profiler)) + "; profile each with kwb profile");

  installInterruptHandlers();
  const auto sink = [&](const StreamEvent& e) {
    if (e.type == EventType::kDevice && e.device) std::cerr << formatBanner(*e.device);
    if (e.type == EventType::kLog) std::cerr << "[" << e.level << "] " << e.message << '\n';
  };
  const auto cancelled = [] { return interruptRequested(); };
  const int processPairs = o.processPairs == 0 ? cuda::AcrossBuilds{}.processPairs : o.processPairs;
  AbReport r = sides.a
                   ? cuda::runAb(*sides.a, *sides.b, sides.sizes, cfg, sameWithin, sink, cancelled)
                   : cuda::runAbAcrossBuilds(
                         {o.againstKwb, thisKwb(), sides.aKernel, sameWithin, processPairs},
                         *sides.b, sides.sizes, cfg, sink, cancelled);
  r.aLabel = sides.aLabel.empty() ? r.a : sides.aLabel;
  r.bLabel = sides.bLabel.empty() ? r.b : sides.bLabel;
  if (!o.json.empty()) writeOutputs({{o.json, [&] { return toJsonText(r); }, "--json"}});

  std::cout << "A: " << r.aLabel << (r.aLabel != r.a ? " (" + r.a + ")" : "") << "\n"
            << "B: " << r.bLabel << (r.bLabel != r.b ? " (" + r.b + ")" : "") << "\n"
            << "timed interleaved, " << o.rounds << " rounds"
            << (o.againstKwb.empty()
                    ? std::string()
                    : " in " + std::to_string(processPairs) +
                          " pair(s) of processes, each build started first in turn")
            << "; SAME within ±" << fixed(100 * sameWithin, 1) << "%\n"
            << abTable(r) << energyNotes(r.document, true);
  int regressions = 0;
  for (const AbResult& x : r.results) {
    std::cout << "  " << x.size << ": " << toString(x.verdict) << ": " << x.reason << '\n';
    if (failAbove && x.verdict == Verdict::kSlower && x.ratio - 1.0 > *failAbove) ++regressions;
  }
  if (interruptRequested()) return kExitInterrupted;
  if (!allPassed(r.document)) return kExitCaseFailed;
  return regressions > 0 ? kExitCaseFailed : kExitOk;
}

}  // namespace

void addAbCommand(CLI::App& app, int& exitCode) {
  auto* sub = app.add_subcommand(
      "ab",
      "Time two kernels (or two versions of your .cu) interleaved in one run: B / A with "
      "its 95% CI and FASTER, SLOWER, SAME or UNCERTAIN at each size");
  auto o = std::make_shared<AbOpts>();
  sub->add_option("a", o->a, "Kernel A (the baseline), e.g. sgemm.tiled");
  sub->add_option("b", o->b,
                  "Kernel B (the candidate), e.g. sgemm.bank_free; with --against-kwb the "
                  "default is A's id");
  addSelectionOptions(*sub, o->sel, "quick");
  addSourceOptions(*sub, o->user, false);
  sub->add_option("--against", o->against,
                  "With --source: the earlier version of the .cu, timed as A (the new one is B)")
      ->check(kNotEmpty);
  sub->add_option("--against-kwb", o->againstKwb,
                  "Another build of kwb (its kwb executable): A is the kernel there, B the kernel "
                  "in this build; both are timed interleaved on the same GPU")
      ->check(kNotEmpty);
  sub->add_option("--same-within", o->sameWithin,
                  "SAME when the whole 95% CI of B / A lies within this (default 1%, and 2.5% "
                  "with --against-kwb: two processes running the same code have read up to 2% "
                  "apart, docs/MEASUREMENT.md)");
  sub->add_option("--fail-on-slower", o->failOnSlower,
                  "Exit 1 when B is SLOWER than A by more than this at some size, e.g. 2%");
  sub->add_option("--rounds", o->rounds, "Rounds the samples are spread over (default 10)")
      ->check(CLI::Range(2, 1000));
  sub->add_option("--process-pairs", o->processPairs,
                  "With --against-kwb: pairs of processes the rounds are shared among, the builds "
                  "started in turn first (default 2); a verdict must hold in every pair, since "
                  "where a process's buffers land is fixed for its life (docs/MEASUREMENT.md)")
      ->check(CLI::Range(1, 100));
  addEnergyOption(*sub, o->energy);
  sub->add_option("--json", o->json, "Write the A/B report (both documents included) here");
  sub->callback([o, &exitCode] { exitCode = abCommand(*o); });

  // The other build's side of --against-kwb (docs/MEASUREMENT.md, "Two builds of kwb"): not
  // for users, so not listed in --help.
  auto* peer = app.add_subcommand("ab-peer", "")->group("");
  auto device = std::make_shared<int>(0);
  peer->add_option("--device", *device, "CUDA device index")->check(kDeviceIndex);
  peer->callback([device, &exitCode] {
    exitCode = cuda::servePeer(std::cin, std::cout, commandRegistry(),
                               baseRunConfig("ab-peer", 0, *device));
  });
}

}  // namespace kwb::cli
