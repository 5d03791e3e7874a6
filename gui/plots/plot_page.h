// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QHBoxLayout>
#include <QSet>
#include <QTimer>
#include <QWidget>

#include "model/results_model.h"
#include "plots/plot_helpers.h"

namespace kwb::gui {

// A tab holding one plot over the results model. Model changes are coalesced, so a fast
// event stream costs one rebuild per ~tenth of a second, not one per case.
class PlotPage : public QWidget {
  Q_OBJECT
 public:
  PlotPage(ResultsModel* model, const QString& name, QWidget* parent = nullptr);
  QCustomPlot* plot() const { return m_plot; }
  PlotTooltips* tooltips() const { return m_tooltips; }
  QString name() const { return m_name; }
  // Rebuilds from the model at once (tests and reports call it; the GUI schedules it).
  void rebuildNow();
  // Extra plots the page renders below the main one in reports (none by default).
  virtual QList<QCustomPlot*> reportPlots() const { return {m_plot}; }
  // Reports: the light theme and every element for paper, whatever the screen shows.
  void setPrinting(bool printing);
  bool printing() const { return m_printing; }
  // Ink for roofs, error bars and notes: near black on paper and light screens, light grey on
  // a dark one.
  QColor ink() const;
  // Back to the ranges the last rebuild chose (double-click on the plot, or Home).
  void resetZoom();
  // The plot as an image on the clipboard (Ctrl+C, or the plot's context menu).
  void copyToClipboard();
  // Legend entries hide and show their series on click; hidden ones stay hidden across
  // rebuilds. Series are matched by name (a plottable's "series" property, else its name).
  void toggleSeries(const QString& series);
  bool isSeriesHidden(const QString& series) const { return m_hiddenSeries.contains(series); }
  // Kernels to plot: those of the document (catalog order) the kernel list leaves checked.
  QList<QString> shownKernels(const RunDocument& doc) const;

 protected:
  virtual void rebuild() = 0;
  // Controls (shape pickers) go in this row above the plot.
  QHBoxLayout* controls() const { return m_controls; }
  ResultsModel* model() const { return m_model; }
  void scheduleRebuild();

 private:
  ResultsModel* m_model;
  QString m_name;
  QCustomPlot* m_plot;
  PlotTooltips* m_tooltips;
  QHBoxLayout* m_controls;
  QTimer m_timer;
  QSet<QString> m_hiddenSeries;
  bool m_printing = false;
  QList<QPair<QCPAxis*, QCPRange>> m_home;
  void applyHiddenSeries();
};

}  // namespace kwb::gui
