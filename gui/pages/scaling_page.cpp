// SPDX-License-Identifier: Apache-2.0
#include "pages/scaling_page.h"

#include <QFileInfo>
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

bool isCubic(const Shape& s) { return s.m == s.n && s.n == s.k; }

// What the cases of one line of a memory-bound plot share: the size without its extents (the
// unit-less numbers), "f32" for a reduce, "u8 256 bins uniform" for a histogram. A line through
// sizes that differ in another axis would draw a change of count that is not one.
std::string lineKeyOf(const CaseSize& s) {
  CaseSize key{s.family, {}};
  for (const SizeAxis& a : s.axes)
    if (!a.isNumber() || !a.unit.empty()) key.axes.push_back(a);
  return sizeLabel(key);
}

constexpr int kMaxSizeTicks = 14;

}  // namespace

ScalingPage::ScalingPage(ResultsModel* model, QWidget* parent)
    : PlotPage(model, "Scaling", parent) {
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

// What one rebuild carries from series to series: the unit, which cases a line joins, and the
// sizes and rates its points reach.
struct ScalingPage::Build {
  const RunDocument& doc;
  bool vector;                   // every case of a memory-bound family: GB/s against the size
  const RunDocument* of = &doc;  // the document of the series being added (a baseline, …)
  std::string lineType{};
  QString unit{};
  double xMin = 1e300, xMax = 0, yMin = 1e300, yMax = 0;
  bool anyOther = false, anyFallback = false;
  std::set<std::int64_t> cubicSizes{};  // or, for 1-D cases, the joined counts
  std::set<double> allSizes{};
  bool joined(const CaseResult& c) const {
    return vector ? lineKeyOf(c.size) == lineType : isCubic(c.shape());
  }
  QString lineTypeText() const {
    return lineType.empty() ? "f32" : QString::fromStdString(lineType);
  }
};

void ScalingPage::rebuild() {
  QCustomPlot* p = plot();
  p->clearPlottables();
  p->clearItems();
  const RunDocument& doc = model()->document();
  // The memory-bound families (every case's headline GB/s): GB/s against the element count,
  // the sizes that share the first case's other axes (its element type, ...) joined. A document of
  // both units keeps the GFLOP/s cases (one unit per axis).
  Build b{doc, memoryBoundDocument(doc)};
  b.unit = b.vector ? "GB/s" : "GFLOP/s";
  for (const auto& c : doc.cases)
    if (b.vector && b.lineType.empty()) b.lineType = lineKeyOf(c.size);
  m_logY->setText("Logarithmic " + b.unit);
  setPlotTitle(
      p,
      QString("%1 against problem size — median of %2, 95% CI bars").arg(b.unit, timerLabel(doc)));
  p->xAxis->setLabel(b.vector ? QString("size: elements (log₂), %1 joined").arg(b.lineTypeText())
                              : QString("size: ∛(M·N·K), ticks at the cubic sizes run"));
  const bool logY = m_logY->isChecked();
  makeRateAxis(p->yAxis, logY, b.unit);
  const KernelLookup& cat = model()->catalog();
  for (const QString& id : shownKernels(doc)) addSeries(b, doc, id, QString(), Qt::SolidLine);
  auto addRun = [&](const RunDocument& d, const QString& run, Qt::PenStyle style) {
    for (const QString& id : kernelsOf(d, cat))
      if (model()->isShown(id)) addSeries(b, d, id, run, style);
  };
  if (const auto& base = model()->baseline()) addRun(*base, " (baseline)", Qt::DashLine);
  const Qt::PenStyle styles[] = {Qt::DotLine, Qt::DashDotLine, Qt::DashDotDotLine};
  for (int i = 0; i < model()->overlays().size(); ++i) {
    const auto& o = model()->overlays()[i];
    addRun(o.doc, QString(" (%1)").arg(QFileInfo(o.source).fileName()), styles[i % 3]);
  }
  addMarkerKeys(b);
  setSizeTicks(b);
  p->legend->setVisible(p->graphCount() > 0);
  setRanges(b, logY);
}

void ScalingPage::addPoints(Build& b, QCPGraph* g, QList<const CaseResult*> points,
                            const QString& name) {
  QCustomPlot* p = plot();
  // In the graph's key order, so the i-th error bar is the i-th point's.
  std::stable_sort(points.begin(), points.end(), [](const CaseResult* x, const CaseResult* y) {
    return scalingValue(x->size) < scalingValue(y->size);
  });
  QVector<double> lo, hi;
  for (const CaseResult* c : points) {
    const double x = scalingValue(c->size);
    const double v = headline(*b.of, *c);
    const Range ci = gflopsCi(*b.of, *c);
    g->addData(x, v);
    lo << v - ci.low;
    hi << ci.high - v;
    b.xMin = std::min(b.xMin, x), b.xMax = std::max(b.xMax, x);
    b.yMin = std::min(b.yMin, ci.low), b.yMax = std::max(b.yMax, ci.high);
    b.allSizes.insert(x);
    if (!b.vector && isGemm(c->size) && isCubic(c->shape())) b.cubicSizes.insert(c->shape().m);
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
