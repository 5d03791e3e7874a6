// SPDX-License-Identifier: Apache-2.0
#include "app/main_window.h"

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

#include "model/case_size.h"
#include "engine/app_paths.h"
#include "model/doc_queries.h"
#include "pages/baseline_page.h"
#include "pages/correctness_page.h"
#include "pages/log_page.h"
#include "pages/progression_page.h"
#include "pages/roofline_page.h"
#include "pages/scaling_page.h"
#include "pages/timing_page.h"
#include "pages/tuning_page.h"
#include "panels/case_detail_dialog.h"
#include "panels/device_panel.h"
#include "panels/kernel_list_widget.h"
#include "panels/run_on_combo.h"
#include "panels/run_panel.h"
#include "panels/shape_list_widget.h"
#include "panels/user_kernel_panel.h"

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
  m_slurm = new SlurmRun(this);
  m_userWatcher = new UserKernelWatcher(this);
  m_ab = new AbRunner(this);
  m_controller->setEngine(findEngine(options.engineOverride).program);

  buildTabs();
  buildCentralWidget();
  buildMenus();
  connectModel();
  connectController();
  connectUserKernel();
  connectSlurm();
  connect(m_run, &RunPanel::runRequested, this, &MainWindow::startRun);
  connect(m_run, &RunPanel::cancelRequested, this, &MainWindow::cancelRun);

  QStringList presetProblems, presetsWaiting;
  m_shapes->setPresets(loadPresets(&presetProblems, &presetsWaiting));
  for (const QString& problem : presetProblems) m_log->append("warning", problem);
  if (!presetsWaiting.isEmpty())
    m_log->append("info", "Presets of families the engine declares, offered once it has: " +
                              presetsWaiting.join(", ") + ".");
  loadSettings();
  chooseEngineLocation();
  m_log->append("info", QString("Engine: %1")
                            .arg(m_controller->engine().isEmpty() ? QString("not found")
                                                                  : m_controller->engine()));
}

void MainWindow::buildTabs() {
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
}

void MainWindow::buildCentralWidget() {
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
}

void MainWindow::connectModel() {
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
    m_shapes->addFamilies(m_model->document().families);  // a typed size may be of them
    if (const QString note = implausibleNote(m_model->document()); !note.isEmpty())
      showMessage(note, true);
  });
  auto refreshKernels = [this] {
    const QStringList unchecked = QSettings().value("run/uncheckedKernels").toStringList();
    m_kernels->setCatalog(m_model->catalog(), unchecked);
    // Headless reports and tests plot every kernel, whatever an earlier session unchecked.
    if (m_options.persistSettings) m_model->setHiddenKernels(m_kernels->uncheckedIds());
    m_shapes->setKernelFamilies(familiesOf(m_kernels->checkedIds()));
  };
  // The kernel checkboxes choose what runs, what every plot shows and what a typed size is.
  connect(m_kernels, &KernelListWidget::selectionChanged, this, [this] {
    m_model->setHiddenKernels(m_kernels->uncheckedIds());
    m_shapes->setKernelFamilies(familiesOf(m_kernels->checkedIds()));
  });
  connect(m_model, &ResultsModel::catalogChanged, this, refreshKernels);
  connect(m_model, &ResultsModel::documentReset, this, refreshKernels);
  connect(m_correctness, &CorrectnessPage::caseActivated, this, [this](const CaseResult& c) {
    auto* dialog = caseDialog(c.kernel, sizeKey(c));
    if (!dialog) return;
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
  });
}

void MainWindow::chooseEngineLocation() {
  // The engine's location: the saved choice, or --remote. Another one asks its engine anew.
  m_controller->setLocation(m_runOn->current());
  connect(m_runOn, &RunOnCombo::locationChanged, this, [this](const EngineLocation& where) {
    m_controller->setLocation(where);
    m_log->append("info", "Run on: " + where.label());
    if (m_options.probeEngine) probeEngine();
  });
  if (!m_options.remote.isEmpty())
    if (const QString error = m_runOn->select(locationFor(m_options.remote, m_runOn->hosts()));
        !error.isEmpty())
      showMessage(error, true);
}

MainWindow::~MainWindow() {
  // A probe still running would report into pages already destroyed: silence it first.
  for (EngineDriver* probe : {m_listProbe, m_deviceProbe, m_familyProbe})
    if (probe) {
      probe->disconnect(this);
      delete probe;  // kills a probe still running
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
  m_userPanel = new UserKernelPanel(inner);
  layout->addWidget(m_userPanel);
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

void MainWindow::showMessage(const QString& text, bool error) {
  m_message->setText(text);
  m_message->setStyleSheet(error ? "QLabel { background: #f8d7da; color: #58151c; padding: 6px; "
                                   "border: 1px solid #e0a0a8; }"
                                 : "QLabel { background: #cfe2ff; color: #052c65; padding: 6px; }");
  m_message->setVisible(!text.isEmpty());
}

void MainWindow::showOpenError(const QString& text) {
  showMessage(text, true);
  auto* box = new QMessageBox(QMessageBox::Critical, "Could not open the results", text,
                              QMessageBox::Ok, this);
  box->setObjectName("openErrorDialog");
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
}

void MainWindow::updateTitleAndStatus() {
  const QString source = m_model->source();
  setWindowTitle(source.isEmpty()
                     ? QString("Kernel Workbench")
                     : QString("Kernel Workbench — %1").arg(QFileInfo(source).fileName()));
  m_summary->setText("● " + caseSummaryLine(m_model->document()));
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

}  // namespace kwb::gui
