#pragma once
#include "plots/plot_page.h"

namespace kwb::gui {

// Log-log roofline: GFLOP/s against arithmetic intensity (FLOP per byte of the minimum
// traffic). Roofs from the recorded device (FP32, TF32 tensor, FP16 tensor) in grey line
// styles and GFLOP/s, the memory slope on its own; a colour per kernel, a marker per shape,
// FP32 fallbacks hollow.
class RooflinePage : public PlotPage {
  Q_OBJECT
 public:
  explicit RooflinePage(ResultsModel* model, QWidget* parent = nullptr);
  int roofCount() const { return m_roofs; }
  QCPGraph* memorySlope() const { return m_slope; }
  // The measured device-to-device copy bandwidth as a second slope (null when not recorded).
  QCPGraph* copySlope() const { return m_copySlope; }

 protected:
  void rebuild() override;

 private:
  int m_roofs = 0;
  QCPGraph* m_slope = nullptr;
  QCPGraph* m_copySlope = nullptr;
};

}  // namespace kwb::gui
