// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QList>
#include <QString>
#include <qcustomplot.h>

namespace kwb::gui {

// Exact-value tooltips: pages register the points they draw; hovering within a few pixels
// of one shows its text.
class PlotTooltips : public QObject {
  Q_OBJECT
 public:
  explicit PlotTooltips(QCustomPlot* plot);
  void clear() { m_points.clear(); }
  void add(QCPAxis* xAxis, QCPAxis* yAxis, double x, double y, const QString& text);
  // Text of the nearest registered point within `radius` pixels of `pos`, or empty.
  QString textAt(const QPointF& pos, double radius = 14) const;
  int count() const { return int(m_points.size()); }

 private:
  struct Point {
    QCPAxis* x;
    QCPAxis* y;
    double px, py;
    QString text;
  };
  QCustomPlot* m_plot;
  QList<Point> m_points;
};

// Log ticks a reader can place values on: 1-2-5 (or 1…9) steps inside a decade when the
// range spans few decades, powers of ten when it spans many; never a single labelled tick.
class NiceLogTicker : public QCPAxisTickerLog {
 protected:
  QVector<double> createTickVector(double tickStep, const QCPRange& range) override;
};

// The legend-toggle key of a plottable: its "series" property, else its name.
QString seriesOf(const QCPAbstractPlottable* p);

// Common look and the zoom/pan interactions (drag and wheel on both axes).
void setupPlot(QCustomPlot* plot);
// Dark or light from the application palette (the system's dark mode), for screen plots;
// reports stay light.
void applyPlotTheme(QCustomPlot* plot, bool dark);
bool paletteIsDark();
// Rotates an axis' text tick labels when they would not fit side by side.
void fitTickLabels(QCPAxis* axis, const QStringList& labels);
// Moves the legend into its own column right of the plot, where it hides no data.
void placeLegendOutside(QCustomPlot* plot);
// Moves the legend into a row of its own under the plot, `columns` entries a line: the plot
// keeps its width and the legend hides no bar or line.
void placeLegendBelow(QCustomPlot* plot, int columns = 3);
// Logarithmic axis with readable tick labels.
void makeLogAxis(QCPAxis* axis);
void makeLinearAxis(QCPAxis* axis);
// "500 000" and "1 000 000" alike (thin-space groups from 10,000), "0.25", "2.5e-05": a tick
// label with no exponent beside a plain number.
QString plainNumber(double v);
// Once the axis' range is set: a GFLOP/s axis reaching 10,000 reads TFLOP/s (labels of the
// data ÷ 1000, its title renamed); other units stay. For axes made by makeRateAxis.
void fitRateUnit(QCPAxis* axis, const QString& unit);
// The GFLOP/s axis of Progression and Scaling: logarithmic or linear, labelled to say which.
void makeGflopsAxis(QCPAxis* axis, bool log);
// The same for any rate: "GB/s" for the memory-bound families.
void makeRateAxis(QCPAxis* axis, bool log, const QString& unit);
// Ticks at the given values only (the sizes that were run), labelled as given.
void setTextTicks(QCPAxis* axis, const QList<QPair<double, QString>>& ticks);
// Ticks of a log axis in increasing order, leaving out any within `minRatio` of the one kept
// before it, whose labels would overprint (1,000,003 beside 2^20); of two such, the power of
// two is kept.
QList<QPair<double, QString>> thinLogTicks(QList<QPair<double, QString>> ticks,
                                           double minRatio = 1.25);
// Text ticks at the given positions (stages, kernels), rotated when they would not fit side by
// side at the axis rect's current width.
void setCategoryTicks(QCPAxis* axis, const QList<QPair<double, QString>>& ticks);
// A rate for legends: "512 GB/s", "950 GFLOP/s", and from 10,000 GFLOP/s in TFLOP/s:
// "19.5 TFLOP/s".
QString rateText(double v, const QString& unit);
// The 95% CIs of a graph's points as error bars in its colour, under its series (a legend click
// hides both) and with no legend entry of their own. `low` and `high`: the distances below and
// above each point, in the graph's key order.
QCPErrorBars* addErrorBars(QCPGraph* graph, const QVector<double>& low,
                           const QVector<double>& high);
// A graph of markers only (no line) named `name`: a kernel's points, or with no data a legend
// key of a marker kind.
QCPGraph* addMarkerGraph(QCustomPlot* plot, const QString& name, const QCPScatterStyle& style);
// A note in the middle of the plot saying why it is empty (and no empty legend box).
void showEmptyNote(QCustomPlot* plot, const QString& text);
// A title element at the top of the plot (kept as the first element of row 0).
void setPlotTitle(QCustomPlot* plot, const QString& title);
// Files: return an empty string, or a sentence naming the file and the problem.
QString savePlotPng(QCustomPlot* plot, const QString& path, int width = 1200, int height = 750);
QString savePlotSvg(QCustomPlot* plot, const QString& path, int width = 1200, int height = 750);

}  // namespace kwb::gui
