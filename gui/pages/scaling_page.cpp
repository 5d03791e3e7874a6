#include "pages/scaling_page.h"

#include <QFileInfo>
#include <QLocale>
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "kwb/shape.h"
#include "model/case_size.h"
#include "model/doc_queries.h"
#include "model/run_request.h"

namespace kwb::gui {
namespace {

bool isCubic(const Shape& s) { return s.m == s.n && s.n == s.k; }

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

void ScalingPage::rebuild() {
  QCustomPlot* p = plot();
  p->clearPlottables();
  p->clearItems();
  const RunDocument& doc = model()->document();
  // The memory-bound families (every case 1-D): GB/s against the element count, the sizes of
  // the first element type joined. A GEMM document leaves its 1-D cases out (another unit).
  const bool vector = memoryBoundDocument(doc);
  const QString unit = vector ? "GB/s" : "GFLOP/s";
  std::string lineType;
  for (const auto& c : doc.cases)
    if (vector && lineType.empty()) lineType = c.elementType;
  const QString lineTypeText = lineType.empty() ? "f32" : QString::fromStdString(lineType);
  m_logY->setText("Logarithmic " + unit);
  setPlotTitle(
      p, QString("%1 against problem size — median of %2, 95% CI bars").arg(unit, timerLabel(doc)));
  p->xAxis->setLabel(vector ? QString("size: elements (log₂), %1 joined").arg(lineTypeText)
                            : QString("size: ∛(M·N·K), ticks at the cubic sizes run"));
  const bool logY = m_logY->isChecked();
  makeRateAxis(p->yAxis, logY, unit);
  auto joined = [&](const CaseResult& c) {
    return vector ? c.elementType == lineType : isCubic(c.shape);
  };
  const KernelLookup& cat = model()->catalog();
  double xMin = 1e300, xMax = 0, yMin = 1e300, yMax = 0;
  bool anyOther = false, anyFallback = false;
  std::set<std::int64_t> cubicSizes;  // or, for 1-D cases, the joined counts
  std::set<double> allSizes;
  auto addPoints = [&](QCPGraph* g, QList<const CaseResult*> points, const QString& name) {
    // In the graph's key order, so the i-th error bar is the i-th point's.
    std::stable_sort(points.begin(), points.end(), [](const CaseResult* a, const CaseResult* b) {
      return sizeAxisValue(sizeKey(*a)) < sizeAxisValue(sizeKey(*b));
    });
    QVector<double> lo, hi;
    for (const CaseResult* c : points) {
      const double x = sizeAxisValue(sizeKey(*c));
      const double v = headline(*c);
      const Range ci = gflopsCi(*c);
      g->addData(x, v);
      lo << v - ci.low;
      hi << ci.high - v;
      xMin = std::min(xMin, x), xMax = std::max(xMax, x);
      yMin = std::min(yMin, ci.low), yMax = std::max(yMax, ci.high);
      allSizes.insert(x);
      if (!vector && isCubic(c->shape)) cubicSizes.insert(c->shape.m);
      if (vector && joined(*c)) cubicSizes.insert(c->count);
      tooltips()->add(p->xAxis, p->yAxis, x, v,
                      QString("%1 at %2%3\n%4 %8 (95% CI %5–%6) · median %7 ms")
                          .arg(name, sizeText(*c), isFallback(*c) ? " — FP32 fallback" : "",
                               formatNumber(v, 6), formatNumber(ci.low, 5),
                               formatNumber(ci.high, 5), formatNumber(c->summary.median, 5), unit));
    }
    auto* err = new QCPErrorBars(p->xAxis, p->yAxis);
    err->setDataPlottable(g);
    err->setData(lo, hi);
    err->setPen(QPen(g->pen().color(), 1));
    err->setWhiskerWidth(5);
    err->removeFromLegend();
    err->setProperty("series", g->property("series"));
  };
  // `run`: empty for this run, " (baseline)" or " (file.json)" for the runs compared with it.
  auto addSeries = [&](const RunDocument& d, const QString& id, int color, const QString& run,
                       Qt::PenStyle style) {
    const bool baseline = !run.isEmpty();
    // Cubic shapes joined by size; the rest (and fallbacks) unjoined: a line through
    // 511×513×1025 between 512³ and 1024³ would draw a dip no kernel has.
    std::multimap<double, const CaseResult*> line;
    QList<const CaseResult*> other, fallback;
    for (const auto& c : d.cases) {
      if (c.kernel != id.toStdString() || !hasSpeed(c) || isVectorCase(c) != vector) continue;
      if (isFallback(c))
        fallback << &c;
      else if (joined(c))
        line.emplace(sizeAxisValue(sizeKey(c)), &c);
      else
        other << &c;
    }
    const QString name = shortLabel(cat.info(id));
    const QString series = id + run;
    const QColor col = kernelColor(color);
    auto graph = [&](const QString& role) {
      QCPGraph* g = p->addGraph();
      g->setProperty("series", series);
      g->setProperty("role", role);
      g->setName(name + run);
      return g;
    };
    QCPGraph* legendEntry = nullptr;
    if (!line.empty()) {
      QCPGraph* g = legendEntry = graph("line");
      g->setPen(QPen(col, baseline ? 1.5 : 2, style));
      g->setScatterStyle(
          QCPScatterStyle(baseline ? QCPScatterStyle::ssCircle : QCPScatterStyle::ssDisc, 6));
      QList<const CaseResult*> points;
      for (const auto& [x, c] : line) points << c;
      addPoints(g, points, name + run);
    }
    if (!other.isEmpty()) {
      anyOther = true;
      QCPGraph* g = graph("other");
      g->setPen(QPen(col, 1.5));
      g->setLineStyle(QCPGraph::lsNone);
      g->setScatterStyle(
          QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(col, 1.5), QBrush(Qt::white), 9));
      addPoints(g, other, name + run);
      if (legendEntry)
        g->removeFromLegend();
      else
        legendEntry = g;
    }
    if (!fallback.isEmpty()) {
      anyFallback = true;
      QCPGraph* g = graph("fallback");
      g->setPen(QPen(col, 1.5));
      g->setLineStyle(QCPGraph::lsNone);
      g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, QPen(col, 1.5),
                                         QBrush(col, Qt::BDiagPattern), 9));
      addPoints(g, fallback, name + run);
      if (legendEntry)
        g->removeFromLegend();
      else
        legendEntry = g;
    }
  };
  const QList<QString> all = kernelsOf(doc, cat);
  for (const QString& id : shownKernels(doc))
    addSeries(doc, id, int(all.indexOf(id)), QString(), Qt::SolidLine);
  auto addRun = [&](const RunDocument& d, const QString& run, Qt::PenStyle style) {
    for (const QString& id : kernelsOf(d, cat))
      if (model()->isShown(id))
        addSeries(d, id, all.contains(id) ? int(all.indexOf(id)) : int(all.size()), run, style);
  };
  if (const auto& b = model()->baseline()) addRun(*b, " (baseline)", Qt::DashLine);
  const Qt::PenStyle styles[] = {Qt::DotLine, Qt::DashDotLine, Qt::DashDotDotLine};
  for (int i = 0; i < model()->overlays().size(); ++i) {
    const auto& o = model()->overlays()[i];
    addRun(o.doc, QString(" (%1)").arg(QFileInfo(o.source).fileName()), styles[i % 3]);
  }
  // Keys of the marker kinds, grey, last in the legend.
  auto keyEntry = [&](const QString& name, const QCPScatterStyle& style) {
    QCPGraph* g = p->addGraph();
    g->setName(name);
    g->setLineStyle(QCPGraph::lsNone);
    g->setScatterStyle(style);
    g->setPen(QPen(Qt::darkGray));
  };
  if (anyOther)
    keyEntry(
        vector ? QString("◇ not %1: not joined").arg(lineTypeText) : "◇ not cubic: not joined",
        QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(Qt::darkGray, 1.5), QBrush(Qt::white), 9));
  if (anyFallback)
    keyEntry("▨ FP32 fallback", QCPScatterStyle(QCPScatterStyle::ssSquare, QPen(Qt::darkGray, 1.5),
                                                QBrush(Qt::darkGray, Qt::BDiagPattern), 9));
  // Ticks at the sizes run: the cubic ones, else every size, unless there are too many.
  QList<QPair<double, QString>> ticks;
  for (std::int64_t n : cubicSizes)
    ticks << QPair<double, QString>{double(n), vector ? countText(n) : QString::number(n)};
  if (ticks.isEmpty())
    for (double x : allSizes)
      ticks << QPair<double, QString>{
          x, vector ? countText(std::llround(x)) : QString::number(std::lround(x))};
  ticks = thinLogTicks(ticks);
  if (!ticks.isEmpty() && ticks.size() <= kMaxSizeTicks)
    setTextTicks(p->xAxis, ticks);
  else
    makeLogAxis(p->xAxis);
  p->xAxis->setScaleType(QCPAxis::stLogarithmic);
  p->legend->setVisible(p->graphCount() > 0);
  if (xMax > 0) {
    // A count of 0 or 1 elements sits at 1 on the log axis.
    xMin = std::max(xMin, 1.0);
    p->xAxis->setRange(xMin / 1.25, xMax * 1.25);
    if (logY)
      p->yAxis->setRange(yMin / 2, yMax * 2);
    else
      p->yAxis->setRange(0, yMax * 1.1);
  } else {
    p->xAxis->setRange(100, 10000);
    p->yAxis->setRange(logY ? 1 : 0, 1000);
    showEmptyNote(p, emptyPlotReason(doc));
  }
}

}  // namespace kwb::gui
