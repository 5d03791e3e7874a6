// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QLabel>
#include <QTableWidget>
#include <QTimer>
#include <QWidget>
#include <optional>

#include "model/doc_queries.h"

#include "model/results_model.h"

namespace kwb::gui {

class ConformanceView;

// Kernel × shape grid of case statuses, coloured; activating a cell opens the case. Below it,
// the sub-group conformance outcome when the document carries one.
class CorrectnessPage : public QWidget {
  Q_OBJECT
 public:
  static constexpr int kStatusRole = Qt::UserRole + 1;  // int(CaseStatus), -1 when absent
  explicit CorrectnessPage(ResultsModel* model, QWidget* parent = nullptr);
  QTableWidget* table() const { return m_table; }
  ConformanceView* conformance() const { return m_conformance; }
  void rebuildNow();
  // The grid as tab-separated text (a spreadsheet pastes it as cells): the selected cells, or
  // all of it. Ctrl+C puts it on the clipboard.
  QString gridText() const;
  void copyToClipboard() const;
  // The case of a cell, or null where that kernel did not run at that shape.
  const CaseResult* caseAt(int row, int column) const;

 signals:
  void caseActivated(const kwb::CaseResult& c);

 private:
  ResultsModel* m_model;
  QLabel* m_summary;
  QTableWidget* m_table;
  QLabel* m_legend;
  ConformanceView* m_conformance;
  QStringList m_kernels;
  QList<CaseSize> m_shapes;
  std::optional<CaseIndex> m_index;
  QTimer m_timer;
};

}  // namespace kwb::gui
