// SPDX-License-Identifier: Apache-2.0
// MainWindow: opening, saving, exporting and watching files, and files dropped on the window
// (construction is in main_window.cpp).
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QMimeData>
#include <QUrl>
#include <QTimer>
#include <QSettings>
#include <algorithm>

#include "app/main_window.h"
#include "engine/app_paths.h"
#include "panels/shape_list_widget.h"
#include "kwb/error.h"
#include "kwb/exporters.h"
#include "kwb/output_files.h"
#include "kwb/results_json.h"
#include "model/doc_queries.h"
#include "pages/baseline_page.h"
#include "pages/correctness_page.h"
#include "pages/log_page.h"
#include "pages/progression_page.h"
#include "pages/roofline_page.h"
#include "pages/scaling_page.h"
#include "pages/timing_page.h"
#include "pages/tuning_page.h"
#include "panels/device_panel.h"
#include "panels/kernel_list_widget.h"
#include "panels/run_panel.h"
#include "panels/shape_list_widget.h"
#include "report/report_writer.h"

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
  // The run panel offers the opened run's suite again (reduce-benchmark for a reduce run),
  // unless shapes were added by hand, which a switch of suite would drop.
  if (const std::string& suite = m_model->document().settings.suite;
      !suite.empty() && !m_shapes->suiteName().isEmpty())
    m_shapes->choosePreset(QString::fromStdString(suite));
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

QString MainWindow::checkExport(const QString& path) const {
  try {
    checkOutputs({{"the open results", QFile::encodeName(m_model->source()).toStdString()},
                  {"the baseline", QFile::encodeName(m_model->baselineSource()).toStdString()}},
                 {{"export", QFile::encodeName(path).toStdString()}});
  } catch (const InputError& e) {
    return QString::fromLocal8Bit(e.what()) + ".";
  }
  return {};
}

QString MainWindow::exportReport(const QString& path, const QString& option) {
  if (QString err = checkExport(path); !err.isEmpty()) {
    m_log->append("error", err);
    return err;
  }
  rebuildAllNow();
  ReportInputs in;
  in.model = m_model;
  in.progression = m_progression;
  in.timing = m_timing;
  const RunDocument& doc = m_model->document();
  if (std::any_of(doc.cases.begin(), doc.cases.end(),
                  [&](const CaseResult& c) { return hasSpeed(doc, c); }))
    in.plots = {m_scaling, m_roofline};
  if (doc.tuning) in.plots << m_tuning;
  QString err = writeReportPdf(in, path, option);
  m_log->append(err.isEmpty() ? "info" : "error",
                err.isEmpty() ? "Report written to " + path : err);
  return err;
}

PlotPage* MainWindow::currentPlotPage() const {
  return qobject_cast<PlotPage*>(m_tabs->currentWidget());
}

QString MainWindow::exportCurrentPlot(const QString& path) {
  if (QString err = checkExport(path); !err.isEmpty()) return err;
  PlotPage* page = currentPlotPage();
  if (!page) page = m_progression;
  page->rebuildNow();
  return path.endsWith(".svg", Qt::CaseInsensitive) ? savePlotSvg(page->plot(), path)
                                                    : savePlotPng(page->plot(), path);
}

QString MainWindow::exportText(const QString& path) {
  if (QString err = checkExport(path); !err.isEmpty()) return err;
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

void MainWindow::watchSource() {
  const QString source = m_model->source();
  if (!m_watcher.files().isEmpty()) m_watcher.removePaths(m_watcher.files());
  if (!m_model->isLive() && QFileInfo(source).isFile()) m_watcher.addPath(source);
}

void MainWindow::reloadChangedSource(const QString& path) {
  if (path != m_model->source() || m_controller->isRunning()) return;
  if (!QFileInfo(path).isFile()) {
    showMessage(
        QString("'%1' was removed or renamed on disk; showing the results as last read.").arg(path),
        true);
    return;
  }
  try {
    m_model->open(path);  // resets the document, and watches the file again
  } catch (const std::exception& e) {
    // Half-written, or broken: keep what is shown and say so.
    showMessage(QString("'%1' changed on disk and could not be reloaded: %2").arg(path, e.what()),
                true);
    watchSource();
    return;
  }
  m_log->append("info", QString("Reloaded %1: it changed on disk.").arg(path));
  showMessage(QString("Reloaded %1: it changed on disk.").arg(QFileInfo(path).fileName()), false);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
  if (e->mimeData()->hasUrls()) e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
  QList<QUrl> urls;
  // A kernel's source (.cu) is opened as a user kernel; the other files are results.
  for (const QUrl& url : e->mimeData()->urls()) {
    if (!url.toLocalFile().endsWith(".cu", Qt::CaseInsensitive)) {
      urls << url;
      continue;
    }
    if (const QString err = openKernelSource(url.toLocalFile()); !err.isEmpty())
      showMessage(err, true);
    e->acceptProposedAction();
  }
  if (urls.isEmpty()) return;
  // First file opens; a second dropped with it becomes the baseline.
  if (const QString err = openResults(urls[0].toLocalFile()); !err.isEmpty()) {
    showMessage(err, true);
    return;
  }
  if (urls.size() > 1)
    if (const QString err = openBaseline(urls[1].toLocalFile()); !err.isEmpty())
      showMessage(err, true);
  // More files dropped at once are runs to compare.
  for (int i = 2; i < urls.size(); ++i)
    if (const QString err = addCompareRun(urls[i].toLocalFile()); !err.isEmpty())
      showMessage(err, true);
  e->acceptProposedAction();
}

}  // namespace kwb::gui
