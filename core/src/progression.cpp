#include "kwb/progression.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

#include "kwb/family.h"

namespace kwb {

ProgressionCheck checkProgression(const std::vector<CaseResult>& cases,
                                  const std::function<int(std::string_view)>& stageOf) {
  ProgressionCheck out;
  out.checked = true;
  // (family, size) → cases in stage order.
  std::map<std::tuple<std::string, std::string, Shape, std::int64_t, std::string>,
           std::vector<std::pair<int, const CaseResult*>>>
      groups;
  for (const auto& c : cases) {
    const int stage = stageOf(c.kernel);
    if (stage <= 0 || !c.timed() || c.status != CaseStatus::kPass || c.gflops <= 0) continue;
    const std::string family = c.kernel.substr(0, c.kernel.find('.'));
    groups[{family, c.problem, c.shape, c.count, c.elementType}].push_back({stage, &c});
  }
  for (auto& [key, list] : groups) {
    std::sort(list.begin(), list.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::size_t i = 1; i < list.size(); ++i) {
      const CaseResult& next = *list[i].second;
      // The predecessor: the nearest earlier stage of the same precision, else the nearest
      // earlier stage of any precision (the first tensor-core stage follows the FP32 ones).
      const CaseResult* prev = list[i - 1].second;
      for (std::size_t j = i; j-- > 0;)
        if (list[j].second->precision == next.precision) {
          prev = list[j].second;
          break;
        }
      if (next.gflops < prev->gflops) {
        // Same shape, so slower means a longer time: noise when the later stage's fastest
        // plausible median (CI low) is not above the earlier's slowest (CI high).
        const bool noise = next.summary.ci95.low <= prev->summary.ci95.high;
        out.violations.push_back({next.shape, prev->kernel, next.kernel, prev->gflops, next.gflops,
                                  noise, sizeLabel(next)});
      }
    }
  }
  return out;
}

ProgressionCheck checkProgression(const RunDocument& doc) {
  return checkProgression(doc.cases, [&](std::string_view id) {
    if (baseKernelId(id) != id) return 0;  // a tuning configuration
    const KernelInfo* k = doc.kernelInfo(id);
    return k && !k->reference ? k->stage : 0;
  });
}

}  // namespace kwb
