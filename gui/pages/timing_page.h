// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QComboBox>

#include "panels/shape_combo.h"
#include "plots/plot_page.h"

namespace kwb::gui {

// Timing distributions of every kernel at one shape, on one shared axis. Above, a violin per
// kernel (the density of its samples) around a narrow box (p25–p75, a line at the median,
// whiskers p5–p95, dots at min and max); with a baseline loaded, the baseline's samples of the
// same kernel are the violin's grey left half, this run's the right. Below, every sample of each
// kernel in the order it was taken, in the kernel's column: drift and throttling show as a
// slope or a step. By default both show each sample relative to its kernel's median (this
// run's, for the baseline too), so a 0.03 ms and a 30 ms kernel read alike; "milliseconds"
// shows the times on a log axis. FP32 fallbacks of tensor-core stages are hatched and named
// under their column. No legend: the columns are named on the axis.
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
  // One violin per kernel, in the same order; the baseline's halves (kernels it holds).
  const QList<QCPCurve*>& violins() const { return m_violins; }
  const QList<QCPCurve*>& baselineViolins() const { return m_baselineViolins; }
  // Each kernel's samples in the order taken (x inside its column), in the same order.
  const QList<QCPGraph*>& orderStrips() const { return m_strips; }
  QCPAxisRect* orderRect() const { return m_orderRect; }
  QCPTextElement* key() const { return m_key; }
  void selectCase(const QString& kernel, const CaseSize& shape);

 protected:
  void rebuild() override;

 private:
  struct Build;  // one rebuild's cases, scale and the range they reach
  // A box and a violin per case (x = 1, 2, ...) and the x-axis ticks.
  void addColumns(Build& b);
  void addViolins(const Build& b, int i);
  // Relative scale: a min or max beyond [yMin, yMax] is marked at the plot's edge.
  void markExtremesOffAxis(const Build& b);
  void addOrderStrip(const Build& b, int i);
  void setKey(const Build& b);

  ShapeCombo* m_shape;
  QComboBox* m_scale;
  QCPAxisRect* m_orderRect;
  QCPTextElement* m_key;
  QList<QCPStatisticalBox*> m_boxes;
  QList<QCPCurve*> m_violins, m_baselineViolins;
  QList<QCPGraph*> m_strips;
};

}  // namespace kwb::gui
