// SPDX-License-Identifier: Apache-2.0
#include "pages/timing_page.h"

#include <QLabel>
#include <algorithm>
#include <cmath>

#include "kwb/shape.h"
#include "model/case_size.h"
#include "model/doc_queries.h"
#include "model/run_request.h"

namespace kwb::gui {
namespace {

constexpr int kBins = 40;

// A time on the page's scale: percent off its kernel's median, or milliseconds as measured.
double onScale(double v, double median, bool relative) {
  return relative ? 100.0 * (v / median - 1.0) : v;
}

// The time axis of the boxes (y) and of the histograms (x).
void makeTimeAxis(QCPAxis* axis, bool relative) {
  if (relative) {
    makeLinearAxis(axis);
    axis->setLabel("time relative to median (%)");
  } else {
    makeLogAxis(axis);
    axis->setLabel("ms per launch (log)");
  }
}

void styleBox(QCPStatisticalBox* box, const QColor& color) {
  box->setPen(QPen(color.darker(140), 1.2));
  box->setMedianPen(QPen(color.darker(170), 2.5));
  QColor fill = color;
  fill.setAlpha(90);
  box->setBrush(fill);
  box->setWhiskerPen(QPen(color.darker(140), 1.2, Qt::SolidLine));
  box->setWhiskerBarPen(QPen(color.darker(140), 1.2));
  box->setOutlierStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, color.darker(140), 5));
  box->setWidth(0.55);
}

QString boxTip(const CaseResult& c) {
  const auto& s = c.summary;
  return QString(
             "%1 at %2\nmedian %3 ms (95%% CI %4–%5)\np5 %6 · p25 %7 · p75 %8 · p95 %9 ms\n"
             "min %10 · max %11 ms\n%12 samples · CV %13%")
      .arg(QString::fromStdString(c.kernel), sizeName(c), formatNumber(s.median, 5),
           formatNumber(s.ci95.low, 5), formatNumber(s.ci95.high, 5), formatNumber(s.p5, 5),
           formatNumber(s.p25, 5), formatNumber(s.p75, 5), formatNumber(s.p95, 5))
      .arg(formatNumber(s.min, 5), formatNumber(s.max, 5))
      .arg(c.samplesMs.size())
      .arg(s.cv * 100, 0, 'f', 2);
}

// The boxes' axis from the p5 and p95 they reach (`lo`, `hi`; none when there are no cases).
std::pair<double, double> boxRange(double lo, double hi, bool any, bool relative) {
  if (!any) return {relative ? -1 : 0.01, 1};
  if (relative) {
    // Room for the p5–p95 whiskers of every kernel; min and max beyond it are marked at the edge.
    const double pad = std::max(0.5, (hi - lo) * 0.2);
    return {lo - pad, hi + pad};
  }
  return {lo / 1.5, hi * 1.5};
}

}  // namespace

// The histograms' kBins bins over [lo, hi) of the time axis: even steps relative to the median,
// even ratios in milliseconds (a log axis).
struct TimingPage::Bins {
  double lo, hi;
  bool relative;
  int of(double v) const {
    const double t = relative ? (v - lo) / (hi - lo) : std::log(v / lo) / std::log(hi / lo);
    return int(std::floor(t * kBins));
  }
  double edge(double b) const {
    return relative ? lo + (hi - lo) * b / kBins : lo * std::pow(hi / lo, b / kBins);
  }
  double center(int b) const {
    return relative ? (edge(b) + edge(b + 1)) / 2 : std::sqrt(edge(b) * edge(b + 1));
  }
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
  m_histRect = new QCPAxisRect(p);
  // The histograms and, beside them, their legend: over no bar, and in columns of six entries
  // so that twelve kernels fit the row's height at 1280×720.
  auto* histRow = new QCPLayoutGrid;
  p->plotLayout()->addElement(2, 0, histRow);
  histRow->addElement(0, 0, m_histRect);
  m_key = new QCPTextElement(p, "", QFont(p->font().family(), 9));
  m_key->setTextColor(QColor(0x44, 0x44, 0x44));
  p->plotLayout()->addElement(3, 0, m_key);
  p->plotLayout()->setRowStretchFactor(1, 1.3);
  p->plotLayout()->setRowStretchFactor(2, 1);
  p->plotLayout()->setRowStretchFactor(3, 0.01);
  // Both plots share their left margin, so their value axes line up.
  auto* margins = new QCPMarginGroup(p);
  p->axisRect()->setMarginGroup(QCP::msLeft, margins);
  m_histRect->setMarginGroup(QCP::msLeft, margins);
  m_histRect->setRangeDrag(Qt::Horizontal | Qt::Vertical);
  m_histRect->setRangeZoom(Qt::Horizontal | Qt::Vertical);
  // The legend names the histograms: it sits beside their plot.
  p->axisRect()->insetLayout()->take(p->legend);
  auto* column = new QCPLayoutGrid;
  histRow->addElement(0, 1, column);
  column->addElement(0, 0, p->legend);
  column->addElement(1, 0, new QCPLayoutElement(p));
  column->setRowStretchFactor(0, 0.001);
  column->setRowStretchFactor(1, 1);
  column->setAutoMargins(QCP::msNone);
  column->setMargins(QMargins(4, 8, 8, 0));
  histRow->setColumnStretchFactor(1, 0.001);
  p->legend->setFillOrder(QCPLegend::foRowsFirst);
  p->legend->setWrap(6);
  p->legend->setLayer("legend");
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
  m_histograms.clear();
  const RunDocument& doc = model()->document();
  m_shape->setShapes(sizesOf(doc));
  const auto shape = m_shape->currentShape();
  const bool relative = scale() == Scale::kRelative;
  QList<const CaseResult*> cases;
  if (shape)
    for (const QString& id : shownKernels(doc))
      if (const CaseResult* c = doc.find(id.toStdString(), *shape); c && hasSpeed(doc, *c))
        cases << c;

  setPlotTitle(
      p, shape ? QString("Time per launch at %1 — %2").arg(sizeName(*shape, false), timerLabel(doc))
               : QString("Time per launch (no timed cases)"));
  m_key->setTextColor(ink());
  m_key->setText(cases.isEmpty()
                     ? QString()
                     : QString("Box: p25–p75, line at the median · whiskers: p5–p95 · dots: min "
                               "and max · below each name: its median\nhistograms: percent of "
                               "each kernel's samples per bin"));
  p->xAxis->setLabel("");
  makeTimeAxis(p->yAxis, relative);
  const auto [lo, hi] = addBoxes(cases, relative);
  const auto [yMin, yMax] = boxRange(lo, hi, !cases.isEmpty(), relative);
  p->yAxis->setRange(yMin, yMax);
  if (relative) markExtremesOffAxis(cases, yMin, yMax);

  // Histograms of every kernel, overlaid, over the same scale as the boxes.
  addHistograms(cases, Bins{yMin, yMax, relative});
  p->legend->setVisible(!cases.isEmpty());
  if (cases.isEmpty()) showEmptyNote(p, emptyPlotReason(doc));
}

std::pair<double, double> TimingPage::addBoxes(const QList<const CaseResult*>& cases,
                                               bool relative) {
  QCPAxis* bx = plot()->xAxis;
  QCPAxis* by = plot()->yAxis;
  const KernelLookup& cat = model()->catalog();
  QList<QPair<double, QString>> ticks;
  double yMin = 1e300, yMax = -1e300;
  for (int i = 0; i < cases.size(); ++i) {
    const CaseResult& c = *cases[i];
    const auto& s = c.summary;
    const double x = i + 1, m = s.median;
    auto rel = [&](double v) { return onScale(v, m, relative); };
    const QString id = QString::fromStdString(c.kernel);
    auto* box = new QCPStatisticalBox(bx, by);
    box->setProperty("series", id);
    box->setName(shortLabel(cat.info(id)));
    box->removeFromLegend();
    styleBox(box, kernelColor(id));
    box->addData(x, rel(s.p5), rel(s.p25), rel(s.median), rel(s.p75), rel(s.p95),
                 QVector<double>{rel(s.min), rel(s.max)});
    m_boxes << box;
    ticks << QPair<double, QString>{
        x, QString("%1\n%2 ms").arg(shortLabel(cat.info(id)), formatNumber(s.median, 3))};
    yMin = std::min(yMin, rel(s.p5)), yMax = std::max(yMax, rel(s.p95));
    tooltips()->add(bx, by, x, rel(s.median), boxTip(c));
  }
  setCategoryTicks(bx, ticks);
  bx->setRange(0.4, double(cases.size()) + 0.6);
  return {yMin, yMax};
}

void TimingPage::markExtremesOffAxis(const QList<const CaseResult*>& cases, double yMin,
                                     double yMax) {
  QCustomPlot* p = plot();
  for (int i = 0; i < cases.size(); ++i) {
    const auto& s = cases[i]->summary;
    for (const double v : {s.min, s.max}) {
      const double r = onScale(v, s.median, true);
      if (r >= yMin && r <= yMax) continue;
      auto* t = new QCPItemText(p);
      t->position->setTypeX(QCPItemPosition::ptPlotCoords);
      t->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
      t->position->setCoords(i + 1, r > yMax ? 0.0 : 1.0);
      t->setPositionAlignment(Qt::AlignHCenter | (r > yMax ? Qt::AlignTop : Qt::AlignBottom));
      t->setText(QString("%1 %2%3%")
                     .arg(r > yMax ? "▲ max" : "▼ min", r > 0 ? "+" : "", formatNumber(r, 3)));
      t->setFont(QFont(p->font().family(), 8));
      t->setColor(ink());
    }
  }
}

void TimingPage::addHistograms(const QList<const CaseResult*>& cases, const Bins& bins) {
  QCPAxis* hx = m_histRect->axis(QCPAxis::atBottom);
  QCPAxis* hy = m_histRect->axis(QCPAxis::atLeft);
  hy->setLabel("% of the kernel's samples");
  makeLinearAxis(hy);
  makeTimeAxis(hx, bins.relative);
  double peak = 0;
  for (const CaseResult* c : cases)
    peak = std::max(peak, addHistogram(*c, kernelColor(QString::fromStdString(c->kernel)), bins));
  hx->setRange(bins.lo, bins.hi);
  hy->setRange(0, peak > 0 ? peak * 1.15 : 1);
}

double TimingPage::addHistogram(const CaseResult& c, const QColor& color, const Bins& bins) {
  QCPAxis* hx = m_histRect->axis(QCPAxis::atBottom);
  QCPAxis* hy = m_histRect->axis(QCPAxis::atLeft);
  const QString id = QString::fromStdString(c.kernel);
  QVector<double> counts(kBins, 0);
  int outside = 0;
  for (double v : c.samplesMs) {
    const int b = bins.of(onScale(v, c.summary.median, bins.relative));
    if (b < 0 || b >= kBins)
      ++outside;
    else
      counts[b] += 1;
  }
  auto* g = new QCPGraph(hx, hy);
  g->setProperty("series", id);
  const QString name = shortLabel(model()->catalog().info(id));
  g->setName(outside ? QString("%1 (%2 beyond the axis)").arg(name).arg(outside) : name);
  g->setPen(QPen(color, 1.6));
  QColor fill = color;
  fill.setAlpha(40);
  g->setBrush(fill);
  g->setLineStyle(QCPGraph::lsStepCenter);
  const double n = double(c.samplesMs.size());
  double peak = 0;
  for (int b = 0; b < kBins; ++b) {
    const double center = bins.center(b);
    const double share = 100.0 * counts[b] / n;
    g->addData(center, share);
    peak = std::max(peak, share);
    if (counts[b] > 0)
      tooltips()->add(hx, hy, center, share,
                      QString("%1: %2 of %3 samples (%4%) in [%5, %6)%7")
                          .arg(id)
                          .arg(counts[b])
                          .arg(c.samplesMs.size())
                          .arg(share, 0, 'f', 1)
                          .arg(formatNumber(bins.edge(b), 4), formatNumber(bins.edge(b + 1), 4),
                               bins.relative ? "%" : " ms"));
  }
  m_histograms << g;
  return peak;
}

}  // namespace kwb::gui
