// SPDX-License-Identifier: Apache-2.0
#include "engine/remote_call.h"

#include <csignal>

#include "engine/engine_process.h"
#include "engine/remote_failure.h"
#include "engine/ssh_command.h"

namespace kwb::gui {

RemoteCall::RemoteCall(const EngineLocation& where, const QStringList& words, int timeoutMs,
                       QObject* parent)
    : QObject(parent), m_where(where), m_words(words) {
  m_limit.setSingleShot(true);
  m_limit.setInterval(timeoutMs);
  superviseEngineProcess(m_process);
  connect(&m_limit, &QTimer::timeout, this, [this] {
    signalEngineGroup(m_process, SIGKILL);
    end(-1, QString("%1 did not answer `%2` within %3 s; it was stopped.")
                .arg(m_where.label(), text())
                .arg(m_limit.interval() / 1000.0));
  });
  connect(&m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
    if (e == QProcess::FailedToStart)
      end(-1, QString("ssh could not be started to reach %1: %2.")
                  .arg(m_where.label(), m_process.errorString()));
  });
  connect(&m_process, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
    m_err += QString::fromUtf8(m_process.readAllStandardError());
    QString failure = describeRemoteFailure(m_where.label(), code, m_err, false);
    if (status == QProcess::CrashExit && failure.isEmpty())
      failure = QString("ssh to %1 was killed while running `%2`.").arg(m_where.label(), text());
    end(code, failure);
  });
}

RemoteCall::~RemoteCall() {
  abort();
  forgetEngineProcess(m_process);
}

void RemoteCall::start() {
  const EngineCommand c = remoteCommand(m_where, m_words);
  m_limit.start();
  m_process.start(c.program, c.arguments);
}

void RemoteCall::abort() {
  m_done = true;
  m_limit.stop();
  if (m_process.state() == QProcess::NotRunning) return;
  signalEngineGroup(m_process, SIGKILL);
  m_process.waitForFinished(1000);
}

void RemoteCall::end(int exitCode, const QString& failure) {
  if (m_done) return;
  m_done = true;
  m_limit.stop();
  const QByteArray out = m_process.readAllStandardOutput();
  m_err += QString::fromUtf8(m_process.readAllStandardError());
  emit finished(exitCode, out, m_err, failure);
}

}  // namespace kwb::gui
