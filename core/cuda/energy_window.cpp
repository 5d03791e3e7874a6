// SPDX-License-Identifier: Apache-2.0
#include "kwb/cuda/energy_window.h"

#include <atomic>
#include <chrono>
#include <thread>

#include "kwb/cuda/measure.h"
#include "kwb/cuda/nvml_sampler.h"
#include "kwb/family.h"

namespace kwb::cuda {

std::optional<std::uint64_t> NvmlEnergyCounter::readMj(std::string& why) {
  return m_nvml.energyMj(why);
}

namespace {

using Clock = std::chrono::steady_clock;

// Reads the counter into `trace` about every millisecond while launches run: a counter that
// moves less often shows its own step; one that moves more often shows at most a
// millisecond's energy, which bounds its step from above.
class CounterPoller {
 public:
  CounterPoller(energy::EnergyCounter& counter, energy::CounterTrace& trace)
      : m_counter(counter), m_trace(trace) {
    m_thread = std::thread([this] {
      std::string why;
      while (m_running) {
        if (const auto mj = m_counter.readMj(why)) m_trace.add(*mj);
        std::this_thread::sleep_for(std::chrono::milliseconds(1));  // polling period, not a wait
      }
    });
  }
  ~CounterPoller() {
    m_running = false;
    m_thread.join();
  }
  CounterPoller(const CounterPoller&) = delete;
  CounterPoller& operator=(const CounterPoller&) = delete;

 private:
  energy::EnergyCounter& m_counter;
  energy::CounterTrace& m_trace;  // the caller reads it only after the poller is gone
  std::atomic<bool> m_running{true};
  std::thread m_thread;
};

}  // namespace

void setWorkPerJoule(EnergyReading& r, const CaseResult& c) {
  const Family* f = tryFindFamily(c.problem());
  if (!f || !f->work || !(r.joulesPerLaunch > 0)) return;
  const Work w = f->work(c);
  const bool bytes = f->memoryBound();
  const double amount = bytes ? w.bytes : w.flops;
  if (!(amount > 0)) return;
  r.workPerJoule = 1e-9 * amount / r.joulesPerLaunch;
  r.workUnit = bytes ? "GB/J" : "GFLOP/J";
}

EnergyReading measureCaseEnergy(Timing& timing, NvmlSampler& nvml, const CaseResult& c,
                                double seconds) {
  EnergyReading r;
  r.requestedS = seconds;
  if (!nvml.available()) {
    r.unavailable = "NVML unavailable: " + nvml.whyUnavailable();
    return r;
  }
  // The stream is idle here (the timed samples and the CUPTI check ended in a sync).
  if (!timing.runAlone(0)) {
    r.unavailable = "the case is launched by another process (kwb ab's other build)";
    return r;
  }
  const double idle = nvml.powerW().value_or(0.0);
  const double limit = nvml.powerLimitW().value_or(0.0);
  NvmlEnergyCounter counter(nvml);
  const energy::RunLaunches run = [&](std::int64_t launches, energy::CounterTrace& trace) {
    CounterPoller poller(counter, trace);
    const auto t0 = Clock::now();
    const std::int64_t ran = timing.runAlone(launches).value_or(0);
    return energy::WindowRun{ran, std::chrono::duration<double>(Clock::now() - t0).count()};
  };
  nvml.start();
  try {
    r = energy::measureWindow(counter, {.seconds = seconds, .medianMs = c.summary.median}, run);
  } catch (...) {
    nvml.stop();
    throw;
  }
  const ClockSample during = nvml.stop();
  r.idlePowerW = idle;
  r.powerLimitW = limit;
  r.sampledPowerW = during.powerWMean;
  r.smClockMhzMin = during.smClockMhzMin;
  r.smClockMhzMax = during.smClockMhzMax;
  if (r.measured()) setWorkPerJoule(r, c);
  return r;
}

}  // namespace kwb::cuda
