// SPDX-License-Identifier: Apache-2.0
#include "kwb/cuda/case_gate.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "kwb/error.h"

namespace kwb::cuda {

CaseGate::CaseGate(GemmSession& session, const MeasureOptions& measure, std::uint64_t seed,
                   bool verifyOnly, double maxCaseSeconds)
    : m_session(session),
      m_measure(measure),
      m_seed(seed),
      m_verifyOnly(verifyOnly),
      m_maxCaseSeconds(maxCaseSeconds) {}

CaseLaunches CaseGate::launchesFor(double launchS) const {
  CaseLaunches n;
  if (m_verifyOnly) {
    n.warmups = n.samples = n.cuptiCheck = 0;
    return n;
  }
  n.warmups = 1 + std::max(m_measure.warmups, 3);  // the plain first launch, then warm-ups
  n.samples = plannedSamples(m_measure.rule, launchS);
  if (m_measure.cuptiCheck && m_measure.timer != TimerMode::kCupti) {
    // The CUPTI check stops after two samples once the time cap has passed (measure.cpp).
    const int byTime = int(std::ceil(m_measure.rule.maxTimeS / std::max(launchS, 1e-9)));
    n.cuptiCheck = std::min(m_measure.cuptiCheckSamples, std::max(2, byTime));
  }
  return n;
}

std::optional<RateEstimate> CaseGate::rateFor(const KernelDescriptor& k, const Shape& s,
                                              const std::vector<CaseResult>& done) {
  const CaseResult* best = nullptr;
  for (const auto& c : done)
    if (c.kernel == k.id && c.gflops > 0 && (!best || c.shape().flops() > best->shape().flops()))
      best = &c;
  if (best)
    return RateEstimate{best->gflops * 1e9,
                        "measured at " + toString(best->shape()) + " in this run"};

  if (const auto it = m_probed.find(k.id); it != m_probed.end()) return it->second;
  std::optional<RateEstimate> rate;
  try {
    const Shape probe = probeShape(s);
    const auto p = m_session.prepare(k, probe, m_seed);
    const GemmArgs args = p->args(1.0f, 0.0f);
    k.launch(args);  // module loading and first-call work out of the timed launch
    KWB_CUDA_CHECK(cudaStreamSynchronize(m_session.stream()));
    const auto t0 = std::chrono::steady_clock::now();
    k.launch(args);
    KWB_CUDA_CHECK(cudaStreamSynchronize(m_session.stream()));
    const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (sec > 0) rate = RateEstimate{probe.flops() / sec, "one launch timed at " + toString(probe)};
  } catch (const InputError&) {
    // The probe shape did not fit: the case runs unestimated.
  }
  m_probed[k.id] = rate;
  return rate;
}

std::optional<std::string> CaseGate::skipReason(const KernelDescriptor& k, const Shape& s,
                                                const std::vector<CaseResult>& done) {
  if (!needsEstimate(s, m_maxCaseSeconds)) return std::nullopt;
  const auto rate = rateFor(k, s, done);
  if (!rate) return std::nullopt;
  return budgetSkipReason(s, *rate, launchesFor(launchSeconds(s, rate->flopsPerSecond)),
                          m_maxCaseSeconds);
}

}  // namespace kwb::cuda
