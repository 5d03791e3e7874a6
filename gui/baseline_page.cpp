#include "baseline_page.h"

#include <QFileInfo>
#include <QHeaderView>
#include <QVBoxLayout>

#include "doc_queries.h"

namespace kwb::gui {

BaselinePage::BaselinePage(ResultsModel* model, QWidget* parent) : QWidget(parent), m_model(model) {
  auto* layout = new QVBoxLayout(this);
  m_header = new QLabel(this);
  m_header->setWordWrap(true);
  layout->addWidget(m_header);
  m_table = new QTableWidget(this);
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_table->setSortingEnabled(true);
  m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  layout->addWidget(m_table, 1);
  connect(model, &ResultsModel::documentReset, this, &BaselinePage::rebuildNow);
  connect(model, &ResultsModel::baselineChanged, this, &BaselinePage::rebuildNow);
  connect(model, &ResultsModel::caseAppended, this, &BaselinePage::rebuildNow);
}

void BaselinePage::rebuildNow() {
  m_table->setSortingEnabled(false);
  m_table->clear();
  m_table->setColumnCount(6);
  m_table->setHorizontalHeaderLabels(
      {"kernel", "shape", "baseline GFLOP/s", "this run GFLOP/s", "speedup", "status"});
  const auto& baseline = m_model->baseline();
  if (!baseline) {
    m_header->setText(
        "No baseline. File ▸ Open baseline… compares this run with another "
        "results file.");
    m_table->setRowCount(0);
    return;
  }
  m_header->setText(QString("Baseline: %1 (%2, %3). Speedup = this run ÷ baseline GFLOP/s.")
                        .arg(QFileInfo(m_model->baselineSource()).fileName(),
                             baseline->device ? QString::fromStdString(baseline->device->name)
                                              : QString("no device"),
                             recordedDate(*baseline)));
  const RunDocument& doc = m_model->document();
  int rows = 0;
  m_table->setRowCount(int(doc.cases.size()));
  for (const auto& c : doc.cases) {
    const CaseResult* b = baseline->find(c.kernel, c.shape);
    if (!b || !hasSpeed(*b) || !hasSpeed(c)) continue;
    auto num = [](double v, int prec) {
      auto* item = new QTableWidgetItem;
      item->setData(Qt::DisplayRole, QString::number(v, 'f', prec).toDouble());
      return item;
    };
    const double speedup = c.gflops / b->gflops;
    m_table->setItem(rows, 0, new QTableWidgetItem(QString::fromStdString(c.kernel)));
    m_table->setItem(rows, 1, new QTableWidgetItem(QString::fromStdString(toString(c.shape))));
    m_table->setItem(rows, 2, num(b->gflops, 1));
    m_table->setItem(rows, 3, num(c.gflops, 1));
    auto* s = num(speedup, 3);
    s->setForeground(speedup >= 1.02   ? QColor(0x1a, 0x7f, 0x37)
                     : speedup <= 0.98 ? QColor(0xc0, 0x10, 0x10)
                                       : QColor(Qt::black));
    m_table->setItem(rows, 4, s);
    m_table->setItem(rows, 5, new QTableWidgetItem(statusText(c.status)));
    ++rows;
  }
  m_table->setRowCount(rows);
  m_table->setSortingEnabled(true);
}

}  // namespace kwb::gui
