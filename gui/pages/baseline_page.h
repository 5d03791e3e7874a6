// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QLabel>
#include <QTableWidget>
#include <QWidget>

#include "model/results_model.h"
#include "plots/speedup_plot.h"

namespace kwb::gui {

// Speedup per case against the baseline: a plot of the speedup against size per kernel above,
// one row per case present in both documents below.
class BaselinePage : public QWidget {
  Q_OBJECT
 public:
  explicit BaselinePage(ResultsModel* model, QWidget* parent = nullptr);
  QTableWidget* table() const { return m_table; }
  QString headerText() const { return m_header->text(); }
  SpeedupPlot* speedupPlot() const { return m_plot; }
  void rebuildNow();

 private:
  ResultsModel* m_model;
  QLabel* m_header;
  QTableWidget* m_table;
  SpeedupPlot* m_plot;
};

}  // namespace kwb::gui
