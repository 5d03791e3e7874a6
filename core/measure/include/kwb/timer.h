// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <string>
#include <string_view>

namespace kwb {

// Which clock made a timing figure. Every number the workbench prints, exports or plots
// carries one of these (docs/MEASUREMENT.md explains each and why the default is the default).
enum class TimerMode {
  // GPU time: the launches of a sample are queued behind a blocking kernel, and the start
  // event is recorded after it, so no host work lies between the events.
  kIsolated,
  // GPU time: the launches of a sample are captured in a CUDA graph and replayed back to back
  // (the graph itself queued behind the blocking kernel).
  kBackToBack,
  // GPU time from CUPTI's kernel activity records: the sum of the case's kernel durations.
  kCupti,
  // Host-inclusive: wall-clock from the first enqueue to the end of a stream synchronisation,
  // what a caller pays per call with dispatch included. Never mixed with GPU time.
  kHost,
  // Documents of schema 1: events around the enqueue on an idle stream (host launch path
  // included). Only read, never measured.
  kHostEvents,
};

// The timer `kwb run` uses when none is named.
inline constexpr TimerMode kDefaultTimer = TimerMode::kBackToBack;

std::string_view toString(TimerMode t);  // "isolated", "back-to-back", "cupti", "host", ...
TimerMode parseTimerMode(std::string_view text);  // throws InputError naming the choices
// A short label for tables, plots and reports: "GPU time, back-to-back" (docs/MEASUREMENT.md
// says what each means).
std::string_view timerLabel(TimerMode t);
// True for the modes that exclude host latency.
bool isGpuTime(TimerMode t);

}  // namespace kwb
