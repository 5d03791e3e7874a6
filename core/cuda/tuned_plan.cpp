// SPDX-License-Identifier: Apache-2.0
#include "kwb/cuda/tuned_plan.h"

#include <algorithm>
#include <map>

#include "kwb/error.h"
#include "kwb/tune_buckets.h"

namespace kwb::cuda {
namespace {

// The tuning sweep of the document at `path`, or an InputError naming it.
TuneGrid readSweep(const std::string& path, const std::string& where) {
  RunDocument doc;
  try {
    doc = readDocument(path);  // its messages name the file
  } catch (const InputError& e) {
    throw InputError(std::string("--tuning: ") + e.what());
  }
  if (!doc.tuning)
    throw InputError(where +
                     " holds no tuning sweep (write one with kwb tune --shapes ... --json)");
  return std::move(*doc.tuning);
}

// Every configuration the sweep chose, checked against what this build has.
void checkChoices(const TuneGrid& grid, const std::vector<TuneOption>& options,
                  const std::string& where) {
  std::string known(kDefaultConfig);
  for (const auto& o : options) known += ", " + o.config;
  for (const TuneChoice& c : grid.choices)
    if (c.config != kDefaultConfig &&
        std::none_of(options.begin(), options.end(),
                     [&](const TuneOption& o) { return o.config == c.config; }))
      throw InputError(where + " chooses configuration '" + c.config + "' for " +
                       toString(c.shape) + ", which " + grid.kernel +
                       " does not have in this build (it has: " + known + ")");
}

}  // namespace

AppliedTuning applyTuning(const std::string& path, std::vector<PlanCase>& plan,
                          const TuneOptionsFn& options) {
  const std::string where = "--tuning '" + path + "'";
  const TuneGrid grid = readSweep(path, where);
  const auto first = std::find_if(plan.begin(), plan.end(),
                                  [&](const PlanCase& p) { return p.kernel->id == grid.kernel; });
  if (first == plan.end())
    throw InputError(where + " tunes " + grid.kernel +
                     ", which this run does not select (add it to --kernels)");
  const std::vector<TuneOption> variants = options(*first->kernel);
  checkChoices(grid, variants, where);

  AppliedTuning out;
  out.kernel = grid.kernel;
  std::map<std::string, const KernelDescriptor*> made;  // one descriptor per configuration
  for (PlanCase& p : plan) {
    if (p.kernel->id != grid.kernel) continue;
    const TuneChoice& c = choiceFor(grid.choices, p.shape());
    const std::string tunedFor = "tuned for " + toString(c.shape);
    if (c.config == kDefaultConfig) {
      p.ranAs = grid.kernel + " (default, " + tunedFor + ")";
      continue;
    }
    const auto v = std::find_if(variants.begin(), variants.end(),
                                [&](const TuneOption& x) { return x.config == c.config; });
    p.ranAs = v->kernel.id + " (" + tunedFor + ")";
    auto& slot = made[c.config];
    if (!slot) {
      KernelDescriptor d = v->kernel;
      d.id = p.kernel->id;  // the case stays the kernel's; ranAs names the configuration
      slot = &out.descriptors.emplace_back(std::move(d));
    }
    p.kernel = slot;
  }
  return out;
}

std::string tunedCasesText(const RunDocument& doc, const AppliedTuning& tuning) {
  std::string s;
  for (const CaseResult& c : doc.cases)
    if (c.kernel == tuning.kernel)
      s += "  " + tuning.kernel + " " + toString(c.shape()) + " ran " + c.ranKernel + "\n";
  return s.empty() ? s : "tuned cases:\n" + s;
}

}  // namespace kwb::cuda
