// SPDX-License-Identifier: Apache-2.0
#include "kwb/tune_buckets.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "kwb/error.h"
#include "kwb/format.h"
#include "kwb/tuning.h"

namespace kwb {

namespace {

bool holds(const TuneChoice& c, double flops) { return c.minFlops <= flops && flops < c.maxFlops; }

}  // namespace

std::vector<TuneChoice> chooseByBucket(std::span<const CaseResult> results,
                                       std::span<const Shape> tuned) {
  if (tuned.empty()) throw InputError("a tuning sweep needs at least one shape");
  std::vector<Shape> shapes(tuned.begin(), tuned.end());
  std::stable_sort(shapes.begin(), shapes.end(),
                   [](const Shape& a, const Shape& b) { return a.flops() < b.flops(); });
  std::vector<TuneChoice> out;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    if (i > 0 && shapes[i].flops() == shapes[i - 1].flops())
      throw InputError("shapes " + toString(shapes[i - 1]) + " and " + toString(shapes[i]) +
                       " do the same FLOPs, and buckets go by FLOPs: tune one of them");
    TuneChoice c;
    c.shape = shapes[i];
    c.minFlops = i == 0 ? 0.0 : std::sqrt(shapes[i - 1].flops() * shapes[i].flops());
    c.maxFlops = i + 1 == shapes.size() ? std::numeric_limits<double>::infinity()
                                        : std::sqrt(shapes[i].flops() * shapes[i + 1].flops());
    std::vector<CaseResult> here;
    std::copy_if(results.begin(), results.end(), std::back_inserter(here),
                 [&](const CaseResult& r) { return r.shape() == c.shape; });
    if (const auto best = fastest(here)) {
      c.config = here[*best].config ? here[*best].config->name : std::string(kDefaultConfig);
      c.gflops = here[*best].gflops;
    } else {
      c.config = kDefaultConfig;
    }
    out.push_back(std::move(c));
  }
  return out;
}

const TuneChoice& choiceFor(std::span<const TuneChoice> choices, const Shape& s) {
  const auto it = std::find_if(choices.begin(), choices.end(),
                               [&](const TuneChoice& c) { return holds(c, s.flops()); });
  if (it == choices.end())
    throw InputError("no tuning bucket holds " + toString(s) + " (" + fixed(s.flops(), 0) +
                     " FLOPs)");
  return *it;
}

void checkBuckets(std::span<const TuneChoice> choices) {
  if (choices.empty()) throw InputError("the tuning sweep has no choices");
  for (std::size_t i = 0; i < choices.size(); ++i) {
    const TuneChoice& c = choices[i];
    const double start = i == 0 ? 0.0 : choices[i - 1].maxFlops;
    const double end =
        i + 1 == choices.size() ? std::numeric_limits<double>::infinity() : choices[i + 1].minFlops;
    if (c.minFlops != start || c.maxFlops != end || !holds(c, c.shape.flops()))
      throw InputError("tuning choice " + std::to_string(i + 1) + " (" + toString(c.shape) +
                       ") is not a bucket: it must hold its shape, start where the one before "
                       "ends (0 for the first) and end where the next starts (null for the last)");
  }
}

}  // namespace kwb
