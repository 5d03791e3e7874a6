// SPDX-License-Identifier: Apache-2.0
// kwb verify: the correctness pipeline alone (canary, tolerance, negative control, alpha/beta)
// over a suite, as a pass/fail table: the case loop of `kwb run` (cuda::runPlan) with no timing.
// After a fault that loses the CUDA context, the cases left are verified by a fresh engine, a
// `kwb verify --stream --continue-cases` child (fresh_engine.h).

#include <iostream>

#include "commands.h"
#include "fresh_engine.h"
#include "kwb/cuda/runner.h"
#include "kwb/error.h"
#include "kwb/output_files.h"
#include "kwb/results.h"
#include "output.h"
#include "registry.h"
#include "run_options.h"

namespace kwb::cli {
namespace {

std::string sci(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2e", v);
  return buf;
}

std::string verifyTable(const RunDocument& doc) {
  std::vector<std::vector<std::string>> rows{{"kernel", "shape", "status", "max abs err",
                                              "max rel err", "mismatches", "unwritten",
                                              "negative control", "ran"}};
  for (const auto& c : doc.cases) {
    std::vector<std::string> r{c.kernel, sizeLabel(c), std::string(toString(c.status))};
    if (const auto& v = c.verification) {
      // The worse of the two runs (beta = 0 and alpha/beta), so no failure hides in a column.
      const CompareReport& ab = v->alphaBeta ? *v->alphaBeta : v->compare;
      r.push_back(sci(std::max(v->compare.maxAbsError, ab.maxAbsError)));
      r.push_back(sci(std::max(v->compare.maxRelError, ab.maxRelError)));
      r.push_back(std::to_string(v->compare.mismatches + (v->alphaBeta ? ab.mismatches : 0)));
      r.push_back(std::to_string(v->unwritten));
      r.emplace_back(v->negativeControlRejected ? "rejected" : "ACCEPTED");
    } else {
      r.insert(r.end(), {"", "", "", "", ""});
    }
    r.push_back(c.ranKernel.empty() ? "" : c.ranKernel);
    rows.push_back(std::move(r));
  }
  return formatTable(rows);
}

int verifyCommand(const cuda::Selection& selection, const std::string& json,
                  const std::string& shardText, const FreshEngineOpts& fresh) {
  checkOutputs({{"--suite", selection.suite}}, {{"--json", json}});
  const cuda::ResolvedSelection sel = resolve(selection, "spec-correctness");  // InputError → 2
  std::vector<cuda::PlanCase> plan;  // size by size, in the order selected
  for (const CaseSize& s : sel.sizes())
    for (const KernelDescriptor* k : sel.kernels) plan.push_back({k, s, std::nullopt});
  cuda::RunConfig cfg = baseRunConfig(sel.suiteName, selection.seed, selection.device);
  cfg.verifyOnly = true;
  const std::optional<ShardInfo> shard = applyShard(shardText, plan, cfg);
  const std::vector<std::size_t> continued = selectContinuedCases(fresh, plan);
  useFreshEngines(fresh, continued, shardText, cfg, {});
  const auto sink = [&](const StreamEvent& e) {
    if (fresh.stream) return writeEventLine(e);  // a fresh engine: its parent reports
    if (e.type == EventType::kDevice && e.device) std::cerr << formatBanner(*e.device);
    if (e.type == EventType::kLog && e.level != "info")
      std::cerr << "[" << e.level << "] " << e.message << '\n';
    if ((e.type == EventType::kCaseFinished || e.type == EventType::kCaseFailed) && e.result)
      std::cerr << "[" << e.index + 1 << "/" << plan.size() << "] " << e.result->kernel << " "
                << sizeLabel(*e.result) << ": " << toString(e.result->status) << '\n';
  };
  RunDocument doc = cuda::runPlan(plan, cfg, sink, {});  // NoDeviceError → exit 3
  if (fresh.stream) return allPassed(doc) ? kExitOk : kExitCaseFailed;
  doc.shard = shard;
  std::cout << "known-answer test: " << (doc.knownAnswer.passed ? "pass" : "FAIL") << " ("
            << doc.knownAnswer.detail << ")\n\n";
  writeOutputs({{json, [&] { return toJsonText(doc); }, "--json"}});

  std::cout << verifyTable(doc);
  std::size_t bad = 0;
  for (const auto& c : doc.cases) {
    if (isGood(c.status)) continue;
    if (bad++ == 0) std::cout << "\nnot passed:\n";
    std::cout << "  " << c.kernel << " " << sizeLabel(c) << ": " << toString(c.status)
              << (c.message.empty() ? "" : ": " + c.message) << '\n';
  }
  std::cout << '\n'
            << doc.cases.size() - bad << " of " << doc.cases.size() << " cases pass (seed "
            << selection.seed << ")\n";
  return allPassed(doc) ? kExitOk : kExitCaseFailed;
}

}  // namespace

void addVerifyCommand(CLI::App& app, int& exitCode) {
  auto* sub = app.add_subcommand(
      "verify",
      "Check kernels against cuBLAS: canary, the kernel's tolerance, negative control, alpha/beta "
      "(default suite: spec-correctness; exit 0 when every case and the known-answer test pass, "
      "1 otherwise)");
  auto sel = std::make_shared<cuda::Selection>();
  auto json = std::make_shared<std::string>();
  auto shard = std::make_shared<std::string>();
  auto fresh = std::make_shared<FreshEngineOpts>();
  addSelectionOptions(*sub, *sel, "spec-correctness");
  addShardOption(*sub, *shard);
  addFreshEngineOptions(*sub, *fresh, true);
  sub->add_option("--json", *json, "Also write the results document to FILE");
  sub->callback([sel, json, shard, fresh, &exitCode] {
    exitCode = verifyCommand(*sel, *json, *shard, *fresh);
  });
}

}  // namespace kwb::cli
