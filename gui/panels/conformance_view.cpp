// SPDX-License-Identifier: Apache-2.0
#include "panels/conformance_view.h"

#include <QHeaderView>
#include <QVBoxLayout>

#include "model/doc_queries.h"

namespace kwb::gui {
namespace {

QString dims(const std::array<int, 3>& d) {
  return QString("%1×%2×%3").arg(d[0]).arg(d[1]).arg(d[2]);
}

QTableWidget* makeTable(QWidget* parent) {
  auto* t = new QTableWidget(parent);
  t->setEditTriggers(QAbstractItemView::NoEditTriggers);
  t->setSelectionMode(QAbstractItemView::SingleSelection);
  t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  t->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  t->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
  return t;
}

QTableWidgetItem* statusItem(bool passed, const QString& text = {}) {
  auto* item = new QTableWidgetItem(text.isEmpty() ? QString(passed ? "PASS" : "FAIL") : text);
  item->setTextAlignment(Qt::AlignCenter);
  item->setBackground(statusColor(passed ? CaseStatus::kPass : CaseStatus::kFail));
  item->setForeground(Qt::white);
  return item;
}

}  // namespace

QString conformanceSummary(const ConformanceReport& r) {
  int passed = 0;
  for (const SubgroupRun& run : r.runs) passed += run.passed();
  return QString("%1 · warp size %2 · %3: %4 of %5 tile sizes pass every check")
      .arg(QString::fromStdString(r.suite))
      .arg(r.warpSize)
      .arg(r.passed() ? "PASSED" : "FAILED")
      .arg(passed)
      .arg(r.runs.size());
}

QString launchText(const SubgroupRun& run) {
  return QString("block %1 · grid %2 · %3 threads/block")
      .arg(dims(run.launch.block), dims(run.launch.grid))
      .arg(run.launch.threadsPerBlock());
}

QStringList checkIds(const ConformanceReport& r) {
  QStringList ids;
  for (const SubgroupRun& run : r.runs)
    for (const ConformanceCheck& c : run.checks)
      if (!ids.contains(QString::fromStdString(c.id))) ids << QString::fromStdString(c.id);
  return ids;
}

QString offendersText(const ConformanceCheck& c) {
  QStringList lines{QString::fromStdString(c.description)};
  lines << QString("%1 · %2 failures · %3 not judged")
               .arg(c.passed ? "PASS" : "FAIL")
               .arg(c.failures)
               .arg(c.notJudged);
  for (const std::string& o : c.offenders) lines << "  " + QString::fromStdString(o);
  if (c.failures > std::int64_t(c.offenders.size()))
    lines << QString("  … and %1 more").arg(c.failures - std::int64_t(c.offenders.size()));
  return lines.join('\n');
}

ConformanceView::ConformanceView(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* title = new QLabel("Sub-group (warp tile) conformance", this);
  title->setStyleSheet("font-weight: bold;");
  layout->addWidget(title);
  m_summary = new QLabel(this);
  m_summary->setWordWrap(true);
  layout->addWidget(m_summary);
  m_launches = makeTable(this);
  layout->addWidget(m_launches);
  m_checks = makeTable(this);
  layout->addWidget(m_checks, 1);
  m_detail = new QLabel("Click a check for its description and offending items.", this);
  m_detail->setWordWrap(true);
  m_detail->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(m_detail);
  connect(m_checks, &QTableWidget::cellClicked, this, &ConformanceView::showCheck);
  connect(m_checks, &QTableWidget::cellActivated, this, &ConformanceView::showCheck);
}

void ConformanceView::setReport(const ConformanceReport& report) {
  m_report = report;
  m_summary->setText(conformanceSummary(report));
  const QStringList launchColumns{"tile size",        "block", "grid",
                                  "threads/block",    "items", "tiles",
                                  "incomplete tiles", "result"};
  m_launches->clear();
  m_launches->setColumnCount(int(launchColumns.size()));
  m_launches->setHorizontalHeaderLabels(launchColumns);
  m_launches->setRowCount(int(report.runs.size()));
  m_launches->verticalHeader()->hide();
  for (int r = 0; r < int(report.runs.size()); ++r) {
    const SubgroupRun& run = report.runs[std::size_t(r)];
    const QStringList cells{QString::number(run.tileSize),
                            dims(run.launch.block),
                            dims(run.launch.grid),
                            QString::number(run.launch.threadsPerBlock()),
                            QString::number(run.items),
                            QString::number(run.tiles),
                            QString::number(run.incompleteTiles)};
    for (int c = 0; c < cells.size(); ++c) {
      auto* item = new QTableWidgetItem(cells[c]);
      item->setTextAlignment(Qt::AlignCenter);
      m_launches->setItem(r, c, item);
    }
    QTableWidgetItem* result =
        statusItem(run.passed(),
                   run.error.empty() ? QString() : "ERROR: " + QString::fromStdString(run.error));
    result->setToolTip(QString::fromStdString(run.error));
    m_launches->setItem(r, int(cells.size()), result);
  }

  const QStringList ids = checkIds(report);
  m_checks->clear();
  m_checks->setRowCount(int(ids.size()));
  m_checks->setColumnCount(int(report.runs.size()) + 1);
  QStringList columns;
  for (const SubgroupRun& run : report.runs) columns << QString("tile %1").arg(run.tileSize);
  columns << "what it checks";
  m_checks->setHorizontalHeaderLabels(columns);
  m_checks->setVerticalHeaderLabels(ids);
  for (int r = 0; r < ids.size(); ++r)
    for (int c = 0; c < int(report.runs.size()); ++c) {
      const ConformanceCheck* check = findCheck(report.runs[std::size_t(c)], ids[r].toStdString());
      if (!check) {
        m_checks->setItem(r, c, new QTableWidgetItem("—"));
        continue;
      }
      QTableWidgetItem* item = statusItem(
          check->passed, check->passed ? QString() : QString("FAIL (%1)").arg(check->failures));
      item->setData(kPassedRole, check->passed);
      item->setToolTip(QString("%1 at tile size %2\n%3")
                           .arg(ids[r])
                           .arg(report.runs[std::size_t(c)].tileSize)
                           .arg(offendersText(*check)));
      m_checks->setItem(r, c, item);
    }
  for (int r = 0; r < ids.size(); ++r)
    for (const SubgroupRun& run : report.runs)
      if (const ConformanceCheck* check = findCheck(run, ids[r].toStdString())) {
        m_checks->setItem(r, int(report.runs.size()),
                          new QTableWidgetItem(QString::fromStdString(check->description)));
        break;
      }
  m_detail->setText("Click a check for its description and offending items.");
}

bool ConformanceView::showCheck(int row, int column) {
  const QStringList ids = checkIds(m_report);
  if (row < 0 || row >= ids.size() || column < 0 || column >= int(m_report.runs.size()))
    return false;  // the description column names no single run
  const SubgroupRun& run = m_report.runs[std::size_t(column)];
  const ConformanceCheck* check = findCheck(run, ids[row].toStdString());
  if (!check) return false;
  m_detail->setText(QString("<b>%1</b> at tile size %2 (%3)<pre>%4</pre>")
                        .arg(ids[row])
                        .arg(run.tileSize)
                        .arg(launchText(run), offendersText(*check).toHtmlEscaped()));
  return true;
}

}  // namespace kwb::gui
