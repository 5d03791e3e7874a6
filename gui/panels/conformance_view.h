// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QLabel>
#include <QTableWidget>
#include <QWidget>

#include "kwb/conformance.h"

namespace kwb::gui {

// The sub-group conformance outcome (`kwb conformance`) under the correctness grid: one
// launch row per tile size, and a check × tile size grid of PASS/FAIL whose cells name
// their offending items on hover and, when clicked, below the grid.
class ConformanceView : public QWidget {
  Q_OBJECT
 public:
  static constexpr int kPassedRole = Qt::UserRole + 2;  // bool, on check cells
  explicit ConformanceView(QWidget* parent = nullptr);
  void setReport(const ConformanceReport& report);
  QLabel* summary() const { return m_summary; }
  QTableWidget* launches() const { return m_launches; }
  QTableWidget* checks() const { return m_checks; }
  QLabel* detail() const { return m_detail; }
  // Shows the check of a cell of checks() in detail(); false when the cell holds none.
  bool showCheck(int row, int column);

 private:
  ConformanceReport m_report;
  QLabel* m_summary;
  QTableWidget* m_launches;
  QTableWidget* m_checks;
  QLabel* m_detail;
};

// Text shared by the view and the PDF report.
QString conformanceSummary(const ConformanceReport& report);
QString launchText(const SubgroupRun& run);  // "block 15×7×7 · grid 2×2×2 · 735 threads/block"
QStringList checkIds(const ConformanceReport& report);  // in the plan's order, every run's
QString offendersText(const ConformanceCheck& check);   // failures, not judged, offenders

}  // namespace kwb::gui
