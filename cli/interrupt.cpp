// SPDX-License-Identifier: Apache-2.0
#include "interrupt.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <exception>

#include "kwb/error.h"

namespace kwb::cli {
namespace {

volatile std::sig_atomic_t g_interrupted = 0;
extern "C" void onInterrupt(int) { g_interrupted = 1; }

}  // namespace

void installInterruptHandlers() {
  std::signal(SIGINT, onInterrupt);
  std::signal(SIGTERM, onInterrupt);
}

bool interruptRequested() { return g_interrupted != 0; }

InterruptWatchdog::InterruptWatchdog(std::function<void()> onTimeout, double graceS)
    : m_onTimeout(std::move(onTimeout)), m_graceS(graceS), m_thread([this] { watch(); }) {}

InterruptWatchdog::~InterruptWatchdog() {
  finish();
  if (m_thread.joinable()) m_thread.join();
}

void InterruptWatchdog::finish() {
  std::lock_guard<std::mutex> g(m_mutex);
  m_finished = true;
}

void writeAndExit(const std::function<void()>& write, const char* what, int exitCode) {
  try {
    write();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kwb: %s, and writing the results failed: %s\n", what, e.what());
  }
  std::fflush(stdout);
  std::fflush(stderr);
  std::_Exit(exitCode);
}

void InterruptWatchdog::watch() {
  using Clock = std::chrono::steady_clock;
  constexpr auto kPoll = std::chrono::milliseconds(10);
  while (!m_finished && !interruptRequested()) std::this_thread::sleep_for(kPoll);
  const auto deadline = Clock::now() + std::chrono::duration<double>(m_graceS);
  while (!m_finished && Clock::now() < deadline) std::this_thread::sleep_for(kPoll);
  std::lock_guard<std::mutex> g(m_mutex);
  if (m_finished) return;
  writeAndExit(m_onTimeout, "interrupted", kExitInterrupted);
}

}  // namespace kwb::cli
