// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QElapsedTimer>
#include <QList>
#include <QMap>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <functional>

#include "engine/engine_driver.h"
#include "engine/engine_watchdog.h"
#include "model/run_request.h"

namespace kwb::gui {

// "SIGSEGV" for 11; "signal N" where the name is unknown.
QString signalName(int signal);
// How an engine ended, in words: "was killed by SIGSEGV", "exited with code 2".
QString describeExit(int exitCode, bool crashed);

// Runs a request through one or more engine processes. When an engine dies mid-run the
// case it was running is recorded as `crashed` and a fresh engine carries on with the
// cases left (docs/PROTOCOL.md, docs/RELIABILITY.md).
class RunController : public QObject {
  Q_OBJECT
 public:
  // Turns a request into the engine's arguments; tests substitute `kwb replay FILE`.
  using ArgumentBuilder = std::function<QStringList(const RunRequest&)>;

  explicit RunController(QObject* parent = nullptr);

  void setEngine(const QString& program) { m_program = program; }
  QString engine() const { return m_program; }
  // Where the engine runs: the local program above, or kwb on a host through ssh.
  void setLocation(const EngineLocation& where) { m_location = where; }
  const EngineLocation& location() const { return m_location; }
  void setArgumentBuilder(ArgumentBuilder builder) { m_builder = std::move(builder); }
  // How long an engine may send no event before it is ended (engine_watchdog.h); 0: the limit
  // from the plan (or KWB_GUI_ENGINE_SILENCE_S).
  void setSilenceLimit(double seconds) { m_watchdog.setOverride(seconds); }

  void start(const RunRequest& request);
  // Stops the engine within a second; finished results stay.
  void cancel();
  bool isRunning() const { return m_running; }

  // The run so far, built by core's DocumentBuilder from the engines' events: the one live
  // document, which the window's ResultsModel reads in place (ResultsModel::followLive). It
  // stays at this address for the controller's life; start() empties it there.
  const RunDocument& document() const { return m_doc.document(); }
  int finishedCases() const { return m_doc.finishedCases(); }
  int totalCases() const { return m_total; }
  int engineStarts() const { return m_engineStarts; }
  // Seconds left, estimated from the pace so far; negative when unknown.
  double etaSeconds() const;
  // A host pool's run (RunRequest::devices): each GPU's finished cases and the case it runs,
  // "GPU 0: 12 done, sgemm.tiled at 512³ · GPU 1: 11 done"; empty for a one-device run.
  QString gpuProgress() const;

 signals:
  // Each signal but runFinished passes document() as it stands, or a case of it.
  void runStarted(const kwb::RunDocument& document);     // document() is empty again
  void headerChanged(const kwb::RunDocument& document);  // hello/device/plan arrived
  void caseStarted(const QString& kernel, const kwb::CaseSize& size);
  // A case was added to document(): finished, failed, or marked crashed.
  void caseFinished(const kwb::CaseResult& result);
  void progress(int finished, int total);
  void logLine(const QString& level, const QString& message);
  // The run ended: `ok` false on failure or cancel; `message` says why in a whole sentence.
  void runFinished(const kwb::RunDocument& document, bool ok, const QString& message);

 private:
  struct Key {
    QString kernel;
    CaseSize size;
    bool operator==(const Key&) const = default;
    friend size_t qHash(const Key& k, size_t seed = 0) {
      return qHashMulti(seed, k.kernel, QString::fromStdString(kwb::sizeKey(k.size)));
    }
  };
  void setPlanned(QList<Key> planned);
  void launchNext();
  void onEvent(const StreamEvent& e);
  void onExited(int exitCode, bool crashed);
  // After an engine died or gave up before `done`: a new engine for the cases left, or the end.
  void restartOrEnd(int exitCode, bool crashed, const QString& how);
  void onProtocolError(const QString& message);
  void onWatchdog(EngineWatchdog::Reason reason, double seconds);
  void onStdoutClosed();
  // "while running K at S" / "with no case running"
  QString runningCaseText() const;
  // The run's end once no engine is left to start: crashed and unreported cases make it not ok.
  void finishAll();
  // Marks the case running as crashed with `why`; returns whether there was one.
  bool markRunningCrashed(const QString& why, const QString& logged);
  // True when `key` is planned and not done; otherwise a protocol error naming `what`.
  bool checkQueued(const Key& key, const char* what);
  int casesLeft() const;
  void finish(bool ok, const QString& message);
  QList<RunRequest> batchesFor(const QList<Key>& left) const;

  QString m_program;
  EngineLocation m_location;
  ArgumentBuilder m_builder;
  QPointer<EngineDriver> m_driver;
  RunRequest m_request;
  QList<Key> m_planned;    // in the order asked: a new engine's batches follow it
  QSet<Key> m_plannedSet;  // the same, to look up: a case's check is O(1), not O(cases)
  QSet<Key> m_done;
  QList<RunRequest> m_queue;
  std::optional<Key> m_runningCase;
  DocumentBuilder m_doc;  // fed every event the run accepts, and the cases that crashed
  int m_total = 0;
  int m_engineStarts = 0;
  int m_leftAtStart = 0;  // cases left when the current engine started
  bool m_gotDone = false;
  bool m_stoppedAfterDone = false;  // the watchdog ended an engine that lived on after `done`
  bool m_running = false;
  bool m_cancelled = false;
  bool m_headerSeen = false;
  QString m_lastStderr;
  QString m_protocolError;  // the engine's first protocol error; it ends the run
  QString m_hung;           // why the watchdog ended the engine; it ends the run
  QStringList m_notes;      // said at the run's end (an engine that lived on after `done`)
  EngineWatchdog m_watchdog;
  QElapsedTimer m_clock;
  QMap<int, int> m_gpuDone;         // a pool's GPU → its cases finished (events tagged `gpu`)
  QMap<int, QString> m_gpuRunning;  // a pool's GPU → the case it runs, in words
};

}  // namespace kwb::gui
