// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QComboBox>

#include "panels/shape_combo.h"
#include "plots/plot_page.h"

namespace kwb::gui {

// Timing distributions of every kernel at one shape. Above, a box per kernel (p25–p75, a line
// at the median, whiskers p5–p95, dots at min and max, as the key under the plot says); below,
// the kernels' histograms overlaid. By default both show each sample relative to its kernel's
// median, so a 0.03 ms and a 30 ms kernel read alike; "milliseconds" shows the times on a log
// axis.
class TimingPage : public PlotPage {
  Q_OBJECT
 public:
  enum class Scale { kRelative, kMilliseconds };
  explicit TimingPage(ResultsModel* model, QWidget* parent = nullptr);
  ShapeCombo* shapeCombo() const { return m_shape; }
  QComboBox* scaleCombo() const { return m_scale; }
  Scale scale() const { return Scale(m_scale->currentIndex()); }
  void setScale(Scale s) { m_scale->setCurrentIndex(int(s)); }
  // One box plottable per kernel (its colour), in the order of the x axis.
  const QList<QCPStatisticalBox*>& boxes() const { return m_boxes; }
  // One histogram per kernel, y = percent of that kernel's samples in the bin.
  const QList<QCPGraph*>& histograms() const { return m_histograms; }
  QCPAxisRect* histogramRect() const { return m_histRect; }
  QCPTextElement* key() const { return m_key; }
  void selectCase(const QString& kernel, const CaseSize& shape);

 protected:
  void rebuild() override;

 private:
  struct Bins;  // the histograms' bins over the time axis
  // A box per case (x = 1, 2, ...) and the x-axis ticks; returns the lowest p5 and highest p95.
  std::pair<double, double> addBoxes(const QList<const CaseResult*>& cases, bool relative);
  // Relative scale: a min or max beyond [yMin, yMax] is marked at the plot's edge.
  void markExtremesOffAxis(const QList<const CaseResult*>& cases, double yMin, double yMax);
  void addHistograms(const QList<const CaseResult*>& cases, const Bins& bins);
  double addHistogram(const CaseResult& c, const QColor& color, const Bins& bins);  // its peak

  ShapeCombo* m_shape;
  QComboBox* m_scale;
  QCPAxisRect* m_histRect;
  QCPTextElement* m_key;
  QList<QCPStatisticalBox*> m_boxes;
  QList<QCPGraph*> m_histograms;
};

}  // namespace kwb::gui
