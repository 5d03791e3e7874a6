// SPDX-License-Identifier: Apache-2.0
#include "app/quit_signals.h"

#include <fcntl.h>
#include <unistd.h>

#include <QCoreApplication>
#include <QSocketNotifier>
#include <csignal>
#include <cstdio>
#include <cstring>

#include "engine/engine_process.h"

namespace kwb::gui {

namespace {

int g_pipe[2] = {-1, -1};
volatile std::sig_atomic_t g_signal = 0;

void onSignal(int signal) {
  if (g_signal != 0) {  // the first one was not taken up: end now
    std::signal(signal, SIG_DFL);
    std::raise(signal);
    return;
  }
  g_signal = signal;
  const unsigned char byte = static_cast<unsigned char>(signal);
  [[maybe_unused]] const ssize_t n = ::write(g_pipe[1], &byte, 1);
}

void quitFor(int signal) {
  const int engines = signalAllEngines(SIGTERM);
  std::fprintf(stderr, "kwb-gui: %s received: stopping %d engine process(es) and exiting\n",
               strsignal(signal), engines);
  // The engines that ignore SIGTERM are killed when their drivers are destroyed on the way out.
  QCoreApplication::exit(128 + signal);
}

}  // namespace

void installQuitSignals() {
  if (g_pipe[0] >= 0 || ::pipe2(g_pipe, O_CLOEXEC | O_NONBLOCK) != 0) return;
  auto* notifier =
      new QSocketNotifier(g_pipe[0], QSocketNotifier::Read, QCoreApplication::instance());
  QObject::connect(notifier, &QSocketNotifier::activated, notifier, [] {
    unsigned char byte = 0;
    while (::read(g_pipe[0], &byte, 1) == 1) quitFor(byte);
  });
  struct sigaction action {};
  action.sa_handler = onSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  for (const int s : {SIGTERM, SIGINT, SIGHUP}) sigaction(s, &action, nullptr);
}

int quitSignal() { return g_signal; }

}  // namespace kwb::gui
