// SPDX-License-Identifier: Apache-2.0
#include "fresh_engine.h"

#include <iostream>

#include "kwb/error.h"
#include "kwb/fresh_engine.h"
#include "pool_run.h"

namespace kwb::cli {

void addFreshEngineOptions(CLI::App& sub, FreshEngineOpts& o, bool streamOption) {
  sub.add_option("--max-restarts", o.maxRestarts,
                 "After a kernel fault that loses the CUDA context, run the cases left in a "
                 "fresh engine (a new process), at most N times per run; 0: skip them (default 3)")
      ->check(CLI::Range(0, 1000));
  sub.add_option("--continue-cases", o.continueCases)->group("");  // a fresh engine's cases
  if (streamOption) sub.add_flag("--stream", o.stream)->group("");
}

void writeEventLine(const StreamEvent& e) { std::cout << toJsonLine(e) << '\n' << std::flush; }

std::vector<std::size_t> selectContinuedCases(const FreshEngineOpts& o,
                                              std::vector<cuda::PlanCase>& plan) {
  // CLI11's needs() names no hidden option in its message: this one does.
  if (o.stream && o.continueCases.empty())
    throw InputError(
        "--stream: only a fresh engine streams its events here (with --continue-cases)");
  if (o.continueCases.empty()) return {};
  std::vector<std::size_t> indices = parseCaseIndexList(o.continueCases, plan.size());
  std::vector<cuda::PlanCase> picked;
  picked.reserve(indices.size());
  for (const std::size_t i : indices) picked.push_back(plan[i]);
  plan = std::move(picked);
  return indices;
}

void useFreshEngines(const FreshEngineOpts& o, const std::vector<std::size_t>& continued,
                     const std::string& shard, cuda::RunConfig& cfg,
                     std::function<void()> handingOver) {
  // A fresh engine times what it verified before each user kernel's case, so a kernel that
  // faults again costs no verified case of the others a second time.
  if (!continued.empty()) cfg.isolateUserKernels = true;
  if (o.maxRestarts == 0 && continued.empty()) return;  // the user asked for none
  const int left = o.maxRestarts;
  cfg.continueElsewhere = [left, continued, shard, handingOver = std::move(handingOver)](
                              const std::vector<std::size_t>& indices,
                              const cuda::EventSink& sink) -> std::string {
    if (left == 0) return "no fresh engine left (--max-restarts)";
    if (handingOver) handingOver();
    StreamEvent note(EventType::kLog);
    note.level = "warn";
    note.message = "the CUDA context was lost: the " + std::to_string(indices.size()) +
                   " case(s) left run in a fresh engine (a new process and CUDA context; " +
                   std::to_string(left - 1) + " more allowed by --max-restarts)";
    sink(note);
    std::vector<std::size_t> whole = indices;  // in the plan the child's command line builds
    if (!continued.empty())
      for (std::size_t& i : whole) i = continued[i];
    std::vector<std::string> argv = childCommandLine(
        nullptr, {"--json", "--csv", "--md", "--continue-cases", "--max-restarts", "--shard"});
    if (!shard.empty()) argv.insert(argv.end(), {"--shard", shard});
    argv.insert(argv.end(), {"--stream", "--continue-cases", caseIndexList(whole), "--max-restarts",
                             std::to_string(left - 1)});
    return runInFreshEngine(argv, indices, [&](const StreamEvent& e) { sink(e); });
  };
}

}  // namespace kwb::cli
