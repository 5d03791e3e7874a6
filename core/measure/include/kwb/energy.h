// SPDX-License-Identifier: Apache-2.0
#pragma once
// Energy per launch (kwb run --energy; docs/MEASUREMENT.md, "Energy per launch"): after a
// case's timed rounds, its kernel runs back to back on its own for a window bracketed by the
// board's energy counter (NVML's total energy, millijoules since the driver loaded). This is
// the arithmetic of that window and its procedure over an abstract counter, so tests feed it
// counters that step coarsely, never move or go backwards.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace kwb {

// What one case's energy window measured. Every figure is the whole board's: idle power is
// part of it and is not subtracted (idlePowerW is recorded beside it).
struct EnergyReading {
  std::string unavailable;     // why there is no energy figure; empty when measured
  double requestedS = 0;       // the window asked for (--energy SECONDS)
  double windowS = 0;          // from the first launch to the end of the last stream sync
  std::int64_t launches = 0;   // launches in the window
  double joules = 0;           // the counter's increase over the window
  double joulesPerLaunch = 0;  // joules / launches
  double powerW = 0;           // joules / windowS
  double sampledPowerW = 0;    // mean of NVML's power readings during the window; 0: none
  double idlePowerW = 0;       // the board's power read just before the window; 0: not read
  double powerLimitW = 0;      // the board's enforced power limit; 0: not read
  double counterStepJ = 0;     // the counter's step as observed during the window
  double uncertaintyPct = 0;   // quantisation bound of `joules`: counterStepJ / joules, in %
  double smClockMhzMin = 0;    // NVML's SM clock during the window; 0: not read
  double smClockMhzMax = 0;
  double workPerJoule = 0;  // the family's work per joule, in workUnit; 0: no declared work
  std::string workUnit;     // "GFLOP/J" (compute-bound families) or "GB/J" (memory-bound)

  bool measured() const { return unavailable.empty() && joules > 0; }
};

namespace energy {

// A window is long enough when its quantisation bound is below this (in %).
inline constexpr double kTargetBoundPct = 1.0;
// A window is extended for the bound up to this many times the seconds asked for.
inline constexpr double kMaxStretch = 10.0;

// Launches that fill `seconds` at `medianMs` a launch: at least 1; 0 when the median is not a
// positive finite number.
std::int64_t launchesFor(double seconds, double medianMs);
// The quantisation bound, in %, of an energy difference of `joules` read from a counter that
// moves in steps of `stepJ`: each end of the window may miss up to one step, and the two ends'
// misses cancel except for at most one step. 100 when `joules` is not positive.
double quantisationPct(double stepJ, double joules);
// Seconds a window at `powerW` needs for a bound of `pct` with a counter step of `stepJ`.
double secondsForBound(double stepJ, double powerW, double pct = kTargetBoundPct);

// The readings of the counter over a window, in order: its steps. Each increase between
// two readings counts as one step of the counter; readings that repeat are no step. The mean
// increase per step is the counter's observed step: exact when the counter moves less often
// than it is read, an upper bound when it moves more often.
class CounterTrace {
 public:
  void add(std::uint64_t mj);
  int readings() const { return m_readings; }
  int steps() const { return m_steps; }
  // The mean increase per step in joules; 0 with no step.
  double stepJ() const;
  // Where the counter first went down, if it did: "from A mJ to B mJ".
  const std::string& backwards() const { return m_backwards; }

 private:
  int m_readings = 0;
  int m_steps = 0;
  std::uint64_t m_last = 0;
  std::uint64_t m_increase = 0;
  std::string m_backwards;
};

// The board's energy counter. Implementations: NVML's (kwb/cuda/energy_window.h), tests' fakes.
class EnergyCounter {
 public:
  virtual ~EnergyCounter() = default;
  // Millijoules since the driver loaded, or nothing with the reason in `why`.
  virtual std::optional<std::uint64_t> readMj(std::string& why) = 0;
};

struct WindowSpec {
  double seconds = 1.0;   // at least this long
  double medianMs = 0;    // the case's measured median, per launch
  double maxSeconds = 0;  // longest it may grow for the bound; 0: kMaxStretch × seconds
};
// What running some launches took: how many ran and the seconds from first launch to sync.
struct WindowRun {
  std::int64_t launches = 0;
  double seconds = 0;
};
// Runs `launches` back to back and waits for them, adding the counter's readings during the
// run to `trace` (the engine polls it on a thread; tests add what their fake counter shows).
using RunLaunches = std::function<WindowRun(std::int64_t launches, CounterTrace& trace)>;

// The window: reads the counter, runs launches for spec.seconds, reads it again, and extends
// the window while the quantisation bound is above kTargetBoundPct and it is shorter than
// maxSeconds. A counter that cannot be read, never moves or goes backwards gives a reading
// whose `unavailable` says so; nothing is thrown for it. The power and clock fields, the idle
// and limit readings and the work per joule are the caller's.
EnergyReading measureWindow(EnergyCounter& counter, const WindowSpec& spec, const RunLaunches& run);

}  // namespace energy
}  // namespace kwb
