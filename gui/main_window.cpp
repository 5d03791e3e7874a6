#include "main_window.h"

#include <QAction>
#include <QCloseEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTimer>
#include <QVBoxLayout>

#include "app_paths.h"
#include "baseline_page.h"
#include "case_detail_dialog.h"
#include "correctness_page.h"
#include "device_panel.h"
#include "doc_queries.h"
#include "kernel_list_widget.h"
#include "log_page.h"
#include "progression_page.h"
#include "roofline_page.h"
#include "run_on_combo.h"
#include "run_panel.h"
#include "scaling_page.h"
#include "shape_list_widget.h"
#include "timing_page.h"
#include "tuning_page.h"

namespace kwb::gui {
namespace {

QLabel* sectionLabel(const QString& text, QWidget* parent) {
  auto* l = new QLabel(text, parent);
  l->setStyleSheet("font-weight: bold; margin-top: 6px;");
  return l;
}

}  // namespace

MainWindow::MainWindow(const WindowOptions& options, QWidget* parent)
    : QMainWindow(parent), m_options(options) {
  setAcceptDrops(true);
  m_model = new ResultsModel(this);
  m_controller = new RunController(this);
  m_controller->setEngine(findEngine(options.engineOverride).program);

  m_tabs = new QTabWidget(this);
  m_progression = new ProgressionPage(m_model);
  m_scaling = new ScalingPage(m_model);
  m_timing = new TimingPage(m_model);
  m_roofline = new RooflinePage(m_model);
  m_correctness = new CorrectnessPage(m_model);
  m_tuning = new TuningPage(m_model);
  m_baseline = new BaselinePage(m_model);
  m_log = new LogPage;
  m_tabs->addTab(m_progression, "Progression");
  m_tabs->addTab(m_scaling, "Scaling");
  m_tabs->addTab(m_timing, "Timing");
  m_tabs->addTab(m_roofline, "Roofline");
  m_tabs->addTab(m_correctness, "Correctness");
  m_tabs->addTab(m_tuning, "Tuning");
  m_tabs->setTabVisible(m_tabs->indexOf(m_tuning), false);
  m_tabs->addTab(m_baseline, "Baseline");
  m_tabs->addTab(m_log, "Log");

  m_message = new QLabel(this);
  m_message->setWordWrap(true);
  m_message->hide();
  auto* right = new QWidget(this);
  auto* rightLayout = new QVBoxLayout(right);
  rightLayout->setContentsMargins(0, 0, 0, 0);
  rightLayout->addWidget(m_message);
  rightLayout->addWidget(m_tabs, 1);

  auto* splitter = new QSplitter(this);
  splitter->setObjectName("mainSplitter");
  splitter->addWidget(buildLeftPanel());
  splitter->addWidget(right);
  splitter->setStretchFactor(1, 1);
  splitter->setSizes({300, 1000});
  setCentralWidget(splitter);
  m_summary = new QLabel(this);
  statusBar()->addWidget(m_summary, 1);
  buildMenus();

  connect(m_model, &ResultsModel::documentReset, this, &MainWindow::updateTitleAndStatus);
  connect(m_model, &ResultsModel::documentReset, this, [this] {
    m_tabs->setTabVisible(m_tabs->indexOf(m_tuning), m_model->document().tuning.has_value());
  });
  connect(m_model, &ResultsModel::caseAppended, this, &MainWindow::updateTitleAndStatus);
  connect(m_model, &ResultsModel::documentReset, this, &MainWindow::watchSource);
  connect(&m_watcher, &QFileSystemWatcher::fileChanged, this, [this](const QString& path) {
    // Writers replace the file (write, then rename): wait for the new one to be complete.
    QTimer::singleShot(300, this, [this, path] { reloadChangedSource(path); });
  });
  // Impossible speeds (negative, 1e300 GFLOP/s) are left out of every plot, and said so.
  connect(m_model, &ResultsModel::documentReset, this, [this] {
    if (const QString note = implausibleNote(m_model->document()); !note.isEmpty())
      showMessage(note, true);
  });
  auto refreshKernels = [this] {
    const QStringList unchecked = QSettings().value("run/uncheckedKernels").toStringList();
    m_kernels->setCatalog(m_model->catalog(), unchecked);
    // Headless reports and tests plot every kernel, whatever an earlier session unchecked.
    if (m_options.persistSettings) m_model->setHiddenKernels(m_kernels->uncheckedIds());
  };
  // The kernel checkboxes choose what runs and what every plot shows.
  connect(m_kernels, &KernelListWidget::selectionChanged, this,
          [this] { m_model->setHiddenKernels(m_kernels->uncheckedIds()); });
  connect(m_model, &ResultsModel::catalogChanged, this, refreshKernels);
  connect(m_model, &ResultsModel::documentReset, this, refreshKernels);
  connect(m_correctness, &CorrectnessPage::caseActivated, this, [this](const CaseResult& c) {
    auto* dialog = caseDialog(c.kernel, c.shape);
    if (!dialog) return;
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
  });

  // Live runs: each finished case goes into the model as it arrives.
  connect(m_controller, &RunController::runStarted, this, [this](const RunDocument& header) {
    m_model->setDocument(header, "live run", true);
    m_run->setRunning(true);
    m_run->setStatus("Starting the engine…");
    showMessage({}, false);
  });
  connect(m_controller, &RunController::headerChanged, m_model, &ResultsModel::setHeader);
  connect(m_controller, &RunController::caseStarted, this,
          [this](const QString& kernel, const Shape& shape) {
            m_run->setStatus(QString("Running %1 at %2").arg(kernel, shapeText(shape)));
          });
  connect(m_controller, &RunController::caseFinished, m_model, &ResultsModel::appendCase);
  connect(m_controller, &RunController::progress, this, [this](int done, int total) {
    m_run->setProgress(done, total, m_controller->etaSeconds());
  });
  connect(m_controller, &RunController::logLine, m_log, &LogPage::append);
  connect(m_controller, &RunController::runFinished, this,
          [this](const RunDocument& doc, bool ok, const QString& message) {
            m_model->setDocument(doc, "unsaved run", false);
            m_run->setRunning(false);
            m_run->setProgress(int(doc.cases.size()), m_controller->totalCases(), -1);
            m_run->setStatus(message, !ok);
            if (!ok) showMessage(message, true);
          });
  connect(m_run, &RunPanel::runRequested, this, &MainWindow::startRun);
  connect(m_run, &RunPanel::cancelRequested, this, &MainWindow::cancelRun);

  m_shapes->setPresets(loadPresets());
  loadSettings();
  // The engine's location: the saved choice, or --remote. Another one asks its engine anew.
  m_controller->setLocation(m_runOn->current());
  connect(m_runOn, &RunOnCombo::locationChanged, this, [this](const EngineLocation& where) {
    m_controller->setLocation(where);
    m_log->append("info", "Run on: " + where.label());
    if (m_options.probeEngine) probeEngine();
  });
  if (!options.remote.isEmpty())
    if (const QString error = m_runOn->select(locationFor(options.remote, m_runOn->hosts()));
        !error.isEmpty())
      showMessage(error, true);
  m_log->append("info", QString("Engine: %1")
                            .arg(m_controller->engine().isEmpty() ? QString("not found")
                                                                  : m_controller->engine()));
}

MainWindow::~MainWindow() {
  // A probe still running would report into pages already destroyed: silence it first.
  for (QProcess* probe : {m_listProbe, m_deviceProbe})
    if (probe) {
      probe->disconnect(this);
      probe->kill();
      probe->waitForFinished(1000);
    }
}

QWidget* MainWindow::buildLeftPanel() {
  auto* inner = new QWidget;
  auto* layout = new QVBoxLayout(inner);
  m_device = new DevicePanel(inner);
  layout->addWidget(m_device);
  layout->addWidget(sectionLabel("Kernels", inner));
  m_kernels = new KernelListWidget(inner);
  m_kernels->setMinimumHeight(180);
  layout->addWidget(m_kernels, 1);
  layout->addWidget(sectionLabel("Shapes", inner));
  m_shapes = new ShapeListWidget(inner);
  layout->addWidget(m_shapes);
  layout->addWidget(sectionLabel("Run", inner));
  auto* runOn = new QHBoxLayout;
  runOn->addWidget(new QLabel("Run on:", inner));
  m_runOn = new RunOnCombo(m_options.persistSettings, inner);
  runOn->addWidget(m_runOn, 1);
  layout->addLayout(runOn);
  m_run = new RunPanel(inner);
  layout->addWidget(m_run);
  auto* scroll = new QScrollArea;
  scroll->setWidget(inner);
  scroll->setWidgetResizable(true);
  scroll->setMinimumWidth(260);
  return scroll;
}

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

void MainWindow::showMessage(const QString& text, bool error) {
  m_message->setText(text);
  m_message->setStyleSheet(error ? "QLabel { background: #f8d7da; color: #58151c; padding: 6px; "
                                   "border: 1px solid #e0a0a8; }"
                                 : "QLabel { background: #cfe2ff; color: #052c65; padding: 6px; }");
  m_message->setVisible(!text.isEmpty());
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

void MainWindow::showOpenError(const QString& text) {
  showMessage(text, true);
  auto* box = new QMessageBox(QMessageBox::Critical, "Could not open the results", text,
                              QMessageBox::Ok, this);
  box->setObjectName("openErrorDialog");
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
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

void MainWindow::updateTitleAndStatus() {
  const QString source = m_model->source();
  setWindowTitle(source.isEmpty()
                     ? QString("Kernel Workbench")
                     : QString("Kernel Workbench — %1").arg(QFileInfo(source).fileName()));
  m_summary->setText("● " + caseSummaryLine(m_model->document()));
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

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
  if (e->mimeData()->hasUrls()) e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
  const auto urls = e->mimeData()->urls();
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
