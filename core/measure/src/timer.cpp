// SPDX-License-Identifier: Apache-2.0
#include "kwb/timer.h"

#include <array>
#include <utility>

#include "kwb/error.h"

namespace kwb {
namespace {

struct TimerName {
  TimerMode mode;
  std::string_view id;
  std::string_view label;
};

constexpr std::array<TimerName, 5> kNames{{
    {TimerMode::kIsolated, "isolated", "GPU time, isolated"},
    {TimerMode::kBackToBack, "back-to-back", "GPU time, back-to-back"},
    {TimerMode::kCupti, "cupti", "GPU time, CUPTI"},
    {TimerMode::kHost, "host", "host-inclusive time"},
    {TimerMode::kHostEvents, "host-events", "host-inclusive time (schema 1)"},
}};

const TimerName& entry(TimerMode t) {
  for (const auto& n : kNames)
    if (n.mode == t) return n;
  return kNames.back();
}

}  // namespace

std::string_view toString(TimerMode t) { return entry(t).id; }
std::string_view timerLabel(TimerMode t) { return entry(t).label; }

TimerMode parseTimerMode(std::string_view text) {
  for (const auto& n : kNames)
    if (n.id == text) return n.mode;
  throw InputError("unknown timer '" + std::string(text) +
                   "': choose isolated, back-to-back, cupti or host");
}

bool isGpuTime(TimerMode t) {
  return t == TimerMode::kIsolated || t == TimerMode::kBackToBack || t == TimerMode::kCupti;
}

}  // namespace kwb
