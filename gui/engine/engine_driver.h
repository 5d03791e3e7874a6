// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QObject>
#include <QProcess>
#include <QStringList>
#include <QTimer>

#include "engine/engine_location.h"
#include "kwb/events.h"

namespace kwb::gui {

// One engine process. Every engine process of the GUI goes through this class, started with
// an argument list, never through a local shell; at a remote location (engine_location.h)
// through ssh, whose stdout and stderr are the remote engine's:
//  - start(): a stream (`kwb run --stream ...`); stdout is parsed one JSON line at a time and
//    each event reported; stderr is the human log.
//  - query(): a one-shot command (`kwb list --json`, `kwb device --json`); its whole stdout
//    and stderr are handed over by queryFinished when it ends.
class EngineDriver : public QObject {
  Q_OBJECT
 public:
  explicit EngineDriver(QObject* parent = nullptr);
  ~EngineDriver() override;

  // Where the next start() or query() runs the engine; local by default.
  void setLocation(const EngineLocation& where) { m_location = where; }
  const EngineLocation& location() const { return m_location; }
  // `program` is the local engine; at a remote location the location names the engine.
  void start(const QString& program, const QStringList& arguments);
  void query(const QString& program, const QStringList& arguments);
  // Asks the engine to stop (SIGTERM), and kills it if it is still there after `graceMs`.
  void stop(int graceMs = 400);
  bool isRunning() const { return m_process.state() != QProcess::NotRunning; }
  // The local process (the engine, or ssh for a remote one); 0 when none runs.
  qint64 processId() const { return m_process.processId(); }
  QString commandLine() const;
  // After exited() or queryFinished(): a sentence naming the host when ssh or the remote shell
  // failed (remote_failure.h); empty for a local engine and for an engine that ended by itself.
  QString remoteFailure() const { return m_remoteFailure; }
  // The engine's hello named another protocol version (reported through protocolError).
  bool versionMismatch() const { return m_versionMismatch; }

 signals:
  void eventReceived(const kwb::StreamEvent& event);
  void stderrLine(const QString& line);
  void protocolError(const QString& message);
  // The program could not be started at all (missing, not executable).
  void failedToStart(const QString& message);
  // The process ended; `crashed` when it died from a signal.
  void exited(int exitCode, bool crashed);
  // The engine closed its stdout and was still running a moment later: it can say nothing more.
  void stdoutClosed();
  // A query() ended; `exitCode` is -1 when the program could not be started (`stderrText`
  // then says why).
  void queryFinished(int exitCode, const QByteArray& stdoutBytes, const QString& stderrText);

 private:
  void readStdout();
  void readStderr();
  void flushPartialLines();
  void begin(const QString& program, const QStringList& arguments, bool query);
  void noteStderr(const QString& line);
  void endStderrLine();

  EngineLocation m_location;

  QProcess m_process;
  QTimer m_killTimer;
  QTimer m_stdoutClosedTimer;  // polls /proc while a local engine runs
  // An event line longer than this is a protocol error (a real one is a few hundred KiB).
  static constexpr qsizetype kMaxLineBytes = qsizetype(64) << 20;
  static constexpr qsizetype kMaxLogLine = 64 * 1024;  // stderr lines are cut here
  // What of an engine's stderr reaches the log; past it only the last kTailLines are kept, and
  // logged when the engine ends.
  static constexpr qsizetype kMaxLogBytes = qsizetype(4) << 20;
  static constexpr qsizetype kTailLines = 20;
  // How often a local engine's stdout is checked for having been closed (/proc).
  static constexpr int kStdoutClosedPollMs = 1000;
  QByteArray m_stdoutBuffer;
  qsizetype m_scanned = 0;    // m_stdoutBuffer holds no newline before this
  QByteArray m_stderrBuffer;  // the current line, at most kMaxLogLine bytes of it
  qsizetype m_stderrCut = 0;  // bytes of the current line left out
  qsizetype m_loggedBytes = 0;
  qsizetype m_withheldLines = 0;  // lines past kMaxLogBytes, not logged
  int m_lineNumber = 0;
  bool m_startFailed = false;
  bool m_query = false;      // collecting a one-shot command's output, not parsing events
  QStringList m_stderrTail;  // the last lines, for remote_failure.h
  QString m_remoteFailure;
  bool m_versionMismatch = false;
};

}  // namespace kwb::gui
