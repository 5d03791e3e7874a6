// SPDX-License-Identifier: Apache-2.0
#pragma once
// Ctrl-C and SIGTERM for commands that run for a while (docs/PROTOCOL.md, "Interrupting a
// run"): the signal sets a flag the engine polls between samples and cases; a run that has not
// returned within a grace period (a kernel can run for minutes) is ended by a watchdog that
// writes the finished results first. Either way `kwb` exits kExitInterrupted.
#include <atomic>
#include <functional>
#include <mutex>
#include <thread>

namespace kwb::cli {

// SIGINT and SIGTERM set the flag (async-signal-safe); the process is not ended by them.
void installInterruptHandlers();
bool interruptRequested();

// Ends a run early from a watch thread: runs `write` (the finished results; a failure is named
// with `what`), flushes, and ends the process with `exitCode` without waiting for the device.
[[noreturn]] void writeAndExit(const std::function<void()>& write, const char* what, int exitCode);

class InterruptWatchdog {
 public:
  // Once an interrupt is requested, waits `graceS`; if finish() has not been called by then,
  // runs `onTimeout` under lock() and ends the process with kExitInterrupted (std::_Exit: a
  // kernel still running on the device is not waited for).
  explicit InterruptWatchdog(std::function<void()> onTimeout, double graceS = 0.6);
  ~InterruptWatchdog();
  InterruptWatchdog(const InterruptWatchdog&) = delete;
  InterruptWatchdog& operator=(const InterruptWatchdog&) = delete;

  // Held by whoever updates what onTimeout writes (the event sink), so it never sees half.
  std::mutex& lock() { return m_mutex; }
  // The run returned: the watchdog stands down (the caller writes the outputs itself).
  void finish();

 private:
  void watch();

  std::function<void()> m_onTimeout;
  double m_graceS;
  std::mutex m_mutex;
  std::atomic<bool> m_finished{false};
  std::thread m_thread;
};

}  // namespace kwb::cli
