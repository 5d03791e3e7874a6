// SPDX-License-Identifier: Apache-2.0
#pragma once
// --case-timeout (docs/BRING_YOUR_OWN.md, "Faults"): a kernel that never ends (an endless loop
// in a user's kernel) cannot be stopped inside the process; the device is freed only when the
// process ends. A watch thread notices a case running past the limit, has the caller write
// what it has (under the same lock as the event sink), and ends the process with
// kExitCaseFailed. The GUI then starts a new engine for the cases left, as after a crash.
#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <thread>

namespace kwb::cli {

class CaseTimeout {
 public:
  // limitS <= 0: no limit, no thread. `onTimeout(index)` runs under `lock` with the plan index
  // of the case that ran too long; then the process ends (std::_Exit).
  CaseTimeout(double limitS, std::mutex& lock, std::function<void(int)> onTimeout);
  ~CaseTimeout();
  CaseTimeout(const CaseTimeout&) = delete;
  CaseTimeout& operator=(const CaseTimeout&) = delete;

  void started(int index);  // a case began (its clock starts)
  void ended();             // it finished or failed
  void finish();            // the run returned: the watch stands down

 private:
  void watch();

  using Clock = std::chrono::steady_clock;
  double m_limitS;
  std::mutex& m_lock;
  std::function<void(int)> m_onTimeout;
  std::atomic<int> m_running{-1};
  std::atomic<Clock::rep> m_startedAt{0};
  std::atomic<bool> m_finished{false};
  std::thread m_thread;
};

}  // namespace kwb::cli
