// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QCheckBox>

#include "panels/shape_combo.h"
#include "plots/plot_page.h"

namespace kwb::gui {

// GFLOP/s per stage at one shape with the 95% CI of each median, cuBLAS references as lines,
// % of the reference on each bar (saying which), FP32 fallbacks hatched and labelled,
// progression violations marked; the baseline as a second bar per stage.
class ProgressionPage : public PlotPage {
  Q_OBJECT
 public:
  explicit ProgressionPage(ResultsModel* model, QWidget* parent = nullptr);
  ShapeCombo* shapeCombo() const { return m_shape; }
  // For tests: the bar plottable of this run and of the baseline (null when none).
  QCPBars* bars() const { return m_bars; }
  // Tensor-core stages that ran their FP32 path: hatched bars of their own.
  QCPBars* fallbackBars() const { return m_fallbackBars; }
  QCPBars* baselineBars() const { return m_baselineBars; }
  // One bar series per run added to compare (ResultsModel::overlays), in their order.
  const QList<QCPBars*>& overlayBars() const { return m_overlayBars; }
  // The 95% CI of each bar's median, as GFLOP/s (on bars() and fallbackBars()).
  QCPErrorBars* errorBars() const { return m_errorBars; }
  QCPErrorBars* fallbackErrorBars() const { return m_fallbackErrorBars; }
  // The 95% CI of each baseline bar's median (null without a baseline).
  QCPErrorBars* baselineErrorBars() const { return m_baselineErrorBars; }
  QCheckBox* logScale() const { return m_logY; }
  int violationMarks() const { return m_violationMarks; }

 protected:
  void rebuild() override;

 private:
  struct Build;  // one rebuild's shape, unit and the range its bars and lines reach
  // This run's bars, its FP32 fallbacks' hatched bars and one series per run compared (the
  // baseline first), grouped side by side at each stage when there are any.
  void addBarSeries(Build& b);
  void addCiBars();  // the 95% CI bars of this run's and its fallbacks' bars
  // Every stage's bars, labels and violation marks; returns the stages' x-axis ticks.
  QList<QPair<double, QString>> addStages(Build& b);
  // A timed stage of this run: its bar, CI, label and tooltip; returns the label's line count.
  int addStageBar(Build& b, const KernelInfo& k, double x, const CaseResult& c);
  void addComparedBars(Build& b, const KernelInfo& k, double x);  // baseline and overlays
  void addViolationMark(const Build& b, const ProgressionViolation& v, double x,
                        const CaseResult& c, int labelLines);
  // A horizontal line across the stages named with its rate ("off scale" above a linear axis).
  QCPGraph* addLevelLine(const Build& b, const QString& name, double v, const QString& unit,
                         const QPen& pen);
  void addReferenceLines(Build& b);  // cuBLAS/CUB references and the memory roofs
  void setTextTicksAndRanges(const Build& b, const QList<QPair<double, QString>>& ticks);

  ShapeCombo* m_shape;
  QCheckBox* m_logY;
  QCPBars* m_bars = nullptr;
  QCPBars* m_fallbackBars = nullptr;
  QCPErrorBars* m_errorBars = nullptr;
  QCPErrorBars* m_fallbackErrorBars = nullptr;
  QCPErrorBars* m_baselineErrorBars = nullptr;
  QCPBars* m_baselineBars = nullptr;
  QList<QCPBars*> m_overlayBars;
  int m_violationMarks = 0;
};

}  // namespace kwb::gui
