#include "engine_driver.h"

#include "kwb/error.h"

namespace kwb::gui {

EngineDriver::EngineDriver(QObject* parent) : QObject(parent) {
  m_killTimer.setSingleShot(true);
  connect(&m_killTimer, &QTimer::timeout, this, [this] {
    if (isRunning()) m_process.kill();
  });
  connect(&m_process, &QProcess::readyReadStandardOutput, this, &EngineDriver::readStdout);
  connect(&m_process, &QProcess::readyReadStandardError, this, &EngineDriver::readStderr);
  connect(&m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
    if (e != QProcess::FailedToStart) return;
    m_startFailed = true;
    emit failedToStart(QString("The engine '%1' could not be started: %2.")
                           .arg(m_process.program(), m_process.errorString()));
  });
  connect(&m_process, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
    m_killTimer.stop();
    readStdout();
    readStderr();
    flushPartialLines();
    emit exited(code, status == QProcess::CrashExit);
  });
}

EngineDriver::~EngineDriver() {
  if (isRunning()) {
    m_process.kill();
    m_process.waitForFinished(1000);
  }
}

void EngineDriver::start(const QString& program, const QStringList& arguments) {
  m_stdoutBuffer.clear();
  m_stderrBuffer.clear();
  m_lineNumber = 0;
  m_startFailed = false;
  m_process.start(program, arguments, QIODevice::ReadOnly);
}

void EngineDriver::stop(int graceMs) {
  if (!isRunning()) return;
  m_process.terminate();
  m_killTimer.start(graceMs);
}

QString EngineDriver::commandLine() const {
  return (QStringList{m_process.program()} + m_process.arguments()).join(' ');
}

void EngineDriver::readStdout() {
  m_stdoutBuffer += m_process.readAllStandardOutput();
  qsizetype nl;
  while ((nl = m_stdoutBuffer.indexOf('\n')) >= 0) {
    const QByteArray line = m_stdoutBuffer.left(nl).trimmed();
    m_stdoutBuffer.remove(0, nl + 1);
    ++m_lineNumber;
    if (line.isEmpty()) continue;
    try {
      emit eventReceived(parseEventLine(std::string_view(line.constData(), size_t(line.size())),
                                        "engine stdout", m_lineNumber));
    } catch (const InputError& e) {
      emit protocolError(QString::fromStdString(e.what()));
    }
  }
}

void EngineDriver::readStderr() {
  m_stderrBuffer += m_process.readAllStandardError();
  qsizetype nl;
  while ((nl = m_stderrBuffer.indexOf('\n')) >= 0) {
    emit stderrLine(QString::fromUtf8(m_stderrBuffer.left(nl)));
    m_stderrBuffer.remove(0, nl + 1);
  }
}

void EngineDriver::flushPartialLines() {
  // A last line without a newline is a truncated event when the engine died mid-write.
  if (!m_stdoutBuffer.trimmed().isEmpty()) {
    m_stdoutBuffer += '\n';
    readStdout();
  }
  if (!m_stderrBuffer.isEmpty()) {
    emit stderrLine(QString::fromUtf8(m_stderrBuffer));
    m_stderrBuffer.clear();
  }
}

}  // namespace kwb::gui
