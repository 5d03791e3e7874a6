#pragma once
#include <QLabel>
#include <QTableWidget>
#include <QTimer>
#include <QWidget>

#include "results_model.h"

namespace kwb::gui {

// Kernel × shape grid of case statuses, coloured; activating a cell opens the case.
class CorrectnessPage : public QWidget {
  Q_OBJECT
 public:
  static constexpr int kStatusRole = Qt::UserRole + 1;  // int(CaseStatus), -1 when absent
  explicit CorrectnessPage(ResultsModel* model, QWidget* parent = nullptr);
  QTableWidget* table() const { return m_table; }
  void rebuildNow();
  // The case of a cell, or null where that kernel did not run at that shape.
  const CaseResult* caseAt(int row, int column) const;

 signals:
  void caseActivated(const kwb::CaseResult& c);

 private:
  ResultsModel* m_model;
  QLabel* m_summary;
  QTableWidget* m_table;
  QStringList m_kernels;
  QList<Shape> m_shapes;
  QTimer m_timer;
};

}  // namespace kwb::gui
