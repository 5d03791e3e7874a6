#pragma once
#include <QCheckBox>

#include "plots/plot_page.h"

namespace kwb::gui {

// GFLOP/s against problem size (cube root of M·N·K), log x ticked at the sizes run. A line per
// kernel joins its cubic shapes only; other shapes are unjoined hollow points, FP32 fallbacks
// of tensor-core stages hollow squares off the line; every point has its median's 95% CI.
// The baseline's kernels dashed, other runs compared dotted.
class ScalingPage : public PlotPage {
  Q_OBJECT
 public:
  explicit ScalingPage(ResultsModel* model, QWidget* parent = nullptr);
  QCheckBox* logScale() const { return m_logY; }
  // The joined line of a kernel's cubic shapes, or null. `run`: empty for this run,
  // " (baseline)", or " (file.json)" for a run added to compare.
  QCPGraph* lineOf(const QString& kernel, const QString& run = {}) const;

 protected:
  void rebuild() override;

 private:
  QCheckBox* m_logY;
};

}  // namespace kwb::gui
