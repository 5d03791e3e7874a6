// SPDX-License-Identifier: Apache-2.0
#include "pages/baseline_page.h"

#include <QFileInfo>
#include <QHeaderView>
#include <QSplitter>
#include <QVBoxLayout>

#include "kwb/run_compare.h"
#include "model/case_size.h"
#include "model/doc_queries.h"

namespace kwb::gui {

BaselinePage::BaselinePage(ResultsModel* model, QWidget* parent) : QWidget(parent), m_model(model) {
  auto* layout = new QVBoxLayout(this);
  m_header = new QLabel(this);
  m_header->setWordWrap(true);
  layout->addWidget(m_header);
  auto* split = new QSplitter(Qt::Vertical, this);
  m_plot = new SpeedupPlot(split);
  m_table = new QTableWidget(split);
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_table->setSortingEnabled(true);
  m_table->setTextElideMode(Qt::ElideRight);
  split->addWidget(m_plot);
  split->addWidget(m_table);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  layout->addWidget(split, 1);
  connect(model, &ResultsModel::documentReset, this, &BaselinePage::rebuildNow);
  connect(model, &ResultsModel::baselineChanged, this, &BaselinePage::rebuildNow);
  connect(model, &ResultsModel::caseAppended, this, &BaselinePage::rebuildNow);
  connect(model, &ResultsModel::filterChanged, this, &BaselinePage::rebuildNow);
}

namespace {

QColor verdictColour(Verdict v) {
  switch (v) {
    case Verdict::kFaster:
      return QColor(0x1a, 0x7f, 0x37);
    case Verdict::kSlower:
      return QColor(0xc0, 0x10, 0x10);
    case Verdict::kUncertain:
      return QColor(0x8a, 0x5a, 0x00);
    case Verdict::kSame:
      break;
  }
  return QColor(Qt::black);
}

QTableWidgetItem* numberItem(double v, int prec) {
  auto* item = new QTableWidgetItem;
  item->setData(Qt::DisplayRole, QString::number(v, 'f', prec).toDouble());
  return item;
}

// The text above the table: the baseline and its timers, what the columns say, and first, in
// red, a baseline from another GPU model.
QString baselineHeader(const QString& baselineSource, const RunDocument& baseline,
                       const RunDocument& doc, const RunComparison& all, const QString& unit) {
  QString timers = QString("Timers: baseline %1; this run %2.")
                       .arg(QString::fromUtf8(timerLabel(baseline.settings.timer).data()),
                            QString::fromUtf8(timerLabel(doc.settings.timer).data()));
  if (baseline.settings.timer != doc.settings.timer)
    timers += " The timers differ: the cases cannot be compared (UNCERTAIN).";
  // Another GPU model: every verdict below may be the GPU, not the code. Said first, in red.
  const QString crossDevice =
      all.crossDevice
          ? "<b style='color:#b00020'>C" +
                QString::fromStdString(all.deviceNote.substr(1)).toHtmlEscaped() + ".</b><br>"
          : QString();
  return crossDevice + QString(
                           "Baseline: %1 (%2, %3). Change: this run's median time ÷ the "
                           "baseline's − 1, negative = faster, as kwb compare prints it; speedup: "
                           "the same as a factor (1.07× faster). Rates in %5. The verdict reads "
                           "the whole 95% interval of the change: SAME inside ±2%, FASTER or "
                           "SLOWER wholly beyond it, else UNCERTAIN (time both in one run with "
                           "kwb ab to decide). %4")
                           .arg(QFileInfo(baselineSource).fileName().toHtmlEscaped(),
                                baseline.device ? QString::fromStdString(baseline.device->name)
                                                : QString("no device"),
                                recordedDate(baseline), timers, unit);
}

// A case of the baseline, the same case of this run (either may be missing) and their verdict.
struct CasePair {
  const CaseResult* baseline;
  const CaseResult* run;
  CaseComparison comparison;
};

// The cases of every family as `kwb compare` pairs them (by kernel and size).
std::vector<CasePair> casePairs(const RunDocument& baseline, const RunDocument& doc,
                                const RunComparison& all) {
  // The comparison names the two cases it compared (a merged document may hold one size on
  // several GPU models: matching by kernel and size again could pair the wrong rows).
  auto at = [](const RunDocument& d, int i) {
    return i >= 0 && std::size_t(i) < d.cases.size() ? &d.cases[std::size_t(i)] : nullptr;
  };
  std::vector<CasePair> pairs;
  for (const auto& r : all.cases)
    if (const CaseResult* c = at(doc, r.newIndex))
      pairs.push_back({at(baseline, r.baseIndex), c, r});
  return pairs;
}

// Row `row` of the table: the case, both rates (each in its family's headline), the change in
// time with the speedup (kwb compare's convention: negative = faster), the verdict and why.
void setRow(QTableWidget* table, int row, const RunDocument& baseline, const CaseResult& b,
            const RunDocument& doc, const CaseResult& c, const CaseComparison& r) {
  table->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(c.kernel)));
  table->setItem(row, 1, new QTableWidgetItem(sizeName(c, false)));
  table->setItem(row, 2, numberItem(headline(baseline, b), 1));
  table->setItem(row, 3, numberItem(headline(doc, c), 1));
  auto* change = new QTableWidgetItem;
  change->setData(Qt::DisplayRole, QString::fromStdString(signedPercent(r.change)));
  change->setData(Qt::UserRole, r.change);
  change->setForeground(verdictColour(r.verdict));
  table->setItem(row, 4, change);
  auto* speedup = new QTableWidgetItem(QString::fromStdString(speedupText(r.change)));
  speedup->setForeground(verdictColour(r.verdict));
  table->setItem(row, 5, speedup);
  auto* v = new QTableWidgetItem(QString::fromUtf8(toString(r.verdict).data()));
  v->setForeground(verdictColour(r.verdict));
  table->setItem(row, 6, v);
  auto* why = new QTableWidgetItem(QString::fromStdString(r.reason));
  why->setToolTip(QString::fromStdString(r.reason));
  table->setItem(row, 7, why);
}

}  // namespace

void BaselinePage::rebuildNow() {
  m_table->setSortingEnabled(false);
  m_table->clear();
  m_table->setColumnCount(8);
  const QString unit = headlineUnit(m_model->document());
  m_table->setHorizontalHeaderLabels({"kernel", unit == "GFLOP/s" ? "shape" : "size",
                                      "baseline " + unit, "this run " + unit, "change in time",
                                      "speedup", "verdict", "why"});
  // The figures size to their contents; "why", a sentence, takes the width left and is elided
  // there (its tooltip holds it whole), so nothing runs off the right edge.
  for (int col = 0; col < 7; ++col)
    m_table->horizontalHeader()->setSectionResizeMode(col, QHeaderView::ResizeToContents);
  m_table->horizontalHeader()->setSectionResizeMode(7, QHeaderView::Stretch);
  const auto& baseline = m_model->baseline();
  if (!baseline) {
    m_header->setText(
        "No baseline. File ▸ Open baseline… compares this run with another "
        "results file.");
    m_table->setRowCount(0);
    m_plot->setVisible(false);
    return;
  }
  const RunDocument& doc = m_model->document();
  const RunComparison all = compareRuns(*baseline, doc);
  m_header->setTextFormat(Qt::RichText);
  m_header->setText(baselineHeader(m_model->baselineSource(), *baseline, doc, all, unit));
  QList<QString> kernels;
  for (const QString& id : kernelsOf(doc, m_model->catalog()))
    if (m_model->isShown(id)) kernels << id;
  m_plot->setVisible(true);
  m_plot->draw(all, sizesOf(doc), m_model->catalog(), kernels);
  const std::vector<CasePair> pairs = casePairs(*baseline, doc, all);
  int rows = 0;
  m_table->setRowCount(int(pairs.size()));
  for (const auto& [b, c, r] : pairs)
    if (b && c && hasSpeed(*baseline, *b) && hasSpeed(doc, *c))
      setRow(m_table, rows++, *baseline, *b, doc, *c, r);
  m_table->setRowCount(rows);
  m_table->setSortingEnabled(true);
}

}  // namespace kwb::gui
