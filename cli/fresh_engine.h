// SPDX-License-Identifier: Apache-2.0
#pragma once
// kwb run, verify and tune after a fault that lost the CUDA context (docs/RELIABILITY.md, "A
// crashing kernel costs one case"): the cases left run in a child kwb of the same command, a new
// process with a new context, whose events join this run's document and stream. At most
// --max-restarts children in a chain.
#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

#include "kwb/cuda/runner.h"

namespace kwb::cli {

struct FreshEngineOpts {
  int maxRestarts = 3;        // --max-restarts: fresh engines this run may still start
  std::string continueCases;  // --continue-cases (hidden): the child's cases of the plan
  bool stream = false;        // --stream (hidden; verify, tune): a child's events on stdout
};

// Adds --max-restarts and the hidden --continue-cases; with `streamOption`, a hidden --stream
// too (verify and tune, whose fresh engine streams its events to its parent: kwb run has its own
// --stream, and its fresh engine uses that).
void addFreshEngineOptions(CLI::App& sub, FreshEngineOpts& o, bool streamOption = false);

// A fresh engine's event, as one JSON line on stdout (verify and tune; kwb run writes its own).
void writeEventLine(const StreamEvent& e);

// A child's plan: the cases --continue-cases names (of the plan as it is), in order; returns
// their indices in that plan (empty without --continue-cases). Throws InputError for a bad
// --continue-cases, or verify's and tune's --stream without it.
std::vector<std::size_t> selectContinuedCases(const FreshEngineOpts& o,
                                              std::vector<cuda::PlanCase>& plan);

// Sets cfg.continueElsewhere: this kwb's command line (less its outputs) over the cases left,
// with --stream, --continue-cases and one restart fewer; with none left, the cases are skipped
// naming the bound. --max-restarts 0 given by the user leaves the cases skipped as before.
// `continued`: what selectContinuedCases returned, so a child's child is given indices of the
// whole plan, which its command line builds again. `shard`: the --shard part this process runs
// (a pool's worker is given it per request, not on its command line), which the child is given
// too. `handingOver` runs before a child starts (kwb run stops its --case-timeout watch there:
// the child has the option and watches its own).
void useFreshEngines(const FreshEngineOpts& o, const std::vector<std::size_t>& continued,
                     const std::string& shard, cuda::RunConfig& cfg,
                     std::function<void()> handingOver);

}  // namespace kwb::cli
