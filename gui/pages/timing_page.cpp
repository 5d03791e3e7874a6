// SPDX-License-Identifier: Apache-2.0
#include "pages/timing_page.h"

#include <QLabel>
#include <algorithm>
#include <cmath>
#include <set>

#include "kwb/shape.h"
#include "model/case_size.h"
#include "model/doc_queries.h"
#include "model/run_request.h"
#include "plots/violin.h"

namespace kwb::gui {
namespace {

constexpr double kHalfWidth = 0.42;  // a violin's widest point either side of its column
const QColor kBaselineGrey(0x8c, 0x8c, 0x8c);

// A time on the page's scale: percent off `median` (this run's median of the kernel), or
// milliseconds as measured.
double onScale(double v, double median, bool relative) {
  return relative ? 100.0 * (v / median - 1.0) : v;
}

// The time axis of the violins and of the order strip (both y; the strip's title is short: its
// axis is shorter).
void makeTimeAxis(QCPAxis* axis, bool relative, bool strip) {
  if (relative) {
    makeLinearAxis(axis);
    axis->setLabel(strip ? "% off median" : "time vs median (%)");
  } else {
    makeLogAxis(axis);
    axis->setLabel(strip ? "ms (log)" : "ms per launch (log)");
  }
}

void styleBox(QCPStatisticalBox* box, const QColor& color, double width) {
  box->setPen(QPen(color.darker(170), 1.2));
  box->setMedianPen(QPen(Qt::white, 2.5));
  box->setBrush(color.darker(150));
  box->setWhiskerPen(QPen(color.darker(170), 1.2, Qt::SolidLine));
  box->setWhiskerBarPen(QPen(color.darker(170), 1.2));
  box->setOutlierStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, color.darker(170), 5));
  box->setWidth(width);
}

QString boxTip(const CaseResult& c, const QString& run) {
  const auto& s = c.summary;
  return QString(
             "%14%1 at %2%15\nmedian %3 ms (95%% CI %4–%5)\np5 %6 · p25 %7 · p75 %8 · p95 %9 ms\n"
             "min %10 · max %11 ms\n%12 samples · CV %13%")
      .arg(QString::fromStdString(c.kernel), sizeName(c), formatNumber(s.median, 5),
           formatNumber(s.ci95.low, 5), formatNumber(s.ci95.high, 5), formatNumber(s.p5, 5),
           formatNumber(s.p25, 5), formatNumber(s.p75, 5), formatNumber(s.p95, 5))
      .arg(formatNumber(s.min, 5), formatNumber(s.max, 5))
      .arg(c.samplesMs.size())
      .arg(s.cv * 100, 0, 'f', 2)
      .arg(run, isFallback(c) ? " — FP32 fallback" : "");
}

// The violins' axis from the p5 and p95 they reach (`lo`, `hi`; none when there are no cases).
std::pair<double, double> boxRange(double lo, double hi, bool any, bool relative) {
  if (!any) return {relative ? -1 : 0.01, 1};
  if (relative) {
    // Room for the p5–p95 whiskers of every kernel; min and max beyond it are marked at the edge.
    const double pad = std::max(0.5, (hi - lo) * 0.2);
    return {lo - pad, hi + pad};
  }
  return {lo / 1.5, hi * 1.5};
}

QVector<double> onScale(const CaseResult& c, double median, bool relative) {
  QVector<double> out;
  out.reserve(qsizetype(c.samplesMs.size()));
  for (double v : c.samplesMs) out << onScale(v, median, relative);
  return out;
}

}  // namespace

// What one rebuild draws: this run's cases at the shape, the baseline's same cases (null where
// it has none), the scale and the range of the time axis.
struct TimingPage::Build {
  QList<const CaseResult*> cases;
  QList<const CaseResult*> base;
  bool relative = true;
  double yMin = 0, yMax = 1;
  bool anyBaseline() const {
    return std::any_of(base.begin(), base.end(), [](auto* c) { return c; });
  }
  bool anyFallback() const {
    return std::any_of(cases.begin(), cases.end(), [](auto* c) { return isFallback(*c); });
  }
  double median(int i) const { return cases[i]->summary.median; }
};

TimingPage::TimingPage(ResultsModel* model, QWidget* parent) : PlotPage(model, "Timing", parent) {
  controls()->addWidget(new QLabel("Shape:"));
  m_shape = new ShapeCombo(this);
  controls()->addWidget(m_shape);
  controls()->addWidget(new QLabel("Scale:"));
  m_scale = new QComboBox(this);
  m_scale->addItems({"relative to each kernel's median", "milliseconds (log)"});
  controls()->addWidget(m_scale);
  controls()->addStretch(1);
  connect(m_shape, &QComboBox::currentIndexChanged, this, [this] { rebuildNow(); });
  connect(m_scale, &QComboBox::currentIndexChanged, this, [this] { rebuildNow(); });

  QCustomPlot* p = plot();
  setPlotTitle(p, "Time per launch");
  // Below the violins, the samples in order: the same columns and the same time axis.
  m_orderRect = new QCPAxisRect(p);
  p->plotLayout()->addElement(2, 0, m_orderRect);
  m_key = new QCPTextElement(p, "", QFont(p->font().family(), 9));
  p->plotLayout()->addElement(3, 0, m_key);
  p->plotLayout()->setRowStretchFactor(1, 1.6);
  p->plotLayout()->setRowStretchFactor(2, 0.8);
  p->plotLayout()->setRowStretchFactor(3, 0.01);
  auto* margins = new QCPMarginGroup(p);
  p->axisRect()->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
  m_orderRect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
  m_orderRect->setRangeDrag(Qt::Horizontal | Qt::Vertical);
  m_orderRect->setRangeZoom(Qt::Horizontal | Qt::Vertical);
  // The columns are named on the axis: no legend to cover a violin or run off the page.
  p->legend->setVisible(false);
}

void TimingPage::selectCase(const QString&, const CaseSize& shape) {
  m_shape->selectShape(shape);
  rebuildNow();
}

void TimingPage::rebuild() {
  QCustomPlot* p = plot();
  p->clearPlottables();
  p->clearItems();
  m_boxes.clear();
  m_violins.clear();
  m_baselineViolins.clear();
  m_strips.clear();
  const RunDocument& doc = model()->document();
  m_shape->setShapes(sizesOf(doc));
  const auto shape = m_shape->currentShape();
  Build b;
  b.relative = scale() == Scale::kRelative;
  const auto& baseline = model()->baseline();
  if (shape)
    for (const QString& id : shownKernels(doc))
      if (const CaseResult* c = doc.find(id.toStdString(), *shape); c && hasSpeed(doc, *c)) {
        b.cases << c;
        const CaseResult* bc = baseline ? baseline->find(id.toStdString(), *shape) : nullptr;
        b.base << (bc && hasSpeed(*baseline, *bc) ? bc : nullptr);
      }
  setPlotTitle(
      p, shape ? QString("Time per launch at %1 — %2").arg(sizeName(*shape, false), timerLabel(doc))
               : QString("Time per launch (no timed cases)"));
  setKey(b);
  p->legend->setVisible(false);
  makeTimeAxis(p->yAxis, b.relative, false);
  makeTimeAxis(m_orderRect->axis(QCPAxis::atLeft), b.relative, true);
  addColumns(b);
  if (b.relative) markExtremesOffAxis(b);
  for (int i = 0; i < b.cases.size(); ++i) addOrderStrip(b, i);
  if (b.cases.isEmpty()) showEmptyNote(p, emptyPlotReason(doc));
}

void TimingPage::setKey(const Build& b) {
  m_key->setTextColor(ink());
  QString key;
  if (!b.cases.isEmpty())
    key = QString(
              "Violin: density of the kernel's samples · box: p25–p75, line at the median · "
              "whiskers: p5–p95 · dots: min and max\nbelow each name: its median%1%2\n"
              "lower plot: every sample in the order taken, left to right in its kernel's "
              "column (a slope is drift; a step, throttling or a clock change)")
              .arg(b.anyBaseline() ? " · grey left half: the baseline's samples" : "",
                   b.anyFallback() ? " · hatched: FP32 fallback" : "");
  m_key->setText(key);
}

void TimingPage::addColumns(Build& b) {
  QCPAxis* bx = plot()->xAxis;
  QCPAxis* by = plot()->yAxis;
  const KernelLookup& cat = model()->catalog();
  QList<QPair<double, QString>> ticks;
  double lo = 1e300, hi = -1e300;
  for (int i = 0; i < b.cases.size(); ++i) {
    for (const CaseResult* c : {b.cases[i], b.base[i]}) {
      if (!c) continue;
      lo = std::min(lo, onScale(c->summary.p5, b.median(i), b.relative));
      hi = std::max(hi, onScale(c->summary.p95, b.median(i), b.relative));
    }
  }
  std::tie(b.yMin, b.yMax) = boxRange(lo, hi, !b.cases.isEmpty(), b.relative);
  by->setRange(b.yMin, b.yMax);
  for (int i = 0; i < b.cases.size(); ++i) {
    const CaseResult& c = *b.cases[i];
    const auto& s = c.summary;
    const double x = i + 1, m = s.median;
    auto rel = [&](double v) { return onScale(v, m, b.relative); };
    const QString id = QString::fromStdString(c.kernel);
    addViolins(b, i);
    // Beside a baseline's half the box moves into this run's half.
    const double bxPos = b.base[i] ? x + 0.14 : x;
    auto* box = new QCPStatisticalBox(bx, by);
    box->setProperty("series", id);
    box->setName(shortLabel(cat.info(id)));
    box->removeFromLegend();
    styleBox(box, kernelColor(id), b.base[i] ? 0.1 : 0.14);
    box->addData(bxPos, rel(s.p5), rel(s.p25), rel(s.median), rel(s.p75), rel(s.p95),
                 QVector<double>{rel(s.min), rel(s.max)});
    m_boxes << box;
    ticks << QPair<double, QString>{x, QString("%1\n%2 ms%3")
                                           .arg(shortLabel(cat.info(id)), formatNumber(m, 3),
                                                isFallback(c) ? "\n→ FP32 fallback" : "")};
    tooltips()->add(bx, by, bxPos, rel(s.median), boxTip(c, ""));
  }
  setCategoryTicks(bx, ticks);
  bx->setLabel("");
  bx->setRange(0.4, double(b.cases.size()) + 0.6);
}

void TimingPage::addViolins(const Build& b, int i) {
  QCPAxis* bx = plot()->xAxis;
  QCPAxis* by = plot()->yAxis;
  const CaseResult& c = *b.cases[i];
  const QString id = QString::fromStdString(c.kernel);
  const double x = i + 1;
  const bool log = !b.relative;
  const double lo = b.yMin, hi = b.yMax;
  const CaseResult* base = b.base[i];
  QCPCurve* v = addViolin(bx, by, violinShape(onScale(c, b.median(i), b.relative), lo, hi, log), x,
                          kHalfWidth, base ? ViolinSide::kRight : ViolinSide::kBoth);
  const QColor color = kernelColor(id);
  QColor fill = color;
  fill.setAlpha(110);
  v->setPen(QPen(color.darker(130), 1.2));
  v->setBrush(isFallback(c) ? QBrush(color.darker(120), Qt::BDiagPattern) : QBrush(fill));
  v->setProperty("series", id);
  v->setName(shortLabel(model()->catalog().info(id)));
  v->removeFromLegend();
  m_violins << v;
  if (!base) return;
  QCPCurve* bv =
      addViolin(bx, by, violinShape(onScale(*base, b.median(i), b.relative), lo, hi, log), x,
                kHalfWidth, ViolinSide::kLeft);
  QColor grey = kBaselineGrey;
  grey.setAlpha(120);
  bv->setPen(QPen(kBaselineGrey.darker(140), 1.2));
  bv->setBrush(grey);
  bv->setProperty("series", id);
  bv->setName(shortLabel(model()->catalog().info(id)) + " (baseline)");
  bv->removeFromLegend();
  m_baselineViolins << bv;
  const double bm = onScale(base->summary.median, b.median(i), b.relative);
  // The baseline's median: a tick across its half.
  auto* line = new QCPItemLine(plot());
  line->start->setCoords(x - kHalfWidth * 0.8, bm);
  line->end->setCoords(x, bm);
  line->setPen(QPen(kBaselineGrey.darker(200), 2));
  tooltips()->add(bx, by, x - 0.2, bm, boxTip(*base, "baseline: "));
}

void TimingPage::markExtremesOffAxis(const Build& b) {
  QCustomPlot* p = plot();
  for (int i = 0; i < b.cases.size(); ++i) {
    const auto& s = b.cases[i]->summary;
    for (const double v : {s.min, s.max}) {
      const double r = onScale(v, s.median, true);
      if (r >= b.yMin && r <= b.yMax) continue;
      auto* t = new QCPItemText(p);
      t->position->setTypeX(QCPItemPosition::ptPlotCoords);
      t->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
      t->position->setCoords(i + 1, r > b.yMax ? 0.0 : 1.0);
      t->setPositionAlignment(Qt::AlignHCenter | (r > b.yMax ? Qt::AlignTop : Qt::AlignBottom));
      // Two short lines: no wider than a column at 1280×720, clear of the neighbours' marks.
      t->setText(QString("%1\n%2%3%")
                     .arg(r > b.yMax ? "▲ max" : "▼ min", r > 0 ? "+" : "", formatNumber(r, 3)));
      t->setTextAlignment(Qt::AlignHCenter);
      t->setFont(QFont(p->font().family(), 8));
      t->setColor(ink());
    }
  }
}

void TimingPage::addOrderStrip(const Build& b, int i) {
  QCPAxis* ox = m_orderRect->axis(QCPAxis::atBottom);
  QCPAxis* oy = m_orderRect->axis(QCPAxis::atLeft);
  const CaseResult& c = *b.cases[i];
  const QString id = QString::fromStdString(c.kernel);
  const QVector<double> y = onScale(c, b.median(i), b.relative);
  const int n = int(y.size());
  QVector<double> x(n);
  int beyond = 0;
  for (int j = 0; j < n; ++j) {
    x[j] = n > 1 ? i + 1 - kHalfWidth + 2 * kHalfWidth * j / double(n - 1) : i + 1;
    beyond += y[j] < b.yMin || y[j] > b.yMax;
  }
  auto* g = new QCPGraph(ox, oy);
  g->setProperty("series", id);
  g->setName(shortLabel(model()->catalog().info(id)));
  g->removeFromLegend();
  g->setLineStyle(QCPGraph::lsNone);
  QColor dot = kernelColor(id).darker(120);
  dot.setAlpha(170);
  g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, dot, n > 400 ? 2 : 3));
  g->setData(x, y, true);
  m_strips << g;
  const std::set<int> rounds(c.sampleRounds.begin(), c.sampleRounds.end());
  tooltips()->add(
      ox, oy, i + 1, onScale(c.summary.median, b.median(i), b.relative),
      QString("%1: %2 samples in the order taken, in %3 round(s)%4%5")
          .arg(id)
          .arg(n)
          .arg(std::max<std::size_t>(1, rounds.size()))
          .arg(beyond ? QString("; %1 beyond the axis").arg(beyond) : QString())
          .arg(c.throttledSamples
                   ? QString("; %1 dropped while the SM clock sagged").arg(c.throttledSamples)
                   : QString()));
  if (i + 1 < b.cases.size()) return;
  // The last column: the strip's axes. Column edges as grid lines, no labels (the names are
  // above), the same time range as the violins.
  QList<QPair<double, QString>> edges;
  for (int k = 0; k <= b.cases.size(); ++k) edges << QPair<double, QString>{k + 0.5, ""};
  setTextTicks(ox, edges);
  ox->setLabel("each kernel's samples, in the order taken →");
  ox->setRange(0.4, double(b.cases.size()) + 0.6);
  oy->setRange(b.yMin, b.yMax);
}

}  // namespace kwb::gui
