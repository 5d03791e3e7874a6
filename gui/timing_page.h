#pragma once
#include <QComboBox>

#include "plot_page.h"
#include "shape_combo.h"

namespace kwb::gui {

// Timing distribution at one shape: a box per kernel (p25–p75, median, whiskers p5–p95,
// min and max as outliers) and, below, a histogram of the chosen case's samples.
class TimingPage : public PlotPage {
  Q_OBJECT
 public:
  explicit TimingPage(ResultsModel* model, QWidget* parent = nullptr);
  ShapeCombo* shapeCombo() const { return m_shape; }
  QComboBox* kernelCombo() const { return m_kernel; }
  QCPStatisticalBox* boxes() const { return m_boxes; }
  QCPBars* histogram() const { return m_histogram; }
  void selectCase(const QString& kernel, const Shape& shape);

 protected:
  void rebuild() override;

 private:
  ShapeCombo* m_shape;
  QComboBox* m_kernel;
  QCPAxisRect* m_histRect;
  QCPStatisticalBox* m_boxes = nullptr;
  QCPBars* m_histogram = nullptr;
};

}  // namespace kwb::gui
