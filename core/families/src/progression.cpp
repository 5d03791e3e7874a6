// SPDX-License-Identifier: Apache-2.0
#include "kwb/progression.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "kwb/family.h"
#include "kwb/format.h"

namespace kwb {

ProgressionCheck checkProgression(const std::vector<CaseResult>& cases,
                                  const std::function<int(std::string_view)>& stageOf) {
  ProgressionCheck out;
  out.checked = true;
  // (family, size) → cases in stage order.
  std::map<std::pair<std::string, CaseSize>, std::vector<std::pair<int, const CaseResult*>>> groups;
  for (const auto& c : cases) {
    const int stage = stageOf(c.kernel);
    if (stage <= 0 || !c.timed() || c.status != CaseStatus::kPass || c.gflops <= 0) continue;
    const std::string family = c.kernel.substr(0, c.kernel.find('.'));
    groups[{family, c.size}].push_back({stage, &c});
  }
  for (auto& [key, list] : groups) {
    std::sort(list.begin(), list.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::size_t i = 1; i < list.size(); ++i) {
      const CaseResult& next = *list[i].second;
      // The predecessor: the nearest earlier stage of the same precision, else the nearest
      // earlier FP32 stage (the first stage of each tensor-core precision follows the FP32
      // ones: the first BF16 stage is not held to the FP16 stages before it, which are its
      // twins, not its ancestors), else the nearest earlier stage of any precision.
      const CaseResult* prev = nullptr;
      for (Precision want : {next.precision, Precision::kFp32})
        for (std::size_t j = i; !prev && j-- > 0;)
          if (list[j].second->precision == want) prev = list[j].second;
      if (!prev) prev = list[i - 1].second;
      if (next.gflops < prev->gflops) {
        // Same shape, so slower means a longer time: noise when the later stage's fastest
        // plausible median (CI low) is not above the earlier's slowest (CI high).
        const bool noise = next.summary.ci95.low <= prev->summary.ci95.high;
        out.violations.push_back({next.shape(), prev->kernel, next.kernel, prev->gflops,
                                  next.gflops, noise, sizeLabel(next)});
      }
    }
  }
  return out;
}

namespace {
// The first of the later stage's notes that covers the case (its size, its alignment).
std::string explanationFor(const CaseResult& c, const KernelInfo* later) {
  if (!later) return {};
  const bool gemm = !isOneDimensional(c);
  const Shape shape = c.shape();
  const bool unaligned = gemm && (shape.k % 4 != 0 || shape.n % 4 != 0);
  const double flops = gemm ? shape.flops() : 0.0;
  for (const ProgressionNote& n : later->progressionNotes) {
    if (n.unalignedOnly && !unaligned) continue;
    if (n.maxFlops > 0 && (!gemm || flops > n.maxFlops)) continue;
    if (n.maxCount > 0 && (gemm || c.size.number("count") > n.maxCount)) continue;
    if (!n.axis.empty()) {
      const SizeAxis* a = c.size.axis(n.axis);
      if (!a || !a->isNumber() || a->number < n.axisMin) continue;
    }
    if (!n.word.empty() && std::none_of(c.size.axes.begin(), c.size.axes.end(),
                                        [&](const SizeAxis& a) { return a.word == n.word; }))
      continue;
    return n.why;
  }
  return {};
}
}  // namespace

ProgressionCheck checkProgression(const RunDocument& doc) {
  ProgressionCheck out = checkProgression(doc.cases, [&](std::string_view id) {
    if (baseKernelId(id) != id) return 0;  // a tuning configuration
    const KernelInfo* k = doc.kernelInfo(id);
    return k && !k->reference ? k->stage : 0;
  });
  for (ProgressionViolation& v : out.violations)
    for (const CaseResult& c : doc.cases)
      if (c.kernel == v.to && sizeLabel(c) == v.size) {
        v.explanation = explanationFor(c, doc.kernelInfo(v.to));
        break;
      }
  return out;
}

std::string violationText(const ProgressionViolation& v) {
  return (v.size.empty() ? toString(v.shape) : v.size) + ": " + v.to + " " + fixed(v.toGflops, 1) +
         " GFLOP/s < " + v.from + " " + fixed(v.fromGflops, 1) + " GFLOP/s" +
         (v.withinNoise ? " (within noise: the medians' 95% CIs overlap)" : "") +
         (v.explanation.empty() ? "" : " — explained: " + v.explanation);
}

std::string violationCount(const ProgressionCheck& p) {
  const auto explained = std::count_if(p.violations.begin(), p.violations.end(),
                                       [](const auto& v) { return !v.explanation.empty(); });
  return std::to_string(p.violations.size()) + " violation(s)" +
         (explained ? ", " + std::to_string(explained) + " explained by the stages' notes" : "");
}

}  // namespace kwb
