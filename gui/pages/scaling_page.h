// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QCheckBox>
#include <QComboBox>

#include "plots/plot_page.h"

namespace kwb::gui {

// GFLOP/s against problem size (cube root of M·N·K), log x ticked at the sizes run. A line per
// kernel joins its cubic shapes only; other shapes are unjoined hollow points, FP32 fallbacks
// of tensor-core stages hollow squares off the line; every point has its median's 95% CI.
// The baseline's kernels dashed, other runs compared dotted. Shapes that are not cubes are
// ticked with their M×N×K. A sweep along one axis (M, N or K with the other two fixed, as
// resources/presets/sweep-m.json runs) is drawn with that axis on x, a line per kernel and
// fixed pair; a 2-D sweep of M × N at one K as a heat map of one kernel's rate (sweep-mn.json).
// The "x axis" combo offers the views the document's shapes allow and starts at the sweep.
class ScalingPage : public PlotPage {
  Q_OBJECT
 public:
  enum class View { kSize, kM, kN, kK, kHeatMap };
  explicit ScalingPage(ResultsModel* model, QWidget* parent = nullptr);
  QCheckBox* logScale() const { return m_logY; }
  QComboBox* viewCombo() const { return m_view; }
  QComboBox* kernelCombo() const { return m_kernel; }
  View view() const;
  void setView(View v);
  // The heat map of the M × N view (null in the others).
  QCPColorMap* heatMap() const { return m_heatMap; }
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
  // The views the document's GEMM shapes allow, the combo refilled keeping the choice (or
  // starting at the sweep the shapes are).
  void offerViews(const RunDocument& doc);
  // A 1-D sweep: the cases of a kernel grouped by the two fixed dimensions, a line each.
  void addSweepSeries(Build& b, const RunDocument& d, const QString& id, const QString& run,
                      Qt::PenStyle style);
  void drawHeatMap(const RunDocument& doc);
  void removeHeatMap();

  QCheckBox* m_logY;
  QComboBox* m_view;
  QComboBox* m_kernel;
  QCPColorMap* m_heatMap = nullptr;
  QCPColorScale* m_colorScale = nullptr;
};

}  // namespace kwb::gui
