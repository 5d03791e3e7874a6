// SPDX-License-Identifier: Apache-2.0
#include "engine/run_controller.h"

#include <algorithm>
#include <csignal>
#include <cstring>

#include "kwb/exit_codes.h"
#include "model/case_size.h"
#include "kwb/progression.h"
#include "kwb/shape.h"

namespace kwb::gui {

QString signalName(int signal) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 32)
  if (const char* abbrev = sigabbrev_np(signal)) return QString("SIG") + abbrev;
#endif
  return QString("signal %1").arg(signal);
}

QString describeExit(int exitCode, bool crashed) {
  // QProcess gives the signal's number as the exit code of a process a signal killed.
  if (crashed) return "was killed by " + signalName(exitCode);
  if (exitCode > 128 && exitCode < 128 + 65)
    return QString("exited with code %1 (128 + %2: a process it ran was killed by a signal)")
        .arg(exitCode)
        .arg(signalName(exitCode - 128));
  return QString("exited with code %1").arg(exitCode);
}

RunController::RunController(QObject* parent) : QObject(parent) {
  m_builder = [](const RunRequest& r) { return r.toArguments(); };
  connect(&m_watchdog, &EngineWatchdog::expired, this, &RunController::onWatchdog);
}

void RunController::start(const RunRequest& request) {
  if (m_running) return;
  m_request = request;
  m_done.clear();
  QList<Key> planned;
  for (const CaseSize& s : request.sizes)
    for (const QString& k : request.kernels) planned.append({k, s});
  setPlanned(std::move(planned));
  m_doc = DocumentBuilder{};
  m_queue = {request};
  m_engineStarts = 0;
  m_leftAtStart = m_total;
  m_cancelled = false;
  m_headerSeen = false;
  m_notes.clear();
  m_gpuDone.clear();
  m_gpuRunning.clear();
  m_running = true;
  m_clock.start();
  emit runStarted(document());
  emit progress(0, m_total);
  launchNext();
}

void RunController::cancel() {
  if (!m_running) return;
  m_cancelled = true;
  m_queue.clear();
  if (m_driver && m_driver->isRunning())
    m_driver->stop();
  else
    finish(false, "The run was cancelled.");
}

double RunController::etaSeconds() const {
  const int n = finishedCases();
  if (!m_running || n == 0) return -1;
  const double perCase = double(m_clock.elapsed()) / 1000.0 / n;
  return perCase * std::max(0, m_total - n);
}

QString RunController::gpuProgress() const {
  QStringList parts;
  QList<int> gpus = m_gpuDone.keys();
  for (int g : m_gpuRunning.keys())
    if (!gpus.contains(g)) gpus << g;
  std::sort(gpus.begin(), gpus.end());
  for (int g : gpus) {
    QString part = QString("GPU %1: %2 done").arg(g).arg(m_gpuDone.value(g));
    if (m_gpuRunning.contains(g)) part += ", " + m_gpuRunning.value(g);
    parts << part;
  }
  return parts.join(" · ");
}

void RunController::launchNext() {
  if (m_queue.isEmpty()) {
    finishAll();
    return;
  }
  const RunRequest next = m_queue.takeFirst();
  if (m_driver) m_driver->deleteLater();
  m_driver = new EngineDriver(this);
  m_runningCase.reset();
  m_gotDone = false;
  m_protocolError.clear();
  m_hung.clear();
  m_stoppedAfterDone = false;
  m_leftAtStart = casesLeft();
  m_lastStderr.clear();
  connect(m_driver, &EngineDriver::eventReceived, this, &RunController::onEvent);
  connect(m_driver, &EngineDriver::stderrLine, this, [this](const QString& line) {
    if (!line.trimmed().isEmpty()) m_lastStderr = line.trimmed();
    emit logLine("engine", line);
  });
  connect(m_driver, &EngineDriver::protocolError, this, &RunController::onProtocolError);
  connect(m_driver, &EngineDriver::failedToStart, this, [this](const QString& m) {
    emit logLine("error", m);
    finish(false, m_location.isLocal()
                      ? m + " Set its path in Run ▸ Engine… or put kwb beside kwb-gui."
                      : m);
  });
  connect(m_driver, &EngineDriver::exited, this, &RunController::onExited);
  connect(m_driver, &EngineDriver::stdoutClosed, this, &RunController::onStdoutClosed);
  ++m_engineStarts;
  const QStringList args = m_builder(next);
  m_driver->setLocation(m_location);
  emit logLine("info", m_location.isLocal()
                           ? QString("Starting engine: %1 %2").arg(m_program, args.join(' '))
                           : QString("Starting engine on %1: %2 %3")
                                 .arg(m_location.label(), m_location.remoteKwb(), args.join(' ')));
  if (m_location.isLocal() && m_program.isEmpty()) {
    finish(false,
           "The engine kwb was not found beside kwb-gui, in the build tree or on PATH. "
           "Set its path in Run ▸ Engine….");
    return;
  }
  m_watchdog.engineStarted();
  m_driver->start(m_program, args);
}

void RunController::finishAll() {
  const RunDocument& doc = document();
  const auto crashes = std::count_if(doc.cases.begin(), doc.cases.end(), [](const auto& c) {
    return c.status == CaseStatus::kCrashed;
  });
  // Not ok when the engine died on a case, or said it was done without reporting every case
  // it planned: the run went through, but not as asked.
  QStringList wrong;
  if (crashes > 0) wrong << QString("%1 of %2 cases crashed the engine").arg(crashes).arg(m_total);
  if (const int unreported = casesLeft(); unreported > 0)
    wrong << QString("%1 of %2 cases were never reported").arg(unreported).arg(m_total);
  if (!wrong.isEmpty())
    finish(false, "The run finished, but " + wrong.join(", and ") + ".");
  else
    finish(true,
           allPassed(doc) ? "Every case passed." : "The run finished; some cases did not pass.");
}

QString RunController::runningCaseText() const {
  return m_runningCase ? QString("while running %1 at %2")
                             .arg(m_runningCase->kernel, sizeName(m_runningCase->size))
                       : QString("with no case running");
}

void RunController::onWatchdog(EngineWatchdog::Reason reason, double seconds) {
  if (!m_running || !m_driver || !m_driver->isRunning()) return;
  if (reason == EngineWatchdog::Reason::kAliveAfterDone) {
    const QString note =
        QString("The engine was still running %1 after it said it was done, so it was ended.")
            .arg(secondsText(seconds));
    emit logLine("warning", note);
    if (!m_notes.contains(note)) m_notes << note;
    m_stoppedAfterDone = true;
    m_driver->stop();
    return;
  }
  m_hung =
      QString("The engine sent no event for %1 %2%3, so it was ended")
          .arg(secondsText(seconds), runningCaseText(),
               m_location.isLocal() ? silentProcessCondition(m_driver->processId()) : QString());
  emit logLine("error", m_hung + ".");
  m_queue.clear();
  m_driver->stop();
}

void RunController::onStdoutClosed() {
  // After `done` an engine closes its stdout as it exits; the watchdog's grace covers one that
  // lingers there.
  if (!m_running || !m_driver || !m_driver->isRunning() || !m_hung.isEmpty() || m_gotDone) return;
  m_hung = QString("The engine closed its stdout %1 and lived on, so it was ended")
               .arg(runningCaseText());
  emit logLine("error", m_hung + ".");
  m_queue.clear();
  m_driver->stop();
}

void RunController::onEvent(const StreamEvent& e) {
  // The engine is being stopped; nothing it says counts.
  if (!m_protocolError.isEmpty() || !m_hung.isEmpty()) return;
  m_watchdog.eventReceived();
  switch (e.type) {
    case EventType::kHello:
    case EventType::kDevice:
      m_doc.apply(e);
      if (!m_headerSeen) {
        m_headerSeen = e.type == EventType::kDevice;
        emit headerChanged(document());
      }
      break;
    case EventType::kPlan:
      m_doc.apply(e);  // settings and kernels; later engines' plans add the kernels they name
      m_watchdog.planReceived(e.settings, int(e.plan.size()));
      // A host pool's stream opens with the whole run's plan, untagged; its engines' plans,
      // tagged with their shard, list their part only.
      if (m_engineStarts == 1 && e.shard == 0) {
        // The engine's plan is authoritative (it may drop cases it cannot run).
        QList<Key> planned;
        for (const auto& p : e.plan) planned.append({QString::fromStdString(p.kernel), p.size});
        setPlanned(std::move(planned));
        m_leftAtStart = casesLeft();
        emit headerChanged(document());
        emit progress(finishedCases(), m_total);
      }
      break;
    case EventType::kCaseStarted: {
      const Key key{QString::fromStdString(e.planned.kernel), e.planned.size};
      if (!checkQueued(key, "started")) return;
      m_doc.apply(e);
      m_runningCase = key;
      if (e.gpu >= 0) m_gpuRunning[e.gpu] = key.kernel + " at " + sizeName(key.size);
      emit caseStarted(m_runningCase->kernel, m_runningCase->size);
      break;
    }
    case EventType::kCaseFinished:
    case EventType::kCaseFailed:
      if (e.result) {
        const Key key{QString::fromStdString(e.result->kernel), e.result->size};
        // Only a case asked for and not yet done counts: an engine that ignores its arguments
        // or repeats itself must not fill the run with cases no one asked for.
        if (!checkQueued(key, "finished")) return;
        m_done.insert(key);
        if (e.gpu >= 0) {
          ++m_gpuDone[e.gpu];
          m_gpuRunning.remove(e.gpu);
        }
        m_doc.apply(e);
        emit caseFinished(document().cases.back());  // as built: older schemas' figures derived
        emit progress(finishedCases(), m_total);
      }
      m_runningCase.reset();
      break;
    case EventType::kLog:
      emit logLine(QString::fromStdString(e.level), QString::fromStdString(e.message));
      break;
    case EventType::kDone:
      m_gotDone = true;
      m_watchdog.doneReceived();
      m_doc.apply(e);
      break;
  }
}

void RunController::setPlanned(QList<Key> planned) {
  m_planned = std::move(planned);
  m_plannedSet = QSet<Key>(m_planned.begin(), m_planned.end());
  m_total = int(m_planned.size());
}

int RunController::casesLeft() const {
  int left = 0;
  for (const Key& k : m_planned) left += m_done.contains(k) ? 0 : 1;
  return left;
}

bool RunController::checkQueued(const Key& key, const char* what) {
  if (m_plannedSet.contains(key) && !m_done.contains(key)) return true;
  onProtocolError(QString("The engine %1 %2 at %3, a case %4.")
                      .arg(what, key.kernel, sizeName(key.size),
                           m_plannedSet.contains(key) ? "that had already finished"
                                                      : "it was not asked to run"));
  return false;
}

void RunController::onProtocolError(const QString& message) {
  emit logLine("error", message);
  if (!m_protocolError.isEmpty()) return;  // the first one ends the run
  m_protocolError = message;
  m_queue.clear();
  if (m_driver && m_driver->isRunning())
    m_driver->stop();  // onExited ends the run with the message
  else
    finish(false, "The engine broke the protocol: " + message);
}

void RunController::onExited(int exitCode, bool crashed) {
  m_watchdog.stop();
  if (!m_running) return;
  if (!m_protocolError.isEmpty() && m_driver->versionMismatch()) {
    finish(false, m_protocolError);
    return;
  }
  if (!m_protocolError.isEmpty()) {
    finish(false, QString("The engine broke the protocol, so the run stopped (%1 of %2 cases "
                          "finished): %3")
                      .arg(finishedCases())
                      .arg(m_total)
                      .arg(m_protocolError));
    return;
  }
  if (!m_hung.isEmpty()) {
    markRunningCrashed(m_hung, {});  // the message named the case
    finish(false,
           QString("%1 (%2 of %3 cases finished).").arg(m_hung).arg(finishedCases()).arg(m_total));
    return;
  }
  if (m_cancelled) {
    finish(false, QString("The run was cancelled; %1 of %2 cases finished.")
                      .arg(finishedCases())
                      .arg(m_total));
    return;
  }
  if (m_gotDone && (!crashed || m_stoppedAfterDone)) {
    launchNext();
    return;
  }
  // ssh or the remote shell failed (unreachable, refused, no kwb, connection dropped): no
  // case crashed and a new engine would fail the same way. The cases finished are kept.
  if (const QString failure = m_driver->remoteFailure(); !failure.isEmpty()) {
    finish(false, finishedCases() == 0 ? failure
                                       : failure + QString(" %1 of %2 cases finished and are kept.")
                                                       .arg(finishedCases())
                                                       .arg(m_total));
    return;
  }
  const QString how = crashed ? describeExit(exitCode, true)
                              : describeExit(exitCode, false) + " before it was done";
  markRunningCrashed("The engine " + how + " while running this case" +
                         (m_lastStderr.isEmpty() ? QString() : " (" + m_lastStderr + ")"),
                     m_runningCase
                         ? QString("The engine %1 while running %2 at %3; it is marked crashed.")
                               .arg(how, m_runningCase->kernel, sizeName(m_runningCase->size))
                         : QString());
  restartOrEnd(exitCode, crashed, how);
}

void RunController::restartOrEnd(int exitCode, bool crashed, const QString& how) {
  // A new engine only when this one settled at least one case still queued (finished, or
  // crashed on it): so there are at most as many engines as cases, never an endless restart.
  const bool progressed = casesLeft() < m_leftAtStart;
  if (progressed && m_engineStarts <= m_total && (crashed || !isRefusal(exitCode))) {
    QList<Key> left;
    for (const Key& k : m_planned)
      if (!m_done.contains(k)) left.append(k);
    m_queue = batchesFor(left);
    if (!m_queue.isEmpty())
      emit logLine("info",
                   QString("Starting a new engine for the %1 cases left.").arg(left.size()));
    launchNext();
    return;
  }
  QString why;
  if (exitCode == kExitBadInput)
    why = "The engine refused the request";
  else if (exitCode == kExitNoDevice)
    why = "The engine found no CUDA device";
  else if (!progressed)
    why = QString("The engine %1 without finishing any of the %2 cases left (%3 of %4 finished)")
              .arg(how)
              .arg(m_leftAtStart)
              .arg(finishedCases())
              .arg(m_total);
  else
    why = QString("The engine %1").arg(how);
  finish(false, why + (m_lastStderr.isEmpty() ? QString(".") : ": " + m_lastStderr));
}

QList<RunRequest> RunController::batchesFor(const QList<Key>& left) const {
  // One engine per distinct kernel set, sizes merged, so no finished case runs again.
  QList<QPair<QStringList, QList<CaseSize>>> groups;
  QList<CaseSize> sizes;
  for (const Key& k : left)
    if (!sizes.contains(k.size)) sizes.append(k.size);
  for (const CaseSize& s : sizes) {
    QStringList kernels;
    for (const Key& k : left)
      if (k.size == s) kernels << k.kernel;
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const auto& g) { return g.first == kernels; });
    if (it == groups.end())
      groups.append({kernels, {s}});
    else
      it->second.append(s);
  }
  QList<RunRequest> out;
  for (const auto& g : groups) {
    RunRequest r = m_request;
    r.kernels = g.first;
    r.sizes = g.second;
    out << r;
  }
  return out;
}

bool RunController::markRunningCrashed(const QString& why, const QString& logged) {
  if (!m_runningCase) return false;
  const std::optional<CaseResult> c = m_doc.markCrashed(why.toStdString());
  m_done.insert(*m_runningCase);
  if (c) emit caseFinished(*c);
  emit progress(finishedCases(), m_total);
  if (!logged.isEmpty()) emit logLine("error", logged);
  m_runningCase.reset();
  return true;
}

void RunController::finish(bool ok, const QString& said) {
  if (!m_running) return;
  m_watchdog.stop();
  const QString message = m_notes.isEmpty() ? said : said + " " + m_notes.join(' ');
  m_running = false;
  m_runningCase.reset();
  RunDocument doc = document();
  if (doc.wallSeconds == 0) doc.wallSeconds = double(m_clock.elapsed()) / 1000.0;
  doc.progression = m_doc.progression();  // the engine's verdict, or the rule over the cases so far
  emit logLine(ok ? "info" : "error", message);
  emit runFinished(doc, ok, message);
}

}  // namespace kwb::gui
