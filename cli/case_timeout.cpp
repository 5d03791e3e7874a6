// SPDX-License-Identifier: Apache-2.0
#include "case_timeout.h"

#include "interrupt.h"
#include "kwb/exit_codes.h"

namespace kwb::cli {

CaseTimeout::CaseTimeout(double limitS, std::mutex& lock, std::function<void(int)> onTimeout)
    : m_limitS(limitS), m_lock(lock), m_onTimeout(std::move(onTimeout)) {
  if (m_limitS > 0) m_thread = std::thread([this] { watch(); });
}

CaseTimeout::~CaseTimeout() {
  finish();
  if (m_thread.joinable()) m_thread.join();
}

void CaseTimeout::started(int index) {
  m_startedAt = Clock::now().time_since_epoch().count();
  m_running = index;
}

void CaseTimeout::ended() { m_running = -1; }

void CaseTimeout::finish() { m_finished = true; }

void CaseTimeout::watch() {
  const auto limit =
      std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(m_limitS));
  while (!m_finished) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const int index = m_running;
    if (index < 0) continue;
    const Clock::time_point started{Clock::duration(m_startedAt.load())};
    if (Clock::now() - started < limit) continue;
    std::lock_guard<std::mutex> g(m_lock);
    if (m_finished || m_running != index) continue;  // it ended meanwhile
    writeAndExit([&] { m_onTimeout(index); }, "a case timed out", kExitCaseFailed);
  }
}

}  // namespace kwb::cli
