#pragma once
#include "plot_page.h"

namespace kwb::gui {

// Log-log roofline: GFLOP/s against arithmetic intensity (FLOP per byte of the minimum
// traffic), roofs from the recorded device (FP32, FP16 tensor, memory bandwidth).
class RooflinePage : public PlotPage {
  Q_OBJECT
 public:
  explicit RooflinePage(ResultsModel* model, QWidget* parent = nullptr);
  int roofCount() const { return m_roofs; }

 protected:
  void rebuild() override;

 private:
  int m_roofs = 0;
};

}  // namespace kwb::gui
