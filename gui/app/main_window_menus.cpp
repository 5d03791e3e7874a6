// MainWindow: the menus, recent files and saved settings (construction is in main_window.cpp).
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

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu("&File");
  auto ask = [this](const QString& title, const QString& filter, bool save, auto then) {
    const QString dir = QSettings().value("files/lastDir").toString();
    const QString path = save ? QFileDialog::getSaveFileName(this, title, dir, filter)
                              : QFileDialog::getOpenFileName(this, title, dir, filter);
    if (path.isEmpty()) return;
    QSettings().setValue("files/lastDir", QFileInfo(path).absolutePath());
    const QString error = then(path);
    if (!error.isEmpty()) QMessageBox::warning(this, title, error);
  };
  file->addAction("&Open results…", QKeySequence::Open, this, [this, ask] {
    ask("Open results", "Results (*.json)", false,
        [this](const QString& p) { return openResults(p); });
  });
  file->addAction("Open &kernel source…", this, [this, ask] {
    ask("Open kernel source", "CUDA source (*.cu)", false,
        [this](const QString& p) { return openKernelSource(p); });
  });
  file->addAction("Open &baseline…", this, [this, ask] {
    ask("Open baseline", "Results (*.json)", false,
        [this](const QString& p) { return openBaseline(p); });
  });
  file->addAction("Clear baseline", this, [this] { m_model->clearBaseline(); });
  file->addAction("Add a run to &compare…", this, [this, ask] {
    ask("Add a run to compare", "Results (*.json)", false,
        [this](const QString& p) { return addCompareRun(p); });
  });
  file->addAction("Clear compared runs", this, [this] { m_model->clearOverlays(); });
  m_recentMenu = file->addMenu("Recent files");
  file->addAction("&Save results as…", QKeySequence::SaveAs, this, [this, ask] {
    ask("Save results", "Results (*.json)", true,
        [this](const QString& p) { return saveResults(p); });
  });
  file->addSeparator();
  file->addAction("Export &report (PDF)…", this, [this, ask] {
    ask("Export report", "PDF (*.pdf)", true, [this](const QString& p) { return exportReport(p); });
  });
  file->addAction("Export plot as PNG…", this, [this, ask] {
    ask("Export plot", "PNG image (*.png)", true,
        [this](const QString& p) { return exportCurrentPlot(p); });
  });
  file->addAction("Export plot as SVG…", this, [this, ask] {
    ask("Export plot", "SVG image (*.svg)", true,
        [this](const QString& p) { return exportCurrentPlot(p); });
  });
  file->addAction("Export CSV…", this, [this, ask] {
    ask("Export CSV", "CSV (*.csv)", true, [this](const QString& p) { return exportText(p); });
  });
  file->addAction("Export Markdown…", this, [this, ask] {
    ask("Export Markdown", "Markdown (*.md)", true,
        [this](const QString& p) { return exportText(p); });
  });
  file->addSeparator();
  file->addAction("&Quit", QKeySequence::Quit, this, &QWidget::close);

  QMenu* run = menuBar()->addMenu("&Run");
  run->addAction("&Run", QKeySequence(Qt::CTRL | Qt::Key_R), this, &MainWindow::startRun);
  run->addAction("&Cancel", QKeySequence(Qt::Key_Escape), this, &MainWindow::cancelRun);
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
  restoreGeometry(s.value("window/geometry").toByteArray());
  if (auto* splitter = findChild<QSplitter*>("mainSplitter"))
    splitter->restoreState(s.value("window/splitter").toByteArray());
  m_tabs->setCurrentIndex(s.value("window/tab", 0).toInt());
  m_shapes->choosePreset(s.value("run/preset", "spec-benchmark").toString());
  for (const QString& shape : s.value("run/customShapes").toStringList())
    m_shapes->addShape(shape, true);
  m_run->setSamples(s.value("run/samples", 0).toInt());
  m_run->setColdL2(s.value("run/coldL2", false).toBool());
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
  s.setValue("run/uncheckedKernels", m_kernels->uncheckedIds());
}

void MainWindow::closeEvent(QCloseEvent* e) {
  if (m_controller->isRunning()) m_controller->cancel();
  saveSettings();
  e->accept();
}

}  // namespace kwb::gui
