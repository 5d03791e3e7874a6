// SPDX-License-Identifier: Apache-2.0
#include "kwb/paired.h"

#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

#include "kwb/replicates.h"

namespace kwb {

PairedRatio pairedRatio(const std::string& reference, const TaggedSamples& stage,
                        const TaggedSamples& referenceSamples) {
  for (const TaggedSamples* t : {&stage, &referenceSamples})
    if (t->ms.size() != t->rounds.size() || t->ms.size() != t->sweeps.size())
      throw std::invalid_argument("pairedRatio: samples, rounds and sweeps differ in length");
  std::map<std::pair<int, int>, double> ref;
  for (std::size_t i = 0; i < referenceSamples.ms.size(); ++i)
    ref.emplace(std::pair{referenceSamples.rounds[i], referenceSamples.sweeps[i]},
                referenceSamples.ms[i]);
  std::vector<double> pct;
  std::vector<int> rounds;
  for (std::size_t i = 0; i < stage.ms.size(); ++i) {
    const auto it = ref.find({stage.rounds[i], stage.sweeps[i]});
    if (it == ref.end() || !(stage.ms[i] > 0) || !(it->second > 0)) continue;
    pct.push_back(100.0 * it->second / stage.ms[i]);
    rounds.push_back(stage.rounds[i]);
  }
  PairedRatio out;
  out.reference = reference;
  out.pairs = int(pct.size());
  if (pct.empty()) return out;
  const auto e = stats::estimateReplicated(pct, rounds, stats::IntervalKind::kConfidence);
  out.pct = e.median;
  out.ci95 = e.ci95;
  out.replicates = e.uncertainty.replicates;
  return out;
}

}  // namespace kwb
