// SPDX-License-Identifier: Apache-2.0
#include "pages/scaling_page.h"

#include "pages/scaling_build.h"

#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "kwb/case_size.h"
#include "kwb/shape.h"
#include "model/case_size.h"
#include "model/doc_queries.h"
#include "model/run_request.h"

namespace kwb::gui {
namespace {

constexpr int kMaxSizeTicks = 14;

// A thin line at `x` from the bottom of the plot to the top, named there.
void markShape(QCustomPlot* p, double x, const QString& name, const QColor& ink) {
  auto* line = new QCPItemLine(p);
  line->start->setTypeY(QCPItemPosition::ptAxisRectRatio);
  line->end->setTypeY(QCPItemPosition::ptAxisRectRatio);
  line->start->setCoords(x, 1.0);
  line->end->setCoords(x, 0.0);
  line->setPen(QPen(QColor(0x99, 0x99, 0x99), 1, Qt::DotLine));
  auto* t = new QCPItemText(p);
  t->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
  t->position->setCoords(x, 0.0);
  t->setPositionAlignment(Qt::AlignHCenter | Qt::AlignTop);
  t->setText(name);
  t->setFont(QFont(p->font().family(), 8));
  t->setColor(ink);
  t->setPadding(QMargins(2, 1, 2, 1));
  t->setBrush(ink.lightness() > 128 ? QColor(0x1e, 0x1f, 0x22, 200) : QColor(255, 255, 255, 200));
  t->setProperty("role", "shape");
}

}  // namespace

ScalingPage::ScalingPage(ResultsModel* model, QWidget* parent)
    : PlotPage(model, "Scaling", parent) {
  controls()->addWidget(new QLabel("x axis:"));
  m_view = new QComboBox(this);
  m_view->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_view->setMinimumContentsLength(16);
  controls()->addWidget(m_view);
  m_kernel = new QComboBox(this);
  m_kernel->setVisible(false);
  controls()->addWidget(m_kernel);
  connect(m_view, &QComboBox::activated, this, [this] { rebuildNow(); });
  connect(m_kernel, &QComboBox::activated, this, [this] { rebuildNow(); });
  m_logY = new QCheckBox("Logarithmic GFLOP/s", this);
  m_logY->setChecked(true);
  controls()->addWidget(m_logY);
  controls()->addStretch(1);
  connect(m_logY, &QCheckBox::toggled, this, [this] { rebuildNow(); });
  makeLogAxis(plot()->xAxis);
  setPlotTitle(plot(), "GFLOP/s against problem size");
  placeLegendOutside(plot());
}

QCPGraph* ScalingPage::lineOf(const QString& kernel, const QString& run) const {
  for (int i = 0; i < plot()->graphCount(); ++i) {
    QCPGraph* g = plot()->graph(i);
    if (g->property("series").toString() == kernel + run &&
        g->property("role").toString() == "line")
      return g;
  }
  return nullptr;
}

void ScalingPage::rebuild() {
  QCustomPlot* p = plot();
  p->clearPlottables();
  p->clearItems();
  removeHeatMap();
  const RunDocument& doc = model()->document();
  offerViews(doc);
  m_kernel->setVisible(view() == View::kHeatMap);
  if (view() == View::kHeatMap) {
    drawHeatMap(doc);
    return;
  }
  // The memory-bound families (every case's headline GB/s): GB/s against the element count,
  // the sizes that share the first case's other axes (its element type, ...) joined. A document of
  // both units keeps the GFLOP/s cases (one unit per axis).
  Build b{doc, memoryBoundDocument(doc)};
  b.view = b.vector ? View::kSize : view();
  b.unit = b.vector ? "GB/s" : "GFLOP/s";
  for (const auto& c : doc.cases)
    if (b.vector && b.lineType.empty()) b.lineType = lineKeyOf(c.size);
  m_logY->setText("Logarithmic " + b.unit);
  setPlotTitle(
      p,
      QString("%1 against problem size — median of %2, 95% CI bars").arg(b.unit, timerLabel(doc)));
  const char* sweepAxis[] = {"", "M", "N", "K"};
  p->xAxis->setLabel(
      b.vector    ? QString("size: elements (log₂), %1 joined").arg(b.lineTypeText())
      : b.sweep() ? QString("%1 (log), a line per kernel and fixed %2")
                        .arg(sweepAxis[int(b.view)], b.view == View::kM   ? "N×K"
                                                     : b.view == View::kN ? "M×K"
                                                                          : "M×N")
                  : QString("size: ∛(M·N·K); shapes that are not cubes named over the plot"));
  const bool logY = m_logY->isChecked();
  makeRateAxis(p->yAxis, logY, b.unit);
  const KernelLookup& cat = model()->catalog();
  auto add = [&](const RunDocument& d, const QString& id, const QString& run, Qt::PenStyle st) {
    if (b.sweep())
      addSweepSeries(b, d, id, run, st);
    else
      addSeries(b, d, id, run, st);
  };
  for (const QString& id : shownKernels(doc)) add(doc, id, QString(), Qt::SolidLine);
  auto addRun = [&](const RunDocument& d, const QString& run, Qt::PenStyle style) {
    for (const QString& id : kernelsOf(d, cat))
      if (model()->isShown(id)) add(d, id, run, style);
  };
  if (const auto& base = model()->baseline()) addRun(*base, " (baseline)", Qt::DashLine);
  const Qt::PenStyle styles[] = {Qt::DotLine, Qt::DashDotLine, Qt::DashDotDotLine};
  for (int i = 0; i < model()->overlays().size(); ++i) {
    const auto& o = model()->overlays()[i];
    addRun(o.doc, QString(" (%1)").arg(QFileInfo(o.source).fileName()), styles[i % 3]);
  }
  addMarkerKeys(b);
  if (b.sweepsLeftOut > 0)
    p->xAxis->setLabel(p->xAxis->label() +
                       QString("; %1 more sweeps not drawn (the %2 of each kernel with the most "
                               "sizes are)")
                           .arg(b.sweepsLeftOut)
                           .arg(kMaxSweepLines));
  setSizeTicks(b);
  p->legend->setVisible(p->graphCount() > 0);
  setRanges(b, logY);
}

void ScalingPage::addPoints(Build& b, QCPGraph* g, QList<const CaseResult*> points,
                            const QString& name) {
  QCustomPlot* p = plot();
  // In the graph's key order, so the i-th error bar is the i-th point's.
  std::stable_sort(points.begin(), points.end(), [&b](const CaseResult* x, const CaseResult* y) {
    return b.xOf(*x) < b.xOf(*y);
  });
  QVector<double> lo, hi;
  for (const CaseResult* c : points) {
    const double x = b.xOf(*c);
    const double v = headline(*b.of, *c);
    const Range ci = gflopsCi(*b.of, *c);
    g->addData(x, v);
    lo << v - ci.low;
    hi << ci.high - v;
    b.xMin = std::min(b.xMin, x), b.xMax = std::max(b.xMax, x);
    b.yMin = std::min(b.yMin, ci.low), b.yMax = std::max(b.yMax, ci.high);
    b.allSizes.insert(x);
    if (!b.vector && !b.sweep() && isGemm(c->size) && isCubic(c->shape()))
      b.cubicSizes.insert(c->shape().m);
    if (!b.vector && !b.sweep() && isGemm(c->size) && !isCubic(c->shape()))
      b.otherShapes.emplace(x, sizeName(c->size, false));
    if (b.vector && b.joined(*c)) b.cubicSizes.insert(std::llround(x));
    tooltips()->add(p->xAxis, p->yAxis, x, v,
                    QString("%1 at %2%3\n%4 %8 (95% CI %5–%6) · median %7 ms")
                        .arg(name, sizeName(*c), isFallback(*c) ? " — FP32 fallback" : "",
                             formatNumber(v, 6), formatNumber(ci.low, 5), formatNumber(ci.high, 5),
                             formatNumber(c->summary.median, 5), b.unit));
  }
  addErrorBars(g, lo, hi);
}

void ScalingPage::addSeries(Build& b, const RunDocument& d, const QString& id, const QString& run,
                            Qt::PenStyle style) {
  const bool baseline = !run.isEmpty();
  // Cubic shapes joined by size; the rest (and fallbacks) unjoined: a line through
  // 511×513×1025 between 512³ and 1024³ would draw a dip no kernel has.
  std::multimap<double, const CaseResult*> line;
  QList<const CaseResult*> other, fallback;
  b.of = &d;
  for (const auto& c : d.cases) {
    if (c.kernel != id.toStdString() || !hasSpeed(d, c) || memoryBound(d, c) != b.vector) continue;
    if (isFallback(c))
      fallback << &c;
    else if (b.joined(c))
      line.emplace(scalingValue(c.size), &c);
    else
      other << &c;
  }
  const QString name = shortLabel(model()->catalog().info(id)) + run;
  const QString series = id + run;
  const QColor col = kernelColor(id);
  QCPGraph* legendEntry = nullptr;
  if (!line.empty()) {
    QCPGraph* g = legendEntry = seriesGraph(series, "line", name);
    g->setPen(QPen(col, baseline ? 1.5 : 2, style));
    g->setScatterStyle(
        QCPScatterStyle(baseline ? QCPScatterStyle::ssCircle : QCPScatterStyle::ssDisc, 6));
    QList<const CaseResult*> points;
    for (const auto& [x, c] : line) points << c;
    addPoints(b, g, points, name);
  }
  if (!other.isEmpty()) {
    b.anyOther = true;
    addUnjoined(b, seriesGraph(series, "other", name), other, name,
                QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(col, 1.5), QBrush(Qt::white), 9),
                legendEntry);
  }
  if (!fallback.isEmpty()) {
    b.anyFallback = true;
    addUnjoined(b, seriesGraph(series, "fallback", name), fallback, name,
                QCPScatterStyle(QCPScatterStyle::ssSquare, QPen(col, 1.5),
                                QBrush(col, Qt::BDiagPattern), 9),
                legendEntry);
  }
}

QCPGraph* ScalingPage::seriesGraph(const QString& series, const QString& role,
                                   const QString& name) {
  QCPGraph* g = plot()->addGraph();
  g->setProperty("series", series);
  g->setProperty("role", role);
  g->setName(name);
  return g;
}

void ScalingPage::addUnjoined(Build& b, QCPGraph* g, const QList<const CaseResult*>& points,
                              const QString& name, const QCPScatterStyle& marker,
                              QCPGraph*& legendEntry) {
  g->setPen(marker.pen());
  g->setLineStyle(QCPGraph::lsNone);
  g->setScatterStyle(marker);
  addPoints(b, g, points, name);
  if (legendEntry)
    g->removeFromLegend();
  else
    legendEntry = g;
}

void ScalingPage::addMarkerKeys(const Build& b) {
  // Keys of the marker kinds, grey, last in the legend.
  auto keyEntry = [&](const QString& name, const QCPScatterStyle& style) {
    addMarkerGraph(plot(), name, style)->setPen(QPen(Qt::darkGray));
  };
  if (b.anyOther)
    keyEntry(
        b.vector ? QString("◇ not %1: not joined").arg(b.lineTypeText())
                 : "◇ not cubic: not joined",
        QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(Qt::darkGray, 1.5), QBrush(Qt::white), 9));
  if (b.anyFallback)
    keyEntry("▨ FP32 fallback", QCPScatterStyle(QCPScatterStyle::ssSquare, QPen(Qt::darkGray, 1.5),
                                                QBrush(Qt::darkGray, Qt::BDiagPattern), 9));
}

void ScalingPage::setSizeTicks(const Build& b) {
  QCustomPlot* p = plot();
  // Ticks at the sizes run: the cubic ones, else every size, unless there are too many.
  QList<QPair<double, QString>> ticks;
  for (std::int64_t n : b.cubicSizes)
    ticks << QPair<double, QString>{double(n), b.vector ? countText(n) : QString::number(n)};
  // Shapes that are not cubes at their ∛(M·N·K), named over the plot: never an unlabelled
  // point (as ticks, their long names would overprint the cubic sizes' beside them).
  // At most kMaxShapeNames of them, spread over the axis: a document of thousands of shapes
  // would otherwise lay out thousands of overprinting labels (the rest keep their tooltips).
  const std::size_t every = (b.otherShapes.size() + kMaxShapeNames - 1) / kMaxShapeNames;
  std::size_t i = 0;
  for (const auto& [x, name] : b.otherShapes)
    if (i++ % every == 0) markShape(p, x, name, ink());
  if (ticks.isEmpty())
    for (double x : b.allSizes)
      ticks << QPair<double, QString>{
          x, b.vector ? countText(std::llround(x)) : QString::number(std::lround(x))};
  ticks = thinLogTicks(ticks);
  if (!ticks.isEmpty() && ticks.size() <= kMaxSizeTicks)
    setTextTicks(p->xAxis, ticks);
  else
    makeLogAxis(p->xAxis);
  p->xAxis->setScaleType(QCPAxis::stLogarithmic);
}

void ScalingPage::setRanges(const Build& b, bool logY) {
  QCustomPlot* p = plot();
  if (b.xMax > 0) {
    // A count of 0 or 1 elements sits at 1 on the log axis.
    const double xMin = std::max(b.xMin, 1.0);
    p->xAxis->setRange(xMin / 1.25, b.xMax * 1.25);
    if (logY)
      p->yAxis->setRange(b.yMin / 2, b.yMax * 2);
    else
      p->yAxis->setRange(0, b.yMax * 1.1);
  } else {
    p->xAxis->setRange(100, 10000);
    p->yAxis->setRange(logY ? 1 : 0, 1000);
    showEmptyNote(p, emptyPlotReason(b.doc));
  }
  fitRateUnit(p->yAxis, b.unit);
}

}  // namespace kwb::gui
