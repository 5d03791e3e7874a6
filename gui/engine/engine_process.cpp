// SPDX-License-Identifier: Apache-2.0
#include "engine/engine_process.h"

#include <sys/prctl.h>
#include <unistd.h>

#include <QSet>
#include <csignal>

namespace kwb::gui {

namespace {

QSet<QProcess*>& supervised() {
  static QSet<QProcess*> processes;  // the GUI thread's only
  return processes;
}

}  // namespace

void superviseEngineProcess(QProcess& process) {
  const pid_t gui = ::getpid();
  // Runs in the child between fork and exec: system calls only.
  process.setChildProcessModifier([gui] {
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != gui) ::_exit(127);  // kwb-gui died before the line above
  });
  supervised().insert(&process);
}

void forgetEngineProcess(QProcess& process) { supervised().remove(&process); }

void signalEngineGroup(const QProcess& process, int signal) {
  const qint64 pid = process.processId();
  // While QProcess has not reaped it the pid is still this process's, even if it has ended.
  if (pid <= 0 || process.state() == QProcess::NotRunning) return;
  if (::kill(-pid_t(pid), signal) != 0) ::kill(pid_t(pid), signal);
}

int signalAllEngines(int signal) {
  int n = 0;
  for (QProcess* p : std::as_const(supervised())) {
    if (p->state() == QProcess::NotRunning) continue;
    signalEngineGroup(*p, signal);
    ++n;
  }
  return n;
}

}  // namespace kwb::gui
