#include "run_controller.h"

#include <algorithm>

namespace kwb::gui {

RunController::RunController(QObject* parent) : QObject(parent) {
  m_builder = [](const RunRequest& r) { return r.toArguments(); };
}

void RunController::start(const RunRequest& request) {
  if (m_running) return;
  m_request = request;
  m_planned.clear();
  m_done.clear();
  for (const Shape& s : request.shapes)
    for (const QString& k : request.kernels) m_planned.append({k, s});
  m_total = int(m_planned.size());
  m_doc = RunDocument{};
  m_doc.settings.coldL2 = request.coldL2;
  m_queue = {request};
  m_engineStarts = 0;
  m_cancelled = false;
  m_headerSeen = false;
  m_running = true;
  m_clock.start();
  emit runStarted(m_doc);
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

void RunController::launchNext() {
  if (m_queue.isEmpty()) {
    const bool allGood = std::all_of(m_doc.cases.begin(), m_doc.cases.end(),
                                     [](const CaseResult& c) { return isGood(c.status); });
    finish(true, allGood ? "Every case passed." : "The run finished; some cases did not pass.");
    return;
  }
  const RunRequest next = m_queue.takeFirst();
  if (m_driver) m_driver->deleteLater();
  m_driver = new EngineDriver(this);
  m_runningCase.reset();
  m_gotDone = false;
  m_doneThisEngine = 0;
  m_lastStderr.clear();
  connect(m_driver, &EngineDriver::eventReceived, this, &RunController::onEvent);
  connect(m_driver, &EngineDriver::stderrLine, this, [this](const QString& line) {
    if (!line.trimmed().isEmpty()) m_lastStderr = line.trimmed();
    emit logLine("engine", line);
  });
  connect(m_driver, &EngineDriver::protocolError, this,
          [this](const QString& m) { emit logLine("error", m); });
  connect(m_driver, &EngineDriver::failedToStart, this, [this](const QString& m) {
    emit logLine("error", m);
    finish(false, m + " Set its path in Run ▸ Engine… or put kwb beside kwb-gui.");
  });
  connect(m_driver, &EngineDriver::exited, this, &RunController::onExited);
  ++m_engineStarts;
  const QStringList args = m_builder(next);
  emit logLine("info", QString("Starting engine: %1 %2").arg(m_program, args.join(' ')));
  if (m_program.isEmpty()) {
    finish(false,
           "The engine kwb was not found beside kwb-gui, in the build tree or on PATH. "
           "Set its path in Run ▸ Engine….");
    return;
  }
  m_driver->start(m_program, args);
}

void RunController::onEvent(const Event& e) {
  switch (e.type) {
    case EventType::kHello:
      if (!m_headerSeen) {
        m_doc.toolVersion = e.toolVersion;
        m_doc.gitRevision = e.gitRevision;
        m_doc.host = e.host;
        m_doc.timestamp = e.timestamp;
        emit headerChanged(m_doc);
      }
      break;
    case EventType::kDevice:
      if (!m_headerSeen) {
        m_doc.device = e.device;
        m_headerSeen = true;
        emit headerChanged(m_doc);
      }
      break;
    case EventType::kPlan:
      if (m_engineStarts == 1) {
        // The engine's plan is authoritative (it may drop cases it cannot run).
        m_doc.settings = e.settings;
        m_planned.clear();
        for (const auto& p : e.plan) m_planned.append({QString::fromStdString(p.kernel), p.shape});
        m_total = int(m_planned.size());
        emit progress(finishedCases(), m_total);
      }
      break;
    case EventType::kCaseStarted:
      m_runningCase = Key{QString::fromStdString(e.planned.kernel), e.planned.shape};
      emit caseStarted(m_runningCase->kernel, m_runningCase->shape);
      break;
    case EventType::kCaseFinished:
    case EventType::kCaseFailed:
      if (e.result) {
        const Key key{QString::fromStdString(e.result->kernel), e.result->shape};
        m_done.append(key);
        if (!m_planned.contains(key)) {
          m_planned.append(key);
          m_total = int(m_planned.size());
        }
        m_doc.cases.push_back(*e.result);
        ++m_doneThisEngine;
        emit caseFinished(*e.result);
        emit progress(finishedCases(), m_total);
      }
      m_runningCase.reset();
      break;
    case EventType::kLog:
      emit logLine(QString::fromStdString(e.level), QString::fromStdString(e.message));
      break;
    case EventType::kDone:
      m_gotDone = true;
      m_doc.knownAnswer = e.knownAnswer;
      m_doc.progression.checked = m_doc.progression.checked || e.progression.checked;
      for (const auto& v : e.progression.violations) m_doc.progression.violations.push_back(v);
      m_doc.wallSeconds = double(m_clock.elapsed()) / 1000.0;
      break;
  }
}

void RunController::onExited(int exitCode, bool crashed) {
  if (!m_running) return;
  if (m_cancelled) {
    finish(false, QString("The run was cancelled; %1 of %2 cases finished.")
                      .arg(finishedCases())
                      .arg(m_total));
    return;
  }
  if (m_gotDone && !crashed) {
    launchNext();
    return;
  }
  const QString how = crashed ? QString("died from a signal")
                              : QString("exited with code %1 before it was done").arg(exitCode);
  if (m_runningCase) {
    CaseResult c;
    c.kernel = m_runningCase->kernel.toStdString();
    c.shape = m_runningCase->shape;
    c.status = CaseStatus::kCrashed;
    c.message = "The engine " + how.toStdString() + " while running this case" +
                (m_lastStderr.isEmpty() ? std::string() : " (" + m_lastStderr.toStdString() + ")");
    m_done.append(*m_runningCase);
    m_doc.cases.push_back(c);
    emit caseFinished(c);
    emit progress(finishedCases(), m_total);
    emit logLine("error", QString("The engine %1 while running %2 at %3; it is marked crashed.")
                              .arg(how, m_runningCase->kernel, shapeText(m_runningCase->shape)));
    m_runningCase.reset();
    m_doneThisEngine = 1;  // progress was made: the crashed case is settled
  }
  if (m_doneThisEngine > 0 && exitCode != 2 && exitCode != 3) {
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
  if (exitCode == 2)
    why = "The engine refused the request";
  else if (exitCode == 3)
    why = "The engine found no CUDA device";
  else
    why = QString("The engine %1").arg(how);
  finish(false, why + (m_lastStderr.isEmpty() ? QString(".") : ": " + m_lastStderr));
}

QList<RunRequest> RunController::batchesFor(const QList<Key>& left) const {
  // One engine per distinct kernel set, shapes merged, so no finished case runs again.
  QList<QPair<QStringList, QList<Shape>>> groups;
  QList<Shape> shapes;
  for (const Key& k : left)
    if (!shapes.contains(k.shape)) shapes.append(k.shape);
  for (const Shape& s : shapes) {
    QStringList kernels;
    for (const Key& k : left)
      if (k.shape == s) kernels << k.kernel;
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
    r.shapes = g.second;
    out << r;
  }
  return out;
}

void RunController::finish(bool ok, const QString& message) {
  if (!m_running) return;
  m_running = false;
  m_runningCase.reset();
  if (m_doc.wallSeconds == 0) m_doc.wallSeconds = double(m_clock.elapsed()) / 1000.0;
  emit logLine(ok ? "info" : "error", message);
  emit runFinished(m_doc, ok, message);
}

}  // namespace kwb::gui
