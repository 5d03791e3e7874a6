// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QWidget>

#include "kwb/results.h"

class QLabel;
class QRadioButton;

namespace kwb::gui {

class ErrorMapPlot;

// The case detail's heat map of |C − C_ref|: the error grid of the canary run (α = 1, β = 0)
// or of the α/β run, a toggle between them, a line summing up the run shown and a legend.
// Without a grid (documents written before kwb recorded one) it says so instead.
class ErrorHeatMap : public QWidget {
  Q_OBJECT
 public:
  enum class Run { kCanary, kAlphaBeta };
  explicit ErrorHeatMap(QWidget* parent = nullptr);
  void setCase(const CaseResult& c);
  void showRun(Run run);
  Run run() const { return m_run; }
  // The grid of the run shown, or nullptr where there is none (no verification, no α/β run,
  // or an empty grid from an older kwb).
  const ErrorGrid* shownGrid() const;
  ErrorMapPlot* plot() const { return m_plot; }
  QRadioButton* canaryButton() const { return m_canary; }
  QRadioButton* alphaBetaButton() const { return m_alphaBeta; }
  QString message() const;  // the line above the map: a summary, or why there is no map
  static QString noGridText();

 private:
  void rebuild();
  CaseResult m_case;
  Run m_run = Run::kCanary;
  QRadioButton* m_canary;
  QRadioButton* m_alphaBeta;
  QLabel* m_message;
  ErrorMapPlot* m_plot;
  QLabel* m_legend;
};

}  // namespace kwb::gui
