// MainWindow: files, exports, the engine probe and runs (construction is in main_window.cpp).
#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QFileInfo>
#include <QSettings>
#include <algorithm>

#include "app_paths.h"
#include "baseline_page.h"
#include "case_detail_dialog.h"
#include "correctness_page.h"
#include "device_panel.h"
#include "doc_queries.h"
#include "kernel_list_widget.h"
#include "kwb/error.h"
#include "kwb/exporters.h"
#include "kwb/results_json.h"
#include "log_page.h"
#include "main_window.h"
#include "progression_page.h"
#include "remote_failure.h"
#include "report_writer.h"
#include "roofline_page.h"
#include "run_panel.h"
#include "scaling_page.h"
#include "shape_list_widget.h"
#include "ssh_command.h"
#include "timing_page.h"
#include "tuning_page.h"

namespace kwb::gui {

QString MainWindow::openResults(const QString& path) {
  if (m_controller->isRunning())
    return QString("Cannot open '%1' while a run is in progress; cancel it first.").arg(path);
  try {
    m_model->open(path);
  } catch (const std::exception& e) {
    m_log->append("error", QString::fromStdString(e.what()));
    return QString::fromStdString(e.what());
  }
  addRecent(path);
  showDocumentTabs();
  m_log->append("info",
                QString("Opened %1 (%2 cases).").arg(path).arg(m_model->document().cases.size()));
  if (!m_device->hasLiveDevice()) {
    if (m_noDevice || m_engineMissing)
      m_device->setNoDevice(m_model->document(),
                            m_engineMissing ? "engine not found" : "no CUDA device");
    else
      m_device->setRecorded(m_model->document());
  }
  return {};
}

void MainWindow::showDocumentTabs() {
  const RunDocument& doc = m_model->document();
  if (!doc.cases.empty()) return;
  if (doc.tuning)
    m_tabs->setCurrentWidget(m_tuning);
  else if (doc.conformance)
    m_tabs->setCurrentWidget(m_correctness);
}

QString MainWindow::openBaseline(const QString& path) {
  try {
    m_model->openBaseline(path);
  } catch (const std::exception& e) {
    m_log->append("error", QString::fromStdString(e.what()));
    return QString::fromStdString(e.what());
  }
  m_log->append("info", QString("Baseline: %1").arg(path));
  return {};
}

QString MainWindow::addCompareRun(const QString& path) {
  try {
    m_model->addOverlay(path);
  } catch (const std::exception& e) {
    m_log->append("error", QString::fromStdString(e.what()));
    return QString::fromStdString(e.what());
  }
  m_log->append("info", QString("Comparing with %1").arg(path));
  return {};
}

QString MainWindow::saveResults(const QString& path) {
  try {
    writeDocument(m_model->document(), path.toStdString());
  } catch (const std::exception& e) {
    return QString::fromStdString(e.what());
  }
  if (m_model->source() == "unsaved run") m_model->setDocument(m_model->document(), path);
  addRecent(path);
  return {};
}

QString MainWindow::exportReport(const QString& path) {
  rebuildAllNow();
  ReportInputs in;
  in.model = m_model;
  in.progression = m_progression;
  in.timing = m_timing;
  const RunDocument& doc = m_model->document();
  if (std::any_of(doc.cases.begin(), doc.cases.end(), hasSpeed)) in.plots = {m_scaling, m_roofline};
  if (doc.tuning) in.plots << m_tuning;
  const QString err = writeReportPdf(in, path);
  m_log->append(err.isEmpty() ? "info" : "error",
                err.isEmpty() ? "Report written to " + path : err);
  return err;
}

PlotPage* MainWindow::currentPlotPage() const {
  return qobject_cast<PlotPage*>(m_tabs->currentWidget());
}

QString MainWindow::exportCurrentPlot(const QString& path) {
  PlotPage* page = currentPlotPage();
  if (!page) page = m_progression;
  page->rebuildNow();
  return path.endsWith(".svg", Qt::CaseInsensitive) ? savePlotSvg(page->plot(), path)
                                                    : savePlotPng(page->plot(), path);
}

QString MainWindow::exportText(const QString& path) {
  const bool md = path.endsWith(".md", Qt::CaseInsensitive);
  try {
    const std::string text = md ? toMarkdown(m_model->document()) : toCsv(m_model->document());
    writeTextFile(path.toStdString(), text);
  } catch (const std::exception& e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

bool MainWindow::openBundledSample() {
  const QString sample = newestSample();
  if (sample.isEmpty()) {
    m_log->append("warning", "No bundled sample results were found in resources/samples.");
    return false;
  }
  const QString err = openResults(sample);
  if (!err.isEmpty()) showMessage(err, true);
  return err.isEmpty();
}

void MainWindow::probeEngine() {
  const QString engine = m_controller->engine();
  const EngineLocation where = m_controller->location();
  if (where.isLocal() && (engine.isEmpty() || !QFileInfo(engine).isExecutable())) {
    m_engineMissing = true;
    m_device->setNoDevice(m_model->document(), "engine not found");
    m_run->setRunEnabled(false, "The engine kwb was not found.");
    showMessage(
        QString("The engine kwb was not found (%1). Showing recorded results; set its path "
                "in Run ▸ Engine… to run kernels.")
            .arg(engine.isEmpty() ? QString("looked beside kwb-gui, in the build tree and on PATH")
                                  : QString("'%1' is not an executable file").arg(engine)),
        true);
    return;
  }
  m_engineMissing = false;
  // Answers of an earlier location's probes must not land in this one's panels.
  for (QProcess* old : {m_listProbe, m_deviceProbe})
    if (old) old->disconnect(this);
  delete m_listProbe;
  m_listProbe = new QProcess(this);
  connect(m_listProbe, &QProcess::finished, this, [this, where](int code, QProcess::ExitStatus) {
    if (code != 0) {
      const QString remote =
          where.isLocal() ? QString()
                          : describeRemoteFailure(
                                where.label(), code,
                                QString::fromUtf8(m_listProbe->readAllStandardError()), false);
      m_log->append("warning", (remote.isEmpty() ? QString("`kwb list --json` exited with code "
                                                           "%1.")
                                                       .arg(code)
                                                 : remote) +
                                   " Using the kernels of the open results.");
      return;
    }
    try {
      m_model->setEngineCatalog(KernelCatalog::fromListJson(m_listProbe->readAllStandardOutput()));
    } catch (const InputError& e) {
      m_log->append("error", QString::fromStdString(e.what()));
    }
  });
  const EngineCommand list = engineCommand(where, engine, {"list", "--json"});
  m_listProbe->start(list.program, list.arguments);
  delete m_deviceProbe;
  m_deviceProbe = new QProcess(this);
  connect(m_deviceProbe, &QProcess::finished, this,
          [this](int code, QProcess::ExitStatus) { onDeviceProbeFinished(code); });
  connect(m_deviceProbe, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
    if (e == QProcess::FailedToStart) onDeviceProbeFinished(-1);
  });
  const EngineCommand device = engineCommand(where, engine, {"device", "--json"});
  m_deviceProbe->start(device.program, device.arguments);
}

void MainWindow::onDeviceProbeFinished(int exitCode) {
  const QString err = QString::fromUtf8(m_deviceProbe->readAllStandardError()).trimmed();
  const EngineLocation where = m_controller->location();
  if (const QString remote =
          where.isLocal() ? QString() : describeRemoteFailure(where.label(), exitCode, err, false);
      !remote.isEmpty()) {
    m_noDevice = true;
    m_device->setNoDevice(m_model->document(), remote);
    m_run->setRunEnabled(false, remote);
    m_log->append("error", remote);
    showMessage(remote, true);
    return;
  }
  if (exitCode == 0) {
    try {
      const auto j = nlohmann::json::parse(m_deviceProbe->readAllStandardOutput().toStdString());
      m_device->setLiveDevice(j.get<DeviceInfo>());
      m_noDevice = false;
      m_run->setRunEnabled(true);
      m_log->append("info", QString("CUDA device found%1: %2")
                                .arg(where.isLocal() ? QString() : " on " + where.label(),
                                     QString::fromStdString(j.value("name", ""))));
      return;
    } catch (const std::exception& e) {
      m_log->append("error",
                    QString("`kwb device --json` printed something unreadable: %1").arg(e.what()));
    }
  }
  m_noDevice = true;
  m_device->setNoDevice(m_model->document(), err);
  m_run->setRunEnabled(false, "No CUDA device: " + err);
  m_log->append("warning",
                exitCode == 3
                    ? "No CUDA device: " + err
                    : QString("`kwb device` failed (exit %1): %2").arg(exitCode).arg(err));
}

bool MainWindow::selectTab(const QString& name) {
  for (int i = 0; i < m_tabs->count(); ++i)
    if (m_tabs->isTabVisible(i) && m_tabs->tabText(i).compare(name, Qt::CaseInsensitive) == 0) {
      m_tabs->setCurrentIndex(i);
      return true;
    }
  return false;
}

QStringList MainWindow::tabNames() const {
  QStringList out;
  for (int i = 0; i < m_tabs->count(); ++i)
    if (m_tabs->isTabVisible(i)) out << m_tabs->tabText(i);
  return out;
}

void MainWindow::rebuildAllNow() {
  for (PlotPage* p :
       std::initializer_list<PlotPage*>{m_progression, m_scaling, m_timing, m_roofline, m_tuning})
    p->rebuildNow();
  m_correctness->rebuildNow();
  m_baseline->rebuildNow();
}

void MainWindow::startRun() {
  if (m_controller->isRunning()) return;
  RunRequest r;
  r.kernels = m_kernels->checkedIds();
  r.shapes = m_shapes->checkedShapes();
  r.samples = m_run->samples();
  r.coldL2 = m_run->coldL2();
  if (r.kernels.isEmpty() || r.shapes.isEmpty()) {
    m_run->setStatus("Choose at least one kernel and one shape.", true);
    return;
  }
  m_controller->start(r);
}

void MainWindow::cancelRun() {
  if (!m_controller->isRunning()) return;
  m_run->setStatus("Cancelling…");
  m_controller->cancel();
}

ProfileContext MainWindow::profileContext() const {
  const QFileInfo source(m_model->source());
  QString dir = source.isFile() ? source.absolutePath() : QString();
  if (dir.isEmpty()) {
    dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/profiles";
    QDir().mkpath(dir);
  }
  return {findEngine(m_options.engineOverride).program, dir};
}

CaseDetailDialog* MainWindow::caseDialog(const std::string& kernel, const Shape& shape) {
  for (const auto& c : m_model->document().cases)
    if (c.kernel == kernel && c.shape == shape) {
      auto* dialog = new CaseDetailDialog(c, this);
      dialog->enableProfiling(profileContext());
      return dialog;
    }
  return nullptr;
}

}  // namespace kwb::gui
