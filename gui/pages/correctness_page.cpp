// SPDX-License-Identifier: Apache-2.0
#include "pages/correctness_page.h"

#include <QClipboard>
#include <QGuiApplication>
#include <QHeaderView>
#include <QShortcut>
#include <QVBoxLayout>

#include "model/case_size.h"
#include "model/doc_queries.h"
#include "model/run_request.h"
#include "panels/conformance_view.h"

namespace kwb::gui {

CorrectnessPage::CorrectnessPage(ResultsModel* model, QWidget* parent)
    : QWidget(parent), m_model(model) {
  auto* layout = new QVBoxLayout(this);
  m_summary = new QLabel(this);
  m_summary->setWordWrap(true);
  layout->addWidget(m_summary);
  m_table = new QTableWidget(this);
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_table->setSelectionMode(QAbstractItemView::SingleSelection);
  // Sized once per rebuild (resizeToContents below), not per item: ResizeToContents sections
  // re-measure the whole header on every setItem, which made opening quadratic in shapes.
  m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  layout->addWidget(m_table, 1);
  auto* legend = m_legend = new QLabel(this);
  QString html;
  for (CaseStatus s :
       {CaseStatus::kPass, CaseStatus::kFallback, CaseStatus::kFail, CaseStatus::kError,
        CaseStatus::kCrashed, CaseStatus::kInvalid, CaseStatus::kSkipped})
    html += QString("<span style='background:%1;color:white'>&nbsp;%2&nbsp;</span> ")
                .arg(statusColor(s).name(), statusText(s));
  legend->setText(html + " — double-click a cell for the case's verification details.");
  layout->addWidget(legend);
  m_conformance = new ConformanceView(this);
  m_conformance->hide();
  layout->addWidget(m_conformance, 1);
  m_timer.setSingleShot(true);
  m_timer.setInterval(80);
  connect(&m_timer, &QTimer::timeout, this, &CorrectnessPage::rebuildNow);
  auto schedule = [this] {
    if (!m_timer.isActive()) m_timer.start();
  };
  connect(model, &ResultsModel::documentReset, this, schedule);
  connect(model, &ResultsModel::caseAppended, this, schedule);
  connect(model, &ResultsModel::catalogChanged, this, schedule);
  auto* copy = new QShortcut(QKeySequence::Copy, m_table, [this] { copyToClipboard(); });
  copy->setContext(Qt::WidgetWithChildrenShortcut);
  connect(m_table, &QTableWidget::cellActivated, this, [this](int r, int c) {
    if (const CaseResult* cr = caseAt(r, c)) emit caseActivated(*cr);
  });
  connect(m_table, &QTableWidget::cellDoubleClicked, this, [this](int r, int c) {
    if (const CaseResult* cr = caseAt(r, c)) emit caseActivated(*cr);
  });
}

QString CorrectnessPage::gridText() const {
  const auto selected = m_table->selectedRanges();
  int top = 0, left = 0, bottom = m_table->rowCount() - 1, right = m_table->columnCount() - 1;
  if (!selected.isEmpty() && selected.front().rowCount() * selected.front().columnCount() > 1) {
    top = selected.front().topRow(), bottom = selected.front().bottomRow();
    left = selected.front().leftColumn(), right = selected.front().rightColumn();
  }
  QStringList lines;
  QStringList header{"kernel"};
  for (int c = left; c <= right; ++c) header << m_table->horizontalHeaderItem(c)->text();
  lines << header.join('\t');
  for (int r = top; r <= bottom; ++r) {
    QStringList cells{m_kernels.value(r)};
    for (int c = left; c <= right; ++c)
      cells << (m_table->item(r, c) ? m_table->item(r, c)->text().replace('\n', ' ') : QString());
    lines << cells.join('\t');
  }
  return lines.join('\n') + '\n';
}

void CorrectnessPage::copyToClipboard() const { QGuiApplication::clipboard()->setText(gridText()); }

const CaseResult* CorrectnessPage::caseAt(int row, int column) const {
  if (row < 0 || row >= m_kernels.size() || column < 0 || column >= m_shapes.size() || !m_index)
    return nullptr;
  return m_index->find(m_kernels[row], m_shapes[column]);
}

void CorrectnessPage::rebuildNow() {
  m_timer.stop();
  const RunDocument& doc = m_model->document();
  m_index.emplace(doc);
  m_kernels = kernelsOf(doc, m_model->catalog());
  m_shapes = sizesOf(doc);
  // A tuning sweep has configurations, not cases: say so rather than "0 cases".
  m_summary->setText(doc.cases.empty() && doc.tuning ? emptyPlotReason(doc) : caseSummaryLine(doc));
  // A `kwb conformance` document has no cases: only its conformance section shows.
  m_table->setVisible(!doc.cases.empty());
  m_legend->setVisible(!doc.cases.empty());
  m_summary->setVisible(!doc.cases.empty() || !doc.conformance);
  m_conformance->setVisible(doc.conformance.has_value());
  if (doc.conformance) m_conformance->setReport(*doc.conformance);
  m_table->setUpdatesEnabled(false);
  m_table->clear();
  m_table->setRowCount(int(m_kernels.size()));
  m_table->setColumnCount(int(m_shapes.size()));
  QStringList columns;
  for (const CaseSize& s : m_shapes) columns << sizeName(s, false);
  m_table->setHorizontalHeaderLabels(columns);
  m_table->setVerticalHeaderLabels(m_kernels);
  for (int r = 0; r < m_kernels.size(); ++r)
    for (int col = 0; col < m_shapes.size(); ++col) {
      auto* item = new QTableWidgetItem;
      item->setTextAlignment(Qt::AlignCenter);
      const CaseResult* c = caseAt(r, col);
      if (!c) {
        item->setText("—");
        item->setData(kStatusRole, -1);
        m_table->setItem(r, col, item);
        continue;
      }
      QString text = statusText(c->status);
      QStringList tip{QString("%1 at %2: %3").arg(m_kernels[r], columns[col], text)};
      if (c->verification) {
        const auto& v = *c->verification;
        const auto first = !isGemm(c->size) ? firstMismatchIndex(v.compare) : std::nullopt;
        if (v.compare.mismatches)
          text += QString("\n%1 mismatches").arg(v.compare.mismatches);
        else if (!first)
          // Absolute error: the relative one explodes where the reference is near zero.
          text += QString("\nabs %1").arg(formatNumber(v.compare.maxAbsError, 2));
        // A vector has no rows and columns: where it first went wrong says more.
        if (first) text += QString("\nfirst at [%1]").arg(*first);
        tip << QString("max abs error %1, max rel error %2, mismatches %3 of %4")
                   .arg(formatNumber(v.compare.maxAbsError, 4),
                        formatNumber(v.compare.maxRelError, 4))
                   .arg(v.compare.mismatches)
                   .arg(v.compare.elements);
        if (first) tip << firstMismatchText(v.compare);
        tip << QString("canary unwritten %1 · negative control %2")
                   .arg(v.unwritten)
                   .arg(v.negativeControlRejected ? "rejected (good)" : "NOT rejected");
      }
      // Faster than the device allows (kwb/plausibility.h): said in the cell, not only the tip.
      if (!c->suspicious.empty()) text += "\nSUSPICIOUS";
      if (!c->message.empty()) tip << QString::fromStdString(c->message);
      if (const QString device = caseDeviceText(doc, *c); !device.isEmpty())
        tip << "ran on " + device;
      item->setText(text);
      item->setToolTip(tip.join('\n'));
      item->setData(kStatusRole, int(c->status));
      item->setBackground(statusColor(c->status));
      item->setForeground(Qt::white);
      m_table->setItem(r, col, item);
    }
  // One measuring pass over the filled grid.
  m_table->resizeColumnsToContents();
  m_table->resizeRowsToContents();
  m_table->setUpdatesEnabled(true);
}

}  // namespace kwb::gui
