#pragma once
#include "plot_page.h"
#include "shape_combo.h"

namespace kwb::gui {

// GFLOP/s per stage at one shape, cuBLAS references as lines, % of the reference on each
// bar, progression violations marked; the baseline as a second bar per stage.
class ProgressionPage : public PlotPage {
  Q_OBJECT
 public:
  explicit ProgressionPage(ResultsModel* model, QWidget* parent = nullptr);
  ShapeCombo* shapeCombo() const { return m_shape; }
  // For tests: the bar plottable of this run and of the baseline (null when none).
  QCPBars* bars() const { return m_bars; }
  QCPBars* baselineBars() const { return m_baselineBars; }
  int violationMarks() const { return m_violationMarks; }

 protected:
  void rebuild() override;

 private:
  ShapeCombo* m_shape;
  QCPBars* m_bars = nullptr;
  QCPBars* m_baselineBars = nullptr;
  int m_violationMarks = 0;
};

}  // namespace kwb::gui
