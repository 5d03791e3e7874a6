// SPDX-License-Identifier: Apache-2.0
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
  struct Build;  // one rebuild's unit, joined cases and the sizes and rates reached
  // A kernel's series of one run (`run` as in lineOf): its joined line, unjoined points and
  // FP32 fallbacks, the first of them its legend entry.
  void addSeries(Build& b, const RunDocument& d, const QString& id, const QString& run,
                 Qt::PenStyle style);
  // Points with their CI bars and tooltips, noting the sizes and rates they reach.
  void addPoints(Build& b, QCPGraph* g, QList<const CaseResult*> points, const QString& name);
  QCPGraph* seriesGraph(const QString& series, const QString& role, const QString& name);
  // Unjoined points in `marker`; the series' legend entry unless it has one already.
  void addUnjoined(Build& b, QCPGraph* g, const QList<const CaseResult*>& points,
                   const QString& name, const QCPScatterStyle& marker, QCPGraph*& legendEntry);
  void addMarkerKeys(const Build& b);
  void setSizeTicks(const Build& b);
  void setRanges(const Build& b, bool logY);

  QCheckBox* m_logY;
};

}  // namespace kwb::gui
