// SPDX-License-Identifier: Apache-2.0
// The rounds of a run (docs/MEASUREMENT.md, "Rounds"): samples of every case spread over the
// run, interleaved with the cases they are compared with.
#include <algorithm>
#include <map>
#include <random>

#include "kwb/cuda/measure.h"
#include "kwb/replicates.h"

namespace kwb::cuda {
namespace {

// More rounds shrink only the rounds' part of a case's interval, so the noise target reads that
// part (no run-to-run deviation, which no number of rounds changes).
bool noisy(const Timing& t, const MeasureOptions& opt) {
  const Measurement& m = t.soFar();
  if (m.samplesMs.empty() || t.sampledSeconds() >= opt.rule.maxTimeS) return false;
  const auto e = stats::estimateReplicated(m.samplesMs, m.rounds);
  return e.median > 0 && (e.ci95.high - e.ci95.low) / 2.0 / e.median > opt.rule.maxNoise;
}

}  // namespace

void runRounds(std::vector<RoundCase>& cases, const MeasureOptions& opt,
               const std::function<bool()>& cancelled, const std::function<void(int)>& heartbeat,
               const std::function<void(int, const CudaError&)>& failed) {
  const int rounds = std::max(opt.rounds, 1);
  std::map<int, std::vector<int>> groups;  // group → case indices, in the order given
  std::vector<int> groupOrder;
  for (int i = 0; i < int(cases.size()); ++i) {
    auto& g = groups[cases[std::size_t(i)].group];
    if (g.empty()) groupOrder.push_back(cases[std::size_t(i)].group);
    g.push_back(i);
  }
  std::vector<bool> dead(cases.size(), false);
  std::mt19937_64 rng(opt.seed);

  // One round over the groups in `active`; false once cancelled.
  auto runRound = [&](int round, const std::vector<int>& active) {
    for (const int g : active) {
      const std::vector<int>& members = groups[g];
      int sweeps = 0;
      for (const int i : members)
        sweeps = std::max(sweeps, cases[std::size_t(i)].timing->sweepsPerRound(rounds));
      for (int s = 0; s < sweeps; ++s) {
        std::vector<int> order;
        for (const int i : members)
          if (!dead[std::size_t(i)] && cases[std::size_t(i)].timing->wantsSample(round, s, rounds))
            order.push_back(i);
        std::shuffle(order.begin(), order.end(), rng);
        for (const int i : order) {
          if (cancelled && cancelled()) return false;
          if (heartbeat) heartbeat(i);
          try {
            cases[std::size_t(i)].timing->take(round, s);
          } catch (const CudaError& e) {
            dead[std::size_t(i)] = true;
            failed(i, e);
            if (e.sticky()) throw;
          }
        }
      }
    }
    return true;
  };

  for (int r = 0; r < rounds; ++r)
    if (!runRound(r, groupOrder)) return;
  // nvbench's noise target: groups with a case still known worse than ±maxNoise get more
  // rounds (the whole group, so the case keeps its pairs), each case within its time cap.
  for (int extra = 0; extra < rounds && opt.rule.maxNoise > 0; ++extra) {
    std::vector<int> active;
    for (const int g : groupOrder)
      for (const int i : groups[g])
        if (!dead[std::size_t(i)] && noisy(*cases[std::size_t(i)].timing, opt)) {
          active.push_back(g);
          break;
        }
    if (active.empty() || !runRound(rounds + extra, active)) return;
  }
}

}  // namespace kwb::cuda
