// SPDX-License-Identifier: Apache-2.0
#include "engine/engine_driver.h"

#include <algorithm>
#include <csignal>

#include "engine/engine_process.h"
#include "engine/engine_watchdog.h"
#include "engine/remote_failure.h"
#include "engine/ssh_command.h"
#include "kwb/error.h"

namespace kwb::gui {

EngineDriver::EngineDriver(QObject* parent) : QObject(parent) {
  superviseEngineProcess(m_process);
  m_killTimer.setSingleShot(true);
  connect(&m_killTimer, &QTimer::timeout, this, [this] { signalEngineGroup(m_process, SIGKILL); });
  connect(&m_process, &QProcess::readyReadStandardOutput, this, &EngineDriver::readStdout);
  // A local engine that closes its stdout and lives on (a hostile or broken engine) is said
  // within a second, not when the silence watchdog expires: QProcess reports the pipe's end only
  // when the process ends, so /proc is asked once a second.
  connect(&m_stdoutClosedTimer, &QTimer::timeout, this, [this] {
    if (!isRunning()) {
      m_stdoutClosedTimer.stop();
    } else if (processClosedStdout(processId())) {
      m_stdoutClosedTimer.stop();
      emit stdoutClosed();
    }
  });
  connect(&m_process, &QProcess::readyReadStandardError, this, &EngineDriver::readStderr);
  connect(&m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
    if (e != QProcess::FailedToStart) return;
    m_startFailed = true;
    const QString message =
        m_location.isLocal()
            ? QString("The engine '%1' could not be started: %2.")
                  .arg(m_process.program(), m_process.errorString())
            : QString(
                  "The ssh client could not be started to reach %1: %2. Install OpenSSH's "
                  "client (ssh) on this machine.")
                  .arg(m_location.label(), m_process.errorString());
    emit failedToStart(message);
    if (m_query) emit queryFinished(-1, {}, message);
  });
  connect(&m_process, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
    m_killTimer.stop();
    m_stdoutClosedTimer.stop();
    if (m_query) {
      const QByteArray out = m_process.readAllStandardOutput();
      const QString err = QString::fromUtf8(m_process.readAllStandardError()).trimmed();
      if (!m_location.isLocal() && status == QProcess::NormalExit)
        m_remoteFailure = describeRemoteFailure(m_location.label(), code, err, false);
      emit queryFinished(status == QProcess::CrashExit ? -1 : code, out, err);
      return;
    }
    readStdout();
    readStderr();
    flushPartialLines();
    if (!m_location.isLocal() && status == QProcess::NormalExit)
      m_remoteFailure = describeRemoteFailure(m_location.label(), code, m_stderrTail.join('\n'),
                                              m_lineNumber > 0);
    emit exited(code, status == QProcess::CrashExit);
  });
}

EngineDriver::~EngineDriver() {
  forgetEngineProcess(m_process);
  if (isRunning()) {
    signalEngineGroup(m_process, SIGKILL);
    m_process.waitForFinished(1000);
  }
}

void EngineDriver::start(const QString& program, const QStringList& arguments) {
  begin(program, arguments, false);
}

void EngineDriver::query(const QString& program, const QStringList& arguments) {
  begin(program, arguments, true);
}

void EngineDriver::begin(const QString& program, const QStringList& arguments, bool query) {
  m_query = query;
  m_stdoutBuffer.clear();
  m_stderrBuffer.clear();
  m_stderrCut = 0;
  m_loggedBytes = 0;
  m_withheldLines = 0;
  m_scanned = 0;
  m_lineNumber = 0;
  m_startFailed = false;
  m_stderrTail.clear();
  m_remoteFailure.clear();
  m_versionMismatch = false;
  const EngineCommand command = engineCommand(m_location, program, arguments);
  m_process.start(command.program, command.arguments, QIODevice::ReadOnly);
  if (!query && m_location.isLocal()) m_stdoutClosedTimer.start(kStdoutClosedPollMs);
}

void EngineDriver::stop(int graceMs) {
  if (!isRunning()) return;
  signalEngineGroup(m_process, SIGTERM);
  if (!m_killTimer.isActive()) m_killTimer.start(graceMs);
}

QString EngineDriver::commandLine() const {
  return (QStringList{m_process.program()} + m_process.arguments()).join(' ');
}

void EngineDriver::readStdout() {
  if (m_query) return;  // the whole output is read when the command ends
  m_stdoutBuffer += m_process.readAllStandardOutput();
  // Complete lines are taken from the front in one pass, and the search for the next newline
  // starts where the last one ended, so a long line costs its length once, not once per read.
  qsizetype begin = 0;
  qsizetype nl;
  while ((nl = m_stdoutBuffer.indexOf('\n', std::max(begin, m_scanned))) >= 0) {
    const QByteArray line = m_stdoutBuffer.mid(begin, nl - begin).trimmed();
    begin = nl + 1;
    ++m_lineNumber;
    if (line.isEmpty()) continue;
    try {
      emit eventReceived(parseEventLine(std::string_view(line.constData(), size_t(line.size())),
                                        "engine stdout", m_lineNumber));
    } catch (const ProtocolVersionError& e) {
      m_versionMismatch = true;
      emit protocolError(describeProtocolMismatch(
          m_location.isLocal() ? QString("this machine") : m_location.label(), e.version(),
          kProtocolVersion));
    } catch (const std::exception& e) {
      // Anything thrown by parsing the engine's bytes is the engine's fault, never a crash.
      emit protocolError(QString::fromStdString(e.what()));
    }
  }
  if (begin > 0) m_stdoutBuffer.remove(0, begin);
  m_scanned = m_stdoutBuffer.size();
  if (m_stdoutBuffer.size() > kMaxLineBytes) {
    emit protocolError(QString("The engine printed a line of more than %1 MiB on stdout at line "
                               "%2; that is no event.")
                           .arg(kMaxLineBytes >> 20)
                           .arg(m_lineNumber + 1));
    m_stdoutBuffer.clear();
    m_scanned = 0;
  }
}

void EngineDriver::readStderr() {
  if (m_query) return;
  const QByteArray bytes = m_process.readAllStandardError();
  // A line is kept up to kMaxLogLine bytes and the rest of it only counted, so an engine that
  // writes without newlines costs no memory however much it writes.
  qsizetype begin = 0;
  while (begin < bytes.size()) {
    const qsizetype nl = bytes.indexOf('\n', begin);
    const qsizetype end = nl < 0 ? bytes.size() : nl;
    const qsizetype take = std::min(kMaxLogLine - m_stderrBuffer.size(), end - begin);
    m_stderrBuffer.append(bytes.constData() + begin, take);
    m_stderrCut += end - begin - take;
    if (nl < 0) break;
    endStderrLine();
    begin = nl + 1;
  }
}

void EngineDriver::endStderrLine() {
  QString line = QString::fromUtf8(m_stderrBuffer);
  if (m_stderrCut > 0) line += QString(" … [%1 more bytes of this line left out]").arg(m_stderrCut);
  m_stderrBuffer.clear();
  m_stderrCut = 0;
  noteStderr(line);
}

void EngineDriver::flushPartialLines() {
  // A last line without a newline is a truncated event when the engine died mid-write.
  if (!m_stdoutBuffer.trimmed().isEmpty()) {
    m_stdoutBuffer += '\n';
    readStdout();
  }
  if (!m_stderrBuffer.isEmpty() || m_stderrCut > 0) endStderrLine();
  if (m_withheldLines > 0) {  // the log ends with the engine's last lines
    const auto shown = std::min<qsizetype>(m_withheldLines, m_stderrTail.size());
    emit stderrLine(QString("[kwb-gui: %1 lines of the engine's stderr were left out of the log; "
                            "its last %2 follow]")
                        .arg(m_withheldLines - shown)
                        .arg(shown));
    for (qsizetype i = m_stderrTail.size() - shown; i < m_stderrTail.size(); ++i)
      emit stderrLine(m_stderrTail[i]);
    m_withheldLines = 0;
  }
}

void EngineDriver::noteStderr(const QString& line) {
  m_stderrTail << line;
  if (m_stderrTail.size() > kTailLines) m_stderrTail.removeFirst();
  if (m_loggedBytes >= kMaxLogBytes) {  // past the budget: kept in the tail only
    ++m_withheldLines;
    return;
  }
  m_loggedBytes += line.size();
  emit stderrLine(line);
  if (m_loggedBytes >= kMaxLogBytes)
    emit stderrLine(QString("[kwb-gui: the engine wrote more than %1 MiB on stderr; the rest is "
                            "left out of the log but for its last lines, shown when it ends]")
                        .arg(kMaxLogBytes >> 20));
}

}  // namespace kwb::gui
