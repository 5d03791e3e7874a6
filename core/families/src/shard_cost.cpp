// SPDX-License-Identifier: Apache-2.0
#include "kwb/shard_cost.h"

#include <algorithm>
#include <vector>

#include "kwb/family.h"
#include "kwb/stats.h"

namespace kwb {

NominalRates ratesFor(const KernelDescriptor& kernel) {
  NominalRates r;
  if (kernel.typicalFlopsPerS > 0) r.fp32FlopsPerS = r.tensorFlopsPerS = kernel.typicalFlopsPerS;
  return r;
}

namespace {

// Verification (canary, negative control, NaN, alpha/beta), the CUPTI check and the timed
// output's check: an H200's 8192³ cases took 11-13 launches' time besides their samples.
constexpr int kVerifyLaunches = 12;

// The family's declared work of the case; none for a family that declares none.
Work workOf(const CaseResult& planned) {
  const Family* family = tryFindFamily(planned.problem());
  return family && family->work ? family->work(planned) : Work{};
}

}  // namespace

double estimateLaunchSeconds(const CaseResult& planned, const NominalRates& rates) {
  const Work w = workOf(planned);
  if (w.flops <= 0 && w.bytes <= 0) return rates.launchS;
  const double flopRate =
      planned.precision == Precision::kFp32 ? rates.fp32FlopsPerS : rates.tensorFlopsPerS;
  return rates.launchS + std::max(w.flops / flopRate, w.bytes / rates.bytesPerS);
}

double estimateCaseSeconds(const CaseResult& planned, const RunSettings& settings,
                           const NominalRates& rates) {
  const double launch = estimateLaunchSeconds(planned, rates);
  constexpr double kNoiseRounds = 1.6;  // the samples of a long launch, past the minimum count
  double seconds =
      rates.caseOverheadS + workOf(planned).bytes / rates.caseBytesPerS + kVerifyLaunches * launch;
  if (settings.verifyOnly) return seconds;
  const double minCount = kNoiseRounds * std::max(settings.minSamples, 1) * launch;
  const double sampling =
      std::max(minCount, std::min(std::max(settings.minTimeS, minCount),
                                  settings.maxTimeS > 0 ? settings.maxTimeS : minCount));
  return seconds + std::max(settings.warmups, 0) * launch + sampling;
}

std::optional<double> measuredCaseSeconds(const CaseResult& measured, const RunSettings& settings,
                                          const NominalRates& rates) {
  const std::vector<double>& ms = measured.samplesMs;  // per launch, one a sample
  if (ms.empty()) return std::nullopt;
  const double launch = stats::median(ms) / 1e3;
  double sampled = 0;
  for (double m : ms) sampled += m / 1e3;
  sampled *= std::max(measured.launchesPerSample, 1);
  const double checks =
      (kVerifyLaunches + (settings.verifyOnly ? 0 : std::max(settings.warmups, 0))) * launch;
  return rates.caseOverheadS + workOf(measured).bytes / rates.caseBytesPerS + checks +
         (settings.verifyOnly ? 0.0 : sampled);
}

std::string caseCostKey(const CaseResult& c) {
  return c.kernel + " " + sizeKey(c.size) + (c.config ? " [" + c.config->name + "]" : "");
}

}  // namespace kwb
