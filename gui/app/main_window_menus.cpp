// SPDX-License-Identifier: Apache-2.0
// MainWindow: the menus, recent files and saved settings (construction is in main_window.cpp).
#include <QActionGroup>
#include <QCloseEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QSettings>
#include <QSplitter>

#include "app/main_window.h"
#include "panels/kernel_list_widget.h"
#include "panels/run_panel.h"
#include "panels/shape_list_widget.h"

namespace kwb::gui {

void MainWindow::askForFile(const QString& title, const QString& filter, bool save,
                            const std::function<QString(const QString&)>& then) {
  const QString dir = QSettings().value("files/lastDir").toString();
  const QString path = save ? QFileDialog::getSaveFileName(this, title, dir, filter)
                            : QFileDialog::getOpenFileName(this, title, dir, filter);
  if (path.isEmpty()) return;
  QSettings().setValue("files/lastDir", QFileInfo(path).absolutePath());
  const QString error = then(path);
  if (!error.isEmpty()) QMessageBox::warning(this, title, error);
}

void MainWindow::buildFileMenu() {
  QMenu* file = menuBar()->addMenu("&File");
  // An action that asks for a file and hands its path to `then`.
  auto addFileAction = [this, file](const QString& text, const QKeySequence& keys,
                                    const QString& title, const QString& filter, bool save,
                                    QString (MainWindow::*then)(const QString&)) {
    file->addAction(text, keys, this, [this, title, filter, save, then] {
      askForFile(title, filter, save, [this, then](const QString& p) { return (this->*then)(p); });
    });
  };
  addFileAction("&Open results…", QKeySequence::Open, "Open results", "Results (*.json)", false,
                &MainWindow::openResults);
  addFileAction("Open &kernel source…", {}, "Open kernel source", "CUDA source (*.cu)", false,
                &MainWindow::openKernelSource);
  addFileAction("Open &baseline…", {}, "Open baseline", "Results (*.json)", false,
                &MainWindow::openBaseline);
  file->addAction("Clear baseline", this, [this] { m_model->clearBaseline(); });
  addFileAction("Add a run to &compare…", {}, "Add a run to compare", "Results (*.json)", false,
                &MainWindow::addCompareRun);
  file->addAction("Clear compared runs", this, [this] { m_model->clearOverlays(); });
  m_recentMenu = file->addMenu("Recent files");
  addFileAction("&Save results as…", QKeySequence::SaveAs, "Save results", "Results (*.json)", true,
                &MainWindow::saveResults);
  file->addSeparator();
  addFileAction("Export &report (PDF)…", {}, "Export report", "PDF (*.pdf)", true,
                &MainWindow::exportReport);
  addFileAction("Export plot as PNG…", {}, "Export plot", "PNG image (*.png)", true,
                &MainWindow::exportCurrentPlot);
  addFileAction("Export plot as SVG…", {}, "Export plot", "SVG image (*.svg)", true,
                &MainWindow::exportCurrentPlot);
  addFileAction("Export CSV…", {}, "Export CSV", "CSV (*.csv)", true, &MainWindow::exportText);
  addFileAction("Export Markdown…", {}, "Export Markdown", "Markdown (*.md)", true,
                &MainWindow::exportText);
  file->addSeparator();
  file->addAction("&Quit", QKeySequence::Quit, this, &QWidget::close);
}

void MainWindow::buildMenus() {
  buildFileMenu();
  QMenu* run = menuBar()->addMenu("&Run");
  run->addAction("&Run", QKeySequence(Qt::CTRL | Qt::Key_R), this, &MainWindow::startRun);
  run->addAction("&Cancel", QKeySequence(Qt::Key_Escape), this, &MainWindow::cancelRun);
  // A host pool (docs/SCALE_OUT.md): `kwb run --devices all` on the engine's host, here or on
  // the GPU server chosen in Run on.
  m_allGpus = run->addAction("Every &GPU of the host");
  m_allGpus->setCheckable(true);
  m_allGpus->setChecked(QSettings().value("engine/allGpus", false).toBool());
  m_allGpus->setToolTip(
      "Run on every GPU of the engine's host, one engine per GPU (kwb run "
      "--devices all); a user kernel's runs stay on one GPU");
  connect(m_allGpus, &QAction::toggled, this,
          [](bool on) { QSettings().setValue("engine/allGpus", on); });
  run->addAction("&Engine…", this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, "Engine (kwb)", m_controller->engine());
    if (path.isEmpty()) return;
    QSettings().setValue("engine/path", path);
    m_controller->setEngine(path);
    probeEngine();
  });

  QMenu* view = menuBar()->addMenu("&View");
  for (int i = 0; i < m_tabs->count(); ++i)
    view->addAction(m_tabs->tabText(i), QKeySequence(Qt::ALT | Qt::Key(Qt::Key_1 + i)), this,
                    [this, i] {
                      if (m_tabs->isTabVisible(i)) m_tabs->setCurrentIndex(i);
                    });
  QMenu* settings = menuBar()->addMenu("&Settings");
  QMenu* theme = settings->addMenu("&Theme");
  m_themeActions = new QActionGroup(this);
  for (Theme t : {Theme::kSystem, Theme::kLight, Theme::kDark}) {
    const QString name = themeName(t);
    QAction* a = theme->addAction(name == "system"  ? "&System"
                                  : name == "light" ? "&Light"
                                                    : "&Dark",
                                  this, [this, t] { setTheme(t); });
    a->setCheckable(true);
    a->setChecked(t == m_theme);
    a->setData(name);
    m_themeActions->addAction(a);
  }
  QMenu* help = menuBar()->addMenu("&Help");
  help->addAction("About Kernel Workbench", this, [this] {
    QMessageBox::about(this, "Kernel Workbench",
                       QString("kwb-gui %1 — verify and benchmark CUDA kernels against cuBLAS.\n"
                               "Engine: %2")
                           .arg(KWB_GUI_VERSION, m_controller->engine()));
  });
  rebuildRecentMenu();
}

void MainWindow::addRecent(const QString& path) {
  const QString abs = QFileInfo(path).absoluteFilePath();
  m_recent.removeAll(abs);
  m_recent.prepend(abs);
  while (m_recent.size() > 8) m_recent.removeLast();
  rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
  if (!m_recentMenu) return;
  m_recentMenu->clear();
  for (const QString& path : m_recent)
    m_recentMenu
        ->addAction(QFileInfo(path).fileName(), this,
                    [this, path] {
                      if (const QString e = openResults(path); !e.isEmpty())
                        QMessageBox::warning(this, "Open", e);
                    })
        ->setToolTip(path);
  m_recentMenu->setEnabled(!m_recent.isEmpty());
}

void MainWindow::setTheme(Theme t) {
  m_theme = t;
  applyTheme(t);
  if (m_themeActions)
    for (QAction* a : m_themeActions->actions()) a->setChecked(a->data() == themeName(t));
  if (m_options.persistSettings) QSettings().setValue("window/theme", themeName(t));
  rebuildAllNow();  // plots take their colours from the palette when drawn
}

void MainWindow::loadSettings() {
  QSettings s;
  m_recent = s.value("files/recent").toStringList();
  rebuildRecentMenu();
  m_shapes->choosePreset("spec-benchmark");
  // First start (or no saved geometry): a size the plots read well at, within the screen;
  // Qt's own default was 890×360 under Xvfb, with the stage labels overlapping.
  const QScreen* screen = QGuiApplication::primaryScreen();
  const QSize room = screen ? screen->availableGeometry().size() * 0.9 : QSize(1500, 950);
  resize(QSize(1500, 950).boundedTo(room));
  if (!m_options.persistSettings) return;
  if (const auto t = parseTheme(s.value("window/theme", "system").toString());
      t && *t != Theme::kSystem)
    setTheme(*t);
  restoreGeometry(s.value("window/geometry").toByteArray());
  if (auto* splitter = findChild<QSplitter*>("mainSplitter"))
    splitter->restoreState(s.value("window/splitter").toByteArray());
  m_tabs->setCurrentIndex(s.value("window/tab", 0).toInt());
  m_shapes->choosePreset(s.value("run/preset", "spec-benchmark").toString());
  for (const QString& shape : s.value("run/customShapes").toStringList())
    m_shapes->addShape(shape, true);
  m_run->setSamples(s.value("run/samples", 0).toInt());
  m_run->setColdL2(s.value("run/coldL2", false).toBool());
  m_run->setEnergySeconds(s.value("run/energySeconds", 0.0).toDouble());
}

void MainWindow::saveSettings() {
  if (!m_options.persistSettings) return;
  QSettings s;
  s.setValue("window/geometry", saveGeometry());
  if (auto* splitter = findChild<QSplitter*>("mainSplitter"))
    s.setValue("window/splitter", splitter->saveState());
  s.setValue("window/tab", m_tabs->currentIndex());
  s.setValue("files/recent", m_recent);
  s.setValue("run/preset", m_shapes->presetName());
  s.setValue("run/customShapes", m_shapes->customShapes());
  s.setValue("run/samples", m_run->samples());
  s.setValue("run/coldL2", m_run->coldL2());
  s.setValue("run/energySeconds", m_run->energySeconds());
  s.setValue("run/uncheckedKernels", m_kernels->uncheckedIds());
}

void MainWindow::closeEvent(QCloseEvent* e) {
  if (m_controller->isRunning()) m_controller->cancel();
  saveSettings();
  e->accept();
}

}  // namespace kwb::gui
