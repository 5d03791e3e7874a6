// SPDX-License-Identifier: Apache-2.0
#include "plots/plot_helpers.h"

#include <QBuffer>
#include <QGuiApplication>
#include <QLocale>
#include <QPalette>
#include <QSvgGenerator>
#include <QToolTip>
#include <algorithm>
#include <cmath>
#include <limits>

#include "model/output_file.h"

namespace kwb::gui {

PlotTooltips::PlotTooltips(QCustomPlot* plot) : QObject(plot), m_plot(plot) {
  plot->setMouseTracking(true);
  connect(plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
    const QString text = textAt(e->position());
    if (text.isEmpty())
      QToolTip::hideText();
    else
      QToolTip::showText(e->globalPosition().toPoint(), text, m_plot);
  });
}

void PlotTooltips::add(QCPAxis* xAxis, QCPAxis* yAxis, double x, double y, const QString& text) {
  m_points.append({xAxis, yAxis, x, y, text});
}

QString PlotTooltips::textAt(const QPointF& pos, double radius) const {
  double best = radius * radius;
  QString text;
  for (const Point& p : m_points) {
    const double dx = p.x->coordToPixel(p.px) - pos.x();
    const double dy = p.y->coordToPixel(p.py) - pos.y();
    if (dx * dx + dy * dy <= best) {
      best = dx * dx + dy * dy;
      text = p.text;
    }
  }
  return text;
}

QVector<double> NiceLogTicker::createTickVector(double, const QCPRange& range) {
  QVector<double> ticks;
  if (range.lower <= 0 || range.upper <= range.lower) return ticks;
  const double decades = std::log10(range.upper / range.lower);
  QVector<double> mantissas{1};
  if (decades < 1.2)
    mantissas = {1, 1.5, 2, 3, 4, 5, 6, 7, 8, 9};
  else if (decades < 3.5)
    mantissas = {1, 2, 5};
  const int step = decades > 8 ? int(std::ceil(decades / 6)) : 1;
  const int first = int(std::floor(std::log10(range.lower))) - 1;
  const int last = int(std::ceil(std::log10(range.upper))) + 1;
  for (int e = first; e <= last; e += step)
    for (double m : mantissas) ticks << m * std::pow(10.0, e);
  // Within a fraction of a decade even 1…9 gives one or two ticks: fall back to linear steps.
  int inside = 0;
  for (double t : ticks) inside += range.contains(t);
  if (inside < 3) {
    ticks.clear();
    const double raw = range.size() / 5;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    const double stepLin = raw / mag < 1.5 ? mag : raw / mag < 3.5 ? 2 * mag : 5 * mag;
    for (double t = std::floor(range.lower / stepLin) * stepLin; t <= range.upper + stepLin;
         t += stepLin)
      if (t > 0) ticks << t;
  }
  return ticks;
}

QString seriesOf(const QCPAbstractPlottable* p) {
  const QVariant v = p->property("series");
  return v.isValid() ? v.toString() : p->name();
}

void setupPlot(QCustomPlot* plot) {
  plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  plot->axisRect()->setRangeDrag(Qt::Horizontal | Qt::Vertical);
  plot->axisRect()->setRangeZoom(Qt::Horizontal | Qt::Vertical);
  plot->setNoAntialiasingOnDrag(true);
  plot->legend->setVisible(true);
  QFont f = plot->font();
  f.setPointSize(9);
  plot->legend->setFont(f);
  plot->legend->setBrush(QColor(255, 255, 255, 220));
  plot->setMinimumSize(400, 300);
}

void placeLegendOutside(QCustomPlot* plot) {
  QCPLayoutGrid* grid = plot->plotLayout();
  QCPAxisRect* rect = plot->axisRect();
  int row = 0, col = 0;
  for (int r = 0; r < grid->rowCount(); ++r)
    if (grid->element(r, 0) == rect) row = r;
  plot->axisRect()->insetLayout()->take(plot->legend);
  // A column of its own: the legend on top, an empty element below takes the spare height.
  auto* column = new QCPLayoutGrid;
  grid->addElement(row, col + 1, column);
  column->addElement(0, 0, plot->legend);
  column->addElement(1, 0, new QCPLayoutElement(plot));
  column->setRowStretchFactor(0, 0.001);
  column->setRowStretchFactor(1, 1);
  grid->setColumnStretchFactor(1, 0.001);
  // Room for the legend's border at the widget's right edge, where it was cut off.
  column->setAutoMargins(QCP::msNone);
  column->setMargins(QMargins(4, 0, 8, 0));
  plot->legend->setMaximumSize(280, QWIDGETSIZE_MAX);
  grid->simplify();
}

QString plainNumber(double v) {
  if (v == 0) return "0";
  const double a = std::abs(v);
  // Whole numbers from 10,000 up grouped, never "1e+06" beside "500000"; small ones with the
  // digits they need, never an exponent above 1e-4.
  if (a >= 1e4) {
    QLocale grouped = QLocale::c();  // the C locale leaves out group separators by default
    grouped.setNumberOptions(QLocale::DefaultNumberOptions);
    return grouped.toString(v, 'f', 0).replace(',', QString(QChar(0x2009)));
  }
  if (a < 1e-4) return QString::number(v, 'g', 3);
  const int decimals = std::max(0, 3 - int(std::floor(std::log10(a))));  // 4 significant digits
  QString t = QString::number(v, 'f', decimals);
  if (t.contains('.')) {
    while (t.endsWith('0')) t.chop(1);
    if (t.endsWith('.')) t.chop(1);
  }
  return t;
}

namespace {

// Tick labels in plain numbers (plainNumber), of the data divided by `divisor` (1000: the
// axis reads TFLOP/s of GFLOP/s data), on a linear or a log ticker alike.
struct TickDivisor {
  virtual ~TickDivisor() = default;
  double divisor = 1;
};

template <class Ticker>
class PlainTicks : public Ticker, public TickDivisor {
 protected:
  QString getTickLabel(double tick, const QLocale&, QChar, int) override {
    return plainNumber(tick / divisor);
  }
};
using PlainTicker = PlainTicks<QCPAxisTicker>;
using PlainLogTicker = PlainTicks<NiceLogTicker>;

}  // namespace

void placeLegendBelow(QCustomPlot* plot, int columns) {
  QCPLayoutGrid* grid = plot->plotLayout();
  int row = 0;
  for (int r = 0; r < grid->rowCount(); ++r)
    if (grid->element(r, 0) == plot->axisRect()) row = r;
  plot->axisRect()->insetLayout()->take(plot->legend);
  grid->insertRow(row + 1);
  grid->addElement(row + 1, 0, plot->legend);
  grid->setRowStretchFactor(row + 1, 0.001);
  plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
  plot->legend->setWrap(columns);
  plot->legend->setMargins(QMargins(4, 2, 4, 2));
}

void makeLogAxis(QCPAxis* axis) {
  axis->setScaleType(QCPAxis::stLogarithmic);
  axis->setTicker(QSharedPointer<QCPAxisTickerLog>(new PlainLogTicker));
}

void makeLinearAxis(QCPAxis* axis) {
  axis->setScaleType(QCPAxis::stLinear);
  axis->setTicker(QSharedPointer<QCPAxisTicker>(new PlainTicker));
}

void fitRateUnit(QCPAxis* axis, const QString& unit) {
  const bool tera = unit == "GFLOP/s" && axis->range().upper >= 1e4;
  auto* ticks = dynamic_cast<TickDivisor*>(axis->ticker().data());
  if (!ticks) return;
  ticks->divisor = tera ? 1000 : 1;
  auto rename = [tera](QString text) {
    return tera ? text.replace("GFLOP/s", "TFLOP/s") : text.replace("TFLOP/s", "GFLOP/s");
  };
  axis->setLabel(rename(axis->label()));
  // The plot's title (setPlotTitle) names the same unit.
  QCPLayoutGrid* grid = axis->parentPlot()->plotLayout();
  if (grid->hasElement(0, 0))
    if (auto* title = qobject_cast<QCPTextElement*>(grid->element(0, 0)))
      title->setText(rename(title->text()));
}

void makeGflopsAxis(QCPAxis* axis, bool log) { makeRateAxis(axis, log, "GFLOP/s"); }

void makeRateAxis(QCPAxis* axis, bool log, const QString& unit) {
  if (log)
    makeLogAxis(axis);
  else
    makeLinearAxis(axis);
  axis->setLabel(log ? unit + " (log)" : unit);
}

void setTextTicks(QCPAxis* axis, const QList<QPair<double, QString>>& ticks) {
  QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
  for (const auto& [v, text] : ticks) ticker->addTick(v, text);
  axis->setTicker(ticker);
}

QList<QPair<double, QString>> thinLogTicks(QList<QPair<double, QString>> ticks, double minRatio) {
  std::sort(ticks.begin(), ticks.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  const auto powerOfTwo = [](double x) {
    const double e = std::log2(x);
    return x > 0 && e == std::floor(e);
  };
  QList<QPair<double, QString>> kept;
  for (const auto& t : ticks) {
    if (kept.isEmpty() || t.first >= kept.back().first * minRatio)
      kept << t;
    else if (powerOfTwo(t.first) && !powerOfTwo(kept.back().first))
      kept.back() = t;
  }
  return kept;
}

void fitTickLabels(QCPAxis* axis, const QStringList& labels) {
  // Widest label against the room a tick has at the axis rect's current width.
  const QFontMetrics fm(axis->tickLabelFont());
  double widest = 0;
  for (const QString& l : labels)
    for (const QString& line : l.split('\n'))
      widest = std::max<double>(widest, fm.horizontalAdvance(line));
  const double room = labels.isEmpty() ? 1e9 : axis->axisRect()->width() / double(labels.size());
  axis->setTickLabelRotation(widest + 8 > room ? -35 : 0);
}

bool paletteIsDark() {
  return QGuiApplication::palette().color(QPalette::Window).lightness() < 128;
}

void applyPlotTheme(QCustomPlot* plot, bool dark) {
  const QColor bg = dark ? QColor(0x1e, 0x1f, 0x22) : Qt::white;
  const QColor fg = dark ? QColor(0xdd, 0xdd, 0xdd) : Qt::black;
  const QColor grid = dark ? QColor(0x44, 0x44, 0x48) : QColor(200, 200, 200);
  plot->setBackground(bg);
  for (QCPAxisRect* rect : plot->axisRects())
    for (QCPAxis* a : rect->axes()) {
      a->setBasePen(QPen(fg));
      a->setTickPen(QPen(fg));
      a->setSubTickPen(QPen(fg));
      a->setTickLabelColor(fg);
      a->setLabelColor(fg);
      a->grid()->setPen(QPen(grid, 1, Qt::DotLine));
    }
  plot->legend->setBrush(dark ? QColor(0x2a, 0x2b, 0x2f, 230) : QColor(255, 255, 255, 220));
  plot->legend->setTextColor(fg);
  plot->legend->setBorderPen(QPen(dark ? QColor(0x66, 0x66, 0x66) : Qt::black));
  for (int r = 0; r < plot->plotLayout()->rowCount(); ++r)
    if (auto* t = qobject_cast<QCPTextElement*>(plot->plotLayout()->element(r, 0)))
      t->setTextColor(fg);
}

void setCategoryTicks(QCPAxis* axis, const QList<QPair<double, QString>>& ticks) {
  setTextTicks(axis, ticks);
  QStringList labels;
  for (const auto& t : ticks) labels << t.second;
  fitTickLabels(axis, labels);
}

QString rateText(double v, const QString& unit) {
  if (unit == "GFLOP/s" && v >= 1e4) return QLocale::c().toString(v / 1000, 'f', 1) + " TFLOP/s";
  return QLocale::c().toString(v, 'f', 0) + " " + unit;
}

QCPErrorBars* addErrorBars(QCPGraph* graph, const QVector<double>& low,
                           const QVector<double>& high) {
  auto* bars = new QCPErrorBars(graph->keyAxis(), graph->valueAxis());
  bars->setDataPlottable(graph);
  bars->setData(low, high);
  bars->setPen(QPen(graph->pen().color(), 1));
  bars->setWhiskerWidth(5);
  bars->setProperty("series", graph->property("series"));
  bars->removeFromLegend();
  return bars;
}

QCPGraph* addMarkerGraph(QCustomPlot* plot, const QString& name, const QCPScatterStyle& style) {
  QCPGraph* g = plot->addGraph();
  g->setName(name);
  g->setLineStyle(QCPGraph::lsNone);
  g->setScatterStyle(style);
  return g;
}

void showEmptyNote(QCustomPlot* plot, const QString& text) {
  auto* note = new QCPItemText(plot);
  note->setObjectName("emptyNote");
  note->position->setType(QCPItemPosition::ptAxisRectRatio);
  note->position->setCoords(0.5, 0.5);
  note->setPositionAlignment(Qt::AlignCenter);
  note->setTextAlignment(Qt::AlignCenter);
  note->setText(text);
  note->setFont(QFont(plot->font().family(), 12));
  note->setColor(QColor(0x66, 0x66, 0x66));
  note->setClipToAxisRect(false);
  plot->legend->setVisible(false);
  // No bare axes: an empty plot is its note (PlotPage shows the axes again on rebuild).
  for (QCPAxisRect* rect : plot->axisRects())
    for (QCPAxis* a : rect->axes()) a->setVisible(false);
}

void setPlotTitle(QCustomPlot* plot, const QString& title) {
  QCPTextElement* element = nullptr;
  if (plot->plotLayout()->rowCount() > 1)
    element = qobject_cast<QCPTextElement*>(plot->plotLayout()->element(0, 0));
  if (!element) {
    plot->plotLayout()->insertRow(0);
    element = new QCPTextElement(plot, title, QFont(plot->font().family(), 11, QFont::Bold));
    plot->plotLayout()->addElement(0, 0, element);
  }
  element->setText(title);
}

// Both images are drawn in memory and written by core's writer (model/output_file.h).
QString savePlotPng(QCustomPlot* plot, const QString& path, int width, int height) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  if (!buffer.open(QIODevice::WriteOnly) ||
      !plot->toPixmap(width, height, 1.0).save(&buffer, "PNG"))
    return QString("Could not write the image '%1': it could not be encoded.").arg(path);
  return writeOutputFile(path, bytes);
}

QString savePlotSvg(QCustomPlot* plot, const QString& path, int width, int height) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  QSvgGenerator svg;
  svg.setOutputDevice(&buffer);
  svg.setSize(QSize(width, height));
  svg.setViewBox(QRect(0, 0, width, height));
  svg.setTitle(plot->objectName());
  QCPPainter painter;
  if (!painter.begin(&svg)) return QString("Could not write the SVG file '%1'.").arg(path);
  plot->toPainter(&painter, width, height);
  painter.end();
  return writeOutputFile(path, bytes);
}

}  // namespace kwb::gui
