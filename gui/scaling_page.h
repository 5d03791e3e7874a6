#pragma once
#include <QCheckBox>

#include "plot_page.h"

namespace kwb::gui {

// GFLOP/s against problem size (cube root of M·N·K), one line per kernel, log x; the
// baseline's kernels dashed.
class ScalingPage : public PlotPage {
  Q_OBJECT
 public:
  explicit ScalingPage(ResultsModel* model, QWidget* parent = nullptr);

 protected:
  void rebuild() override;

 private:
  QCheckBox* m_logY;
};

}  // namespace kwb::gui
