// SPDX-License-Identifier: Apache-2.0
#include "panels/ncu_profile_panel.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "engine/engine_driver.h"
#include "kwb/error.h"
#include "model/case_size.h"
#include "panels/ncu_views.h"
#include "plots/plot_helpers.h"

namespace kwb::gui {
namespace {

QString ncuUi(const std::string& ncu) {
  QString beside = QFileInfo(QString::fromStdString(ncu)).dir().filePath("ncu-ui");
  if (QFileInfo(beside).isExecutable()) return beside;
  return QStandardPaths::findExecutable("ncu-ui");
}

QTableWidgetItem* cell(const QString& text, bool number) {
  auto* item = new QTableWidgetItem(text);
  if (number) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return item;
}

QString shortRevision(const std::string& rev) {
  return rev.empty() || rev == "unknown" ? QString("none recorded")
                                         : QString::fromStdString(rev).left(12);
}

}  // namespace

QStringList profileMismatches(const NcuProfile& p, const CaseResult& c,
                              const std::string& gitRevision) {
  QStringList why;
  if (p.kernel != c.kernel)
    why << QString("it is of %1, not %2")
               .arg(QString::fromStdString(p.kernel), QString::fromStdString(c.kernel));
  if (p.size != c.size) {
    // The family named only where the families differ: "it is at 2^20 i32, not 2^20 f32".
    const bool sameFamily = p.size.family == c.size.family;
    const auto written = [&](const CaseSize& s) { return sameFamily ? sizeLabel(s) : sizeKey(s); };
    why << QString("it is at %1, not %2")
               .arg(QString::fromStdString(written(p.size)),
                    QString::fromStdString(written(c.size)));
  }
  const std::string config = c.config ? c.config->name : "default";
  if (p.config.empty())
    why << "it does not name the configuration it profiled";
  else if (p.config != config)
    why << QString("it profiled configuration %1, these results ran %2")
               .arg(QString::fromStdString(p.config), QString::fromStdString(config));
  if (p.gitRevision.empty() || p.gitRevision == "unknown")
    why << "it does not name the kwb revision that made it";
  else if (p.gitRevision != gitRevision)
    why << QString("it was made by kwb at revision %1, these results at %2")
               .arg(shortRevision(p.gitRevision), shortRevision(gitRevision));
  return why;
}

NcuProfilePanel::NcuProfilePanel(const CaseResult& c, const ProfileContext& ctx,
                                 const ProfileRoof& roof, QWidget* parent)
    : QGroupBox("Nsight Compute", parent),
      m_case(c),
      m_ctx(ctx),
      m_engine(new EngineDriver(this)),
      m_roof(roof) {
  connect(m_engine, &EngineDriver::queryFinished, this, &NcuProfilePanel::onFinished);
  auto* layout = new QVBoxLayout(this);
  auto* row = new QHBoxLayout;
  m_run = new QPushButton("Profile with Nsight Compute", this);
  m_open = new QPushButton("Open in Nsight Compute", this);
  m_status = new QLabel(this);
  m_status->setWordWrap(true);
  row->addWidget(m_run);
  row->addWidget(m_open);
  row->addWidget(m_status, 1);
  layout->addLayout(row);
  m_table = new QTableWidget(0, 7, this);
  // Short headers sized to their contents, the full names as tooltips: the kernel name
  // takes the rest of the width.
  const QStringList heads{"kernel",
                          "µs (ncu)",
                          "SM %",
                          "memory %",
                          "occupancy %",
                          "DRAM MB",
                          "top stall (cycles/issue)"};
  const QStringList tips{"kernel name as ncu reports it",
                         "gpu__time_duration under ncu (base clocks, one launch serialized)",
                         "SM throughput, % of peak",
                         "memory throughput, % of peak",
                         "achieved occupancy, % of the maximum warps per SM",
                         "DRAM bytes read + written",
                         QString("the warp stall reason with the most cycles per issued "
                                 "instruction, and those cycles (warp cycles stalled per "
                                 "instruction issued)")};
  m_table->setHorizontalHeaderLabels(heads);
  for (int i = 0; i < heads.size(); ++i) {
    m_table->horizontalHeaderItem(i)->setToolTip(tips[i]);
    m_table->horizontalHeader()->setSectionResizeMode(i, QHeaderView::ResizeToContents);
  }
  m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  m_table->verticalHeader()->hide();
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  buildTabs();
  layout->addWidget(m_tabs, 1);

  const QString engineDir = QFileInfo(ctx.engine).absolutePath();
  m_ncu = ctx.engine.isEmpty() ? std::nullopt : findNcu(engineDir.toStdString());
  m_run->setEnabled(canProfile());
  m_open->setEnabled(false);
  m_status->setText(
      canProfile()
          ? QString("Runs this case once under %1 --set full.").arg(QString::fromStdString(*m_ncu))
          : QString("Nsight Compute (ncu) was not found beside the "
                    "engine, on PATH or in /usr/local/cuda/bin."));
  connect(m_run, &QPushButton::clicked, this, &NcuProfilePanel::startProfile);
  connect(m_open, &QPushButton::clicked, this, [this] {
    if (m_profile && m_ncu)
      QProcess::startDetached(ncuUi(*m_ncu), {QString::fromStdString(m_profile->reportPath)});
  });
  loadEarlierProfile();
}

NcuProfilePanel::~NcuProfilePanel() { m_engine->stop(0); }

void NcuProfilePanel::buildTabs() {
  m_tabs = new QTabWidget(this);
  m_tabs->addTab(m_table, "Launches");
  m_launch = new QTableWidget(this);
  m_tabs->addTab(m_launch, "Launch statistics");
  auto* stalls = new QWidget(this);
  auto* stallBox = new QVBoxLayout(stalls);
  stallBox->setContentsMargins(0, 0, 0, 0);
  auto* which = new QHBoxLayout;
  which->addWidget(new QLabel("Warp stalls of", stalls));
  m_stallKernel = new QComboBox(stalls);
  m_stallKernel->setToolTip("the mean of the kernel's launches; a case may launch several");
  which->addWidget(m_stallKernel, 1);
  m_stallPlot = new QCustomPlot(stalls);
  setupPlot(m_stallPlot);
  m_stallPlot->setMinimumSize(300, 140);  // a tab under the facts, not a page of its own
  stallBox->addLayout(which);
  stallBox->addWidget(m_stallPlot, 1);
  m_tabs->addTab(stalls, "Warp stalls");
  m_memory = new QTableWidget(this);
  m_tabs->addTab(m_memory, "Memory");
  auto* roof = new QWidget(this);
  auto* roofBox = new QVBoxLayout(roof);
  roofBox->setContentsMargins(0, 0, 0, 0);
  m_roofPlot = new QCustomPlot(roof);
  setupPlot(m_roofPlot);
  m_roofPlot->setMinimumSize(300, 140);
  m_roofText = new QLabel(roof);
  m_roofText->setWordWrap(true);
  roofBox->addWidget(m_roofPlot, 1);
  roofBox->addWidget(m_roofText);
  m_tabs->addTab(roof, "Roofline");
  m_tabs->setMinimumHeight(170);
  connect(m_stallKernel, &QComboBox::currentIndexChanged, this, [this](int i) {
    if (i >= 0 && i < int(m_perKernel.size())) {
      drawStallChart(m_stallPlot, m_perKernel[std::size_t(i)]);
      applyPlotTheme(m_stallPlot, paletteIsDark());
      m_stallPlot->replot();
    }
  });
  m_tabs->hide();  // until there is a profile to show: the dialog's facts keep the room
}

void NcuProfilePanel::showDepth(const NcuProfile& p) {
  m_perKernel = ncuMeanPerKernel(p);
  fillLaunchTable(m_launch, m_perKernel);
  fillMemoryTable(m_memory, m_perKernel, ncuPerCase(p));
  {
    const QSignalBlocker quiet(m_stallKernel);
    m_stallKernel->clear();
    for (const auto& k : m_perKernel)
      m_stallKernel->addItem(QString::fromStdString(k.name).left(120));
  }
  // The kernel the case spends longest in leads: its stalls are the case's.
  int longest = 0;
  for (int i = 0; i < int(m_perKernel.size()); ++i)
    if (m_perKernel[std::size_t(i)].durationUs > m_perKernel[std::size_t(longest)].durationUs)
      longest = i;
  m_stallKernel->setEnabled(m_perKernel.size() > 1);
  m_stallKernel->setCurrentIndex(-1);
  m_stallKernel->setCurrentIndex(m_perKernel.empty() ? -1 : longest);
  const auto placed = placeOnRoof(m_roof, p);
  drawProfileRoofline(m_roofPlot, placed);
  applyPlotTheme(m_roofPlot, paletteIsDark());
  m_roofPlot->replot();
  m_roofText->setText(placed ? profileRoofText(*placed) : QString());
  for (int i = 1; i < m_tabs->count(); ++i) m_tabs->setTabEnabled(i, m_stale.isEmpty());
  m_tabs->show();
}

bool NcuProfilePanel::canProfile() const {
  return m_ncu.has_value() && !m_ctx.resultsDir.isEmpty() && QDir(m_ctx.resultsDir).exists();
}

QString NcuProfilePanel::statusText() const { return m_status->text(); }

QString NcuProfilePanel::profileJsonPath() const {
  return QDir(m_ctx.resultsDir)
      .filePath(QString::fromStdString(ncuReportStem(m_case.kernel, m_case.size)) +
                ".profile.json");
}

void NcuProfilePanel::loadEarlierProfile() {
  QFile f(profileJsonPath());
  if (m_ctx.resultsDir.isEmpty() || !f.open(QIODevice::ReadOnly)) return;
  try {
    show(ncuProfileFromJson(f.readAll().toStdString(), profileJsonPath().toStdString()));
    if (m_stale.isEmpty()) {
      m_status->setText("Profiled earlier: " + profileJsonPath());
      return;
    }
    m_status->setText(QString("<b style='color:#b00020'>Stale profile, not of this case's "
                              "run: %1.</b> Profile again for figures of this case. (%2)")
                          .arg(m_stale.join("; ").toHtmlEscaped(),
                               QFileInfo(profileJsonPath()).fileName().toHtmlEscaped()));
    m_status->setToolTip(profileJsonPath());
  } catch (const InputError& e) {
    m_status->setText(QString("An earlier profile could not be read: %1").arg(e.what()));
  }
}

void NcuProfilePanel::startProfile() {
  if (!canProfile() || m_running) return;
  m_running = true;
  m_run->setEnabled(false);
  m_status->setText("Profiling… (ncu replays each kernel about 40 times)");
  // The case as kwb profile takes it: --shape for GEMM, --family and --sizes for any other.
  QStringList args{"profile", "--kernel", QString::fromStdString(m_case.kernel)};
  for (const std::string& a : caseSizeOptions(m_case.size, "--shape"))
    args << QString::fromStdString(a);
  args << "--out" << m_ctx.resultsDir << "--ncu" << QString::fromStdString(*m_ncu) << "--json"
       << profileJsonPath();
  m_engine->query(m_ctx.engine, args);
}

void NcuProfilePanel::onFinished(int exitCode, const QByteArray& out, const QString& err) {
  m_running = false;
  m_run->setEnabled(canProfile());
  if (exitCode != 0) {
    // The figures of an earlier profile, if any, stay on screen.
    const QString output = (QString::fromUtf8(out).trimmed() + "\n" + err).trimmed();
    m_status->setText(QString("Profiling failed (%1): %2")
                          .arg(exitCode < 0 ? QString("the engine did not run or crashed")
                                            : QString("exit %1").arg(exitCode),
                               output.right(600)));
    emit finished(false);
    return;
  }
  loadEarlierProfile();
  emit finished(m_profile.has_value());
}

void NcuProfilePanel::show(const NcuProfile& p) {
  m_profile = p;
  m_stale = profileMismatches(p, m_case, m_ctx.gitRevision);
  setTitle(m_stale.isEmpty() ? QString("Nsight Compute")
                             : QString("Nsight Compute — STALE profile"));
  m_table->setEnabled(m_stale.isEmpty());
  m_table->setRowCount(int(p.kernels.size()));
  for (int r = 0; r < int(p.kernels.size()); ++r) {
    const auto& k = p.kernels[std::size_t(r)];
    const QString name = QString::fromStdString(readableKernelName(k.name));
    m_table->setItem(r, 0, cell(name, false));
    m_table->setItem(r, 1, cell(QString::number(k.durationUs, 'f', 2), true));
    m_table->setItem(r, 2, cell(QString::number(k.smThroughputPct, 'f', 1), true));
    m_table->setItem(r, 3, cell(QString::number(k.memoryThroughputPct, 'f', 1), true));
    m_table->setItem(r, 4, cell(QString::number(k.achievedOccupancyPct, 'f', 1), true));
    m_table->setItem(r, 5, cell(QString::number(k.dramBytes / 1e6, 'f', 2), true));
    m_table->setItem(r, 6,
                     cell(k.topStall.empty() ? QString("-")
                                             : QString("%1 (%2 cycles/issue)")
                                                   .arg(QString::fromStdString(k.topStall))
                                                   .arg(k.topStallCyclesPerIssue, 0, 'f', 2),
                          false));
    m_table->item(r, 0)->setToolTip(name);
  }
  showDepth(p);
  m_open->setEnabled(m_ncu && !ncuUi(*m_ncu).isEmpty() &&
                     QFileInfo::exists(QString::fromStdString(p.reportPath)));
  m_open->setToolTip(m_open->isEnabled() ? QString::fromStdString(p.reportPath)
                                         : QString("ncu-ui (Nsight Compute's viewer) not found"));
}

}  // namespace kwb::gui
