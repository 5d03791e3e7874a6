// SPDX-License-Identifier: Apache-2.0
// MainWindow: a kernel of the user's own, run from its .cu file (docs/BRING_YOUR_OWN.md, "In
// the GUI"). Opening it lists user.<stem>; every save recompiles it and runs the last request
// again; a failed compile keeps the last good results on screen and lists the errors; a good
// run shows the kernel next to its previous run (kept as the baseline), and `kwb ab` then times
// the copy of this save against the copy of the last good one, interleaved, for the verdict.
#include <QDateTime>
#include <QFileInfo>
#include <QTimer>

#include "app/main_window.h"
#include "engine/editor_launch.h"
#include "kwb/ab_report.h"
#include "model/compile_diagnostics.h"
#include "model/kernel_change.h"
#include "pages/log_page.h"
#include "panels/kernel_list_widget.h"
#include "panels/run_panel.h"
#include "panels/user_kernel_panel.h"

namespace kwb::gui {

QString MainWindow::openKernelSource(const QString& path) {
  const QFileInfo info(path);
  if (!info.isFile()) return QString("Cannot open the kernel source '%1': no such file.").arg(path);
  if (info.suffix().compare("cu", Qt::CaseInsensitive) != 0)
    return QString("Cannot open the kernel source '%1': a kernel's source is a .cu file.")
        .arg(path);
  if (!m_userWatcher->setSource(info.absoluteFilePath()))
    return QString("Cannot watch the kernel source '%1' for saves.").arg(path);
  const QString id = UserKernelWatcher::caseId(path);
  KernelInfo k;
  k.id = id.toStdString();
  k.name = info.completeBaseName().toStdString() + " (user)";
  k.family = "user";
  k.description = "your kernel, compiled at run time from " + path.toStdString();
  m_model->addKernel(k);
  m_userRequest.reset();
  m_lastGoodUserRun.reset();
  m_ab->cancel();
  m_snapshots.clear();
  m_userPanel->setSource(userKernelSource(), id);
  m_userPanel->setStatus("Choose shapes and Run; then every save runs it again.");
  m_log->append("info", QString("Watching %1 (%2).").arg(userKernelSource(), id));
  return {};
}

void MainWindow::runRequest(RunRequest r) {
  if (m_controller->isRunning() || m_slurm->isRunning() || runOnCluster(r)) return;
  if (m_ab->isRunning()) {  // the GPU is the new run's: a save or Run stops the A/B timing
    m_ab->cancel();
    m_userPanel->setAbNote("stopped: a new run started before it ended.");
  }
  const QString id = UserKernelWatcher::caseId(userKernelSource());
  r.source = !userKernelSource().isEmpty() && r.kernels.contains(id) ? userKernelSource() : "";
  m_runHasSource = !r.source.isEmpty();
  // kwb refuses --source with --devices: a user kernel's run stays on one GPU.
  if (m_allGpus && m_allGpus->isChecked() && !m_runHasSource) r.devices = "all";
  if (m_runHasSource) {
    m_userRequest = r;
    // The file as this run compiles it: the engine reads it as it starts, right after this.
    if (const QString error = m_snapshots.take(r.source); !error.isEmpty())
      m_log->append("warning", error);
  }
  m_beforeRun = {m_model->document(), m_model->source(), m_model->baseline(),
                 m_model->baselineSource()};
  m_runStderr.clear();
  m_controller->start(r);
}

void MainWindow::connectUserKernel() {
  connect(m_userWatcher, &UserKernelWatcher::saved, this, &MainWindow::onUserKernelSaved);
  connect(m_controller, &RunController::logLine, this,
          [this](const QString& level, const QString& line) {
            if (level == "engine") m_runStderr << line;
          });
  // After connectController's handler, which shows the run that ended.
  connect(m_controller, &RunController::runFinished, this,
          [this](const RunDocument& doc, bool ok, const QString&) { onUserRunFinished(doc, ok); });
  connect(m_ab, &AbRunner::logLine, m_log, &LogPage::append);
  connect(m_ab, &AbRunner::finished, this,
          [this](const AbReport& report) { m_userPanel->setAbReport(report); });
  connect(m_ab, &AbRunner::failed, this,
          [this](const QString& why) { m_userPanel->setAbFailed(why, m_userChanges); });
  connect(m_userPanel, &UserKernelPanel::openRequested, this,
          [this](const QString& file, int line) {
            if (const QString err = openInEditor(file, line); !err.isEmpty())
              showMessage(err, true);
          });
}

void MainWindow::onUserKernelSaved() {
  const QString at = QTime::currentTime().toString("HH:mm:ss");
  if (m_controller->isRunning()) {
    m_rerunPending = true;  // one run more when this one ends, whatever the number of saves
    m_userPanel->setStatus(QString("Saved at %1: it runs again when this run ends.").arg(at));
    return;
  }
  m_userPanel->setStatus(QString("Saved at %1: compiling and running…").arg(at));
  m_log->append("info", QString("%1 was saved: running it again.").arg(userKernelSource()));
  if (m_userRequest)
    runRequest(*m_userRequest);
  else
    startRun();
}

void MainWindow::onUserRunFinished(const RunDocument& doc, bool ok) {
  if (!m_runHasSource) return;
  m_runHasSource = false;
  const QString id = UserKernelWatcher::caseId(userKernelSource());
  const QString at = QTime::currentTime().toString("HH:mm:ss");
  if (doc.cases.empty()) {
    // Nothing ran: the compile failed (or the engine refused): the last good results stay.
    m_snapshots.discard();
    m_model->setDocument(m_beforeRun.doc, m_beforeRun.source, false);
    if (m_beforeRun.baseline)
      m_model->setBaselineDocument(*m_beforeRun.baseline, m_beforeRun.baselineSource);
    else
      m_model->clearBaseline();
    const QList<CompileDiagnostic> diagnostics = parseCompileDiagnostics(m_runStderr);
    m_userPanel->setDiagnostics(diagnostics);
    m_userPanel->setStatus(
        diagnostics.isEmpty()
            ? QString("%1: the run did not start (see the Log); the results shown are the last "
                      "good run's.")
                  .arg(at)
            : QString("%1: the compile failed with %2 error(s); the results shown are the last "
                      "good run's. Click an error to open the file at its line.")
                  .arg(at)
                  .arg(diagnostics.size()),
        true);
  } else {
    const bool hadPrevious = m_lastGoodUserRun.has_value();
    if (m_lastGoodUserRun)
      m_model->setBaselineDocument(*m_lastGoodUserRun, QString("previous run of %1").arg(id));
    m_userChanges = kernelChanges(doc, m_lastGoodUserRun, id.toStdString());
    m_userPanel->setChanges(m_userChanges);
    m_userPanel->setStatus(m_userChanges.isEmpty()
                               ? QString("%1: the run ended without a case of %2.").arg(at, id)
                               : QString("%1: compiled and ran.").arg(at));
    m_lastGoodUserRun = doc;
    m_snapshots.accept();
    if (m_rerunPending)
      m_userPanel->setAbNote("not run: the file was saved again, so the next run is timed.");
    else
      startUserAb(doc, ok, hadPrevious);
  }
  if (m_rerunPending) {
    m_rerunPending = false;
    QTimer::singleShot(0, this, &MainWindow::onUserKernelSaved);
  }
}

void MainWindow::startUserAb(const RunDocument& doc, bool ok, bool hadPrevious) {
  if (!hadPrevious) {
    m_userPanel->setAbNote("the first good run of this file; the next save is timed against it.");
    return;
  }
  const std::string id = UserKernelWatcher::caseId(userKernelSource()).toStdString();
  const SourceCopy& a = m_snapshots.previousGood();
  const SourceCopy& b = m_snapshots.lastGood();
  AbRequest request;
  request.against = a.path;
  request.source = b.path;
  request.entry = b.entry;
  for (const CaseResult& c : doc.cases)
    if (c.kernel == id && c.timed() && !request.shapes.contains(c.shape()))
      request.shapes << c.shape();
  request.seed = m_userRequest ? m_userRequest->seed : std::nullopt;
  request.device = m_userRequest ? m_userRequest->device : 0;
  QString why;
  if (!ok)
    why = "kwb ab was not run: this run did not end well (see the Log).";
  else if (request.shapes.isEmpty())
    why = "kwb ab was not run: this save was timed at no size.";
  else if (request.against.isEmpty() || request.source.isEmpty())
    why = "kwb ab was not run: no copy of one of the two versions was kept (see the Log).";
  else if (a.entry != b.entry)
    why = QString(
              "kwb ab was not run: the entry function was renamed (%1, then %2), and kwb ab "
              "takes one --entry for both versions.")
              .arg(a.entry, b.entry);
  if (why.isEmpty()) {
    m_ab->setEngine(m_controller->engine());
    m_ab->setLocation(m_controller->location());
    why = m_ab->start(request);
  }
  if (why.isEmpty())
    m_userPanel->setAbNote(
        QString("timing both versions at %1 size(s)…").arg(request.shapes.size()));
  else
    m_userPanel->setAbFailed(why, m_userChanges);
}

}  // namespace kwb::gui
