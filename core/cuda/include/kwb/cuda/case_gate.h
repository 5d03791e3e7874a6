// SPDX-License-Identifier: Apache-2.0
#pragma once
// Bounded cases on the device: measures the rate the budget rule (kwb/case_budget.h) needs
// and answers, before a case starts, whether it fits in --max-case-seconds.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kwb/case_budget.h"
#include "kwb/cuda/gemm_session.h"
#include "kwb/cuda/measure.h"

namespace kwb::cuda {

class CaseGate {
 public:
  // maxCaseSeconds ≤ 0: no bound, nothing is probed.
  CaseGate(GemmSession& session, const MeasureOptions& measure, std::uint64_t seed, bool verifyOnly,
           double maxCaseSeconds);

  // The skip reason of a case whose estimate exceeds the bound, or nothing. The rate is the
  // kernel's GFLOP/s measured in this run at its largest finished shape, else one launch timed
  // at probeShape(s) (once per kernel). CUDA errors of the probe propagate like the case's.
  std::optional<std::string> skipReason(const KernelDescriptor& k, const Shape& s,
                                        const std::vector<CaseResult>& done);

 private:
  std::optional<RateEstimate> rateFor(const KernelDescriptor& k, const Shape& s,
                                      const std::vector<CaseResult>& done);
  CaseLaunches launchesFor(double launchS) const;

  GemmSession& m_session;
  MeasureOptions m_measure;
  std::uint64_t m_seed;
  bool m_verifyOnly;
  double m_maxCaseSeconds;
  std::map<std::string, std::optional<RateEstimate>> m_probed;
};

}  // namespace kwb::cuda
