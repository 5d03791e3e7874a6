// SPDX-License-Identifier: Apache-2.0
#include "kwb/energy.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace kwb::energy {

std::int64_t launchesFor(double seconds, double medianMs) {
  if (!(medianMs > 0) || !std::isfinite(medianMs)) return 0;
  const double n = std::ceil(std::max(seconds, 0.0) * 1e3 / medianMs);
  // A window of more launches than this is not asked for (1 s of a 1 ns kernel is 1e9).
  constexpr double kMost = 1e12;
  return std::int64_t(std::clamp(n, 1.0, kMost));
}

double quantisationPct(double stepJ, double joules) {
  if (!(joules > 0)) return 100.0;
  return 100.0 * std::max(stepJ, 0.0) / joules;
}

double secondsForBound(double stepJ, double powerW, double pct) {
  if (!(powerW > 0) || !(pct > 0)) return 0;
  return std::max(stepJ, 0.0) * 100.0 / pct / powerW;
}

void CounterTrace::add(std::uint64_t mj) {
  if (m_readings++ > 0) {
    if (mj < m_last && m_backwards.empty())
      m_backwards = "from " + std::to_string(m_last) + " mJ to " + std::to_string(mj) + " mJ";
    if (mj > m_last) {
      ++m_steps;
      m_increase += mj - m_last;
    }
  }
  m_last = mj;
}

double CounterTrace::stepJ() const { return m_steps ? 1e-3 * double(m_increase) / m_steps : 0.0; }

namespace {

constexpr int kMaxParts = 100;

std::string fixed1(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

// The reading's figures from the counter's increase over `total`.
void fillFigures(EnergyReading& r, std::uint64_t increaseMj, const WindowRun& total,
                 const CounterTrace& trace) {
  r.windowS = total.seconds;
  r.launches = total.launches;
  r.joules = 1e-3 * double(increaseMj);
  r.joulesPerLaunch = total.launches > 0 ? r.joules / double(total.launches) : 0.0;
  r.powerW = total.seconds > 0 ? r.joules / total.seconds : 0.0;
  // Fewer than two steps: the whole increase may be one step of the counter.
  r.counterStepJ = trace.steps() >= 2 ? trace.stepJ() : r.joules;
  r.uncertaintyPct = quantisationPct(r.counterStepJ, r.joules);
}

}  // namespace

EnergyReading measureWindow(EnergyCounter& counter, const WindowSpec& spec,
                            const RunLaunches& run) {
  EnergyReading r;
  r.requestedS = spec.seconds;
  const double maxSeconds = spec.maxSeconds > 0 ? spec.maxSeconds : kMaxStretch * spec.seconds;
  std::string why;
  const auto before = counter.readMj(why);
  if (!before) {
    r.unavailable = "energy counter unreadable: " + why;
    return r;
  }
  CounterTrace trace;
  trace.add(*before);
  WindowRun total;
  std::int64_t launches = launchesFor(spec.seconds, spec.medianMs);
  if (launches == 0) {
    r.unavailable = "no median time to size the window from";
    return r;
  }
  // Each extension at least a tenth of the window: a bounded number of parts in any case.
  for (int parts = 1;; ++parts) {
    const WindowRun part = run(launches, trace);
    total.launches += part.launches;
    total.seconds += part.seconds;
    const auto after = counter.readMj(why);
    if (!after) {
      r.unavailable = "energy counter unreadable after the window: " + why;
      return r;
    }
    trace.add(*after);
    if (!trace.backwards().empty()) {
      r.unavailable = "the energy counter went backwards " + trace.backwards() +
                      " (the driver reloaded or the counter wrapped)";
      return r;
    }
    if (*after == *before) {
      r.unavailable = "the energy counter did not move in " + fixed1(total.seconds) +
                      " s of launches (this GPU does not count energy)";
      return r;
    }
    fillFigures(r, *after - *before, total, trace);
    if (r.uncertaintyPct <= kTargetBoundPct || total.seconds >= maxSeconds || parts >= kMaxParts)
      return r;
    // Long enough for the bound at the power seen, with a tenth to spare, within maxSeconds.
    const double more = 1.1 * secondsForBound(r.counterStepJ, r.powerW) - total.seconds;
    const double next = std::max(std::min(more, maxSeconds - total.seconds), 0.1 * spec.seconds);
    launches = launchesFor(next, spec.medianMs);
  }
}

}  // namespace kwb::energy
