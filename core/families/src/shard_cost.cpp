// SPDX-License-Identifier: Apache-2.0
#include "kwb/shard_cost.h"

#include <algorithm>

#include "kwb/family.h"

namespace kwb {

double estimateLaunchSeconds(const CaseResult& planned, const NominalRates& rates) {
  const Family* family = tryFindFamily(planned.problem());
  if (!family || !family->work) return rates.launchS;
  const Work w = family->work(planned);
  const double flopRate =
      planned.precision == Precision::kFp32 ? rates.fp32FlopsPerS : rates.tensorFlopsPerS;
  return rates.launchS + std::max(w.flops / flopRate, w.bytes / rates.bytesPerS);
}

double estimateCaseSeconds(const CaseResult& planned, const RunSettings& settings,
                           const NominalRates& rates) {
  const double launch = estimateLaunchSeconds(planned, rates);
  constexpr int kVerifyLaunches = 3;  // canary, alpha/beta and the reference
  double seconds = rates.caseOverheadS + kVerifyLaunches * launch;
  if (settings.verifyOnly) return seconds;
  const double minCount = std::max(settings.minSamples, 1) * launch;
  const double sampling =
      std::max(minCount, std::min(std::max(settings.minTimeS, minCount),
                                  settings.maxTimeS > 0 ? settings.maxTimeS : minCount));
  return seconds + std::max(settings.warmups, 0) * launch + sampling;
}

}  // namespace kwb
