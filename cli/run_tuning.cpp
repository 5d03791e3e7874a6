// SPDX-License-Identifier: Apache-2.0
#include "run_tuning.h"

#include <algorithm>
#include <map>

#include "kwb/error.h"
#include "kwb/tune_buckets.h"
#include "tuning_variants.h"

namespace kwb::cli {

AppliedTuning applyTuning(const std::string& path, std::vector<cuda::PlanCase>& plan) {
  RunDocument doc;
  try {
    doc = readDocument(path);  // its messages name the file
  } catch (const InputError& e) {
    throw InputError(std::string("--tuning: ") + e.what());
  }
  const std::string where = "--tuning '" + path + "'";
  if (!doc.tuning)
    throw InputError(where +
                     " holds no tuning sweep (write one with kwb tune --shapes ... --json)");
  const TuneGrid& grid = *doc.tuning;
  if (std::none_of(plan.begin(), plan.end(),
                   [&](const cuda::PlanCase& p) { return p.kernel->id == grid.kernel; }))
    throw InputError(where + " tunes " + grid.kernel +
                     ", which this run does not select (add it to --kernels)");
  const std::vector<kernels::TuneVariant> variants = kernels::tuneVariants(grid.kernel);
  std::string known(kDefaultConfig);
  for (const auto& v : variants) known += ", " + v.config.name;
  for (const TuneChoice& c : grid.choices)
    if (c.config != kDefaultConfig &&
        std::none_of(variants.begin(), variants.end(),
                     [&](const kernels::TuneVariant& v) { return v.config.name == c.config; }))
      throw InputError(where + " chooses configuration '" + c.config + "' for " +
                       toString(c.shape) + ", which " + grid.kernel +
                       " does not have in this build (it has: " + known + ")");

  AppliedTuning out;
  out.kernel = grid.kernel;
  std::map<std::string, const KernelDescriptor*> made;  // one descriptor per configuration
  for (cuda::PlanCase& p : plan) {
    if (p.kernel->id != grid.kernel) continue;
    const TuneChoice& c = choiceFor(grid.choices, p.shape());
    const std::string tunedFor = "tuned for " + toString(c.shape);
    if (c.config == kDefaultConfig) {
      p.ranAs = grid.kernel + " (default, " + tunedFor + ")";
      continue;
    }
    const auto v =
        std::find_if(variants.begin(), variants.end(),
                     [&](const kernels::TuneVariant& x) { return x.config.name == c.config; });
    KernelDescriptor d = kernels::withVariant(*p.kernel, *v);
    p.ranAs = d.id + " (" + tunedFor + ")";
    auto& slot = made[c.config];
    if (!slot) {
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

}  // namespace kwb::cli
