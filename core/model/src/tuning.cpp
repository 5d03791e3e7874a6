// SPDX-License-Identifier: Apache-2.0
#include "kwb/tuning.h"

namespace kwb {

std::optional<std::size_t> fastest(std::span<const CaseResult> results) {
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const CaseResult& r = results[i];
    if (r.status != CaseStatus::kPass || !(r.summary.median > 0)) continue;
    if (!best || r.summary.median < results[*best].summary.median) best = i;
  }
  return best;
}

}  // namespace kwb
