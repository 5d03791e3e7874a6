// SPDX-License-Identifier: Apache-2.0
#include "pages/progression_page.h"

#include <QFileInfo>
#include <QLabel>
#include <algorithm>
#include <functional>
#include <map>

#include "kwb/shape.h"
#include "model/case_size.h"
#include "model/doc_queries.h"
#include "model/run_request.h"

namespace kwb::gui {
namespace {

// A memory roof more than this many times the fastest stage and reference is left off a
// linear axis (named in the legend, "off scale"): on scale it would flatten every bar.
constexpr double kRoofOnScale = 2.5;

// Bar labels and marks go on a layer above the reference lines, on a light background, so a
// line crossing a label never strikes it through.
QCPLayer* labelLayer(QCustomPlot* p) {
  if (QCPLayer* l = p->layer("labels")) return l;
  p->addLayer("labels", p->layer("main"), QCustomPlot::limAbove);
  return p->layer("labels");
}

QCPItemText* barLabel(QCustomPlot* p, double x, double y, const QString& text, QColor color) {
  auto* t = new QCPItemText(p);
  t->setLayer(labelLayer(p));
  t->position->setCoords(x, y);
  t->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
  t->setTextAlignment(Qt::AlignHCenter);
  t->setText(text);
  t->setPadding(QMargins(2, 0, 2, 1));
  // Light enough that a reference, CUB, copy or peak line behind it stays visible.
  t->setBrush(QColor(255, 255, 255, 150));
  t->setColor(color);
  return t;
}

// The pixel rows of the horizontal reference and roof lines in view, bottom first.
QList<double> levelLinePixels(QCustomPlot* p) {
  QList<double> rows;
  for (int i = 0; i < p->graphCount(); ++i) {
    const QCPGraph* g = p->graph(i);
    if (!g->visible() || g->dataCount() != 2) continue;
    const double v = g->data()->at(0)->value;
    if (v == g->data()->at(1)->value && p->yAxis->range().contains(v))
      rows << p->yAxis->coordToPixel(v);
  }
  std::sort(rows.begin(), rows.end(), std::greater<>());
  return rows;
}

// Where a label box of height `h` whose bottom is at pixel `bottom` goes so that no line in
// `rows` (bottom first) crosses it: moved up above the lines it meets, or, where that leaves
// the plot, down under the lines it meets (over its own bar), top first, so that a box moved under
// one line is not left across the next one below it.
double clearOfLines(double bottom, double h, const QList<double>& rows, double top) {
  auto crosses = [&](double b, double row) { return row > b - h - 2 && row < b + 2; };
  double up = bottom;
  for (const double row : rows)
    if (crosses(up, row)) up = row - 3;
  if (up - h >= top) return up;
  double down = bottom;
  const QList<double> topFirst(rows.rbegin(), rows.rend());
  for (const double row : topFirst)
    if (crosses(down, row)) down = row + 3 + h;
  return down;
}

// Bar labels and violation marks (one box per bar: a mark sits on its label) kept clear of
// the reference, CUB, copy and peak lines. Needs the plot laid out: it is replotted first.
void keepLabelsOffLines(QCustomPlot* p) {
  p->replot();
  const QList<double> rows = levelLinePixels(p);
  if (rows.isEmpty()) return;
  // The items of each bar, by their anchor, and the height of the box they make together.
  std::map<std::pair<double, double>, std::pair<QList<QCPItemText*>, double>> boxes;
  for (int i = 0; i < p->itemCount(); ++i) {
    auto* t = qobject_cast<QCPItemText*>(p->item(i));
    if (!t || t->layer() != p->layer("labels")) continue;
    const QPointF at = t->position->coords();
    const QFontMetrics fm(t->font());
    const double h = fm.height() * double(t->text().count('\n') + 1) + t->padding().top() +
                     t->padding().bottom();
    auto& [items, height] = boxes[{at.x(), at.y()}];
    items << t;
    height = std::max(height, h);
  }
  for (const auto& [at, box] : boxes) {
    const double bottom = p->yAxis->coordToPixel(at.second);
    const double moved = clearOfLines(bottom, box.second, rows, p->axisRect()->top());
    if (moved == bottom) continue;
    for (QCPItemText* t : box.first)
      t->position->setCoords(at.first, p->yAxis->pixelToCoord(moved));
  }
}

// A series of bars, named for the legend.
QCPBars* newBars(QCustomPlot* p, const QString& name, const QPen& pen, const QBrush& brush) {
  auto* b = new QCPBars(p->xAxis, p->yAxis);
  b->setName(name);
  b->setPen(pen);
  b->setBrush(brush);
  return b;
}

// A timed stage's label over its bar (% of its reference, of the copy roof, its FP32 fallback or
// its status); `tip` gets the same said in full.
QString stageLabel(const CaseResult& c, const RunDocument& doc, QString& tip) {
  QString label;
  if (const auto pct = refPercent(doc, c)) {
    // Two short lines: a label no wider than its bar when runs are compared side by side.
    // Three short lines ("63%", "of cuBLAS", "SGEMM"): no wider than its bar at 1280 px.
    label = QString("%1%\nof %2")
                .arg(pct->pct, 0, 'f', pct->pct < 10 ? 1 : 0)
                .arg(QString(pct->reference).replace(' ', '\n'));
    tip += QString("\n%1 (the reference's paired time at this size)")
               .arg(QString(label).replace('\n', ' '));
  }
  if (const auto roof = pctOfCopyRoof(c, doc)) {
    label += QString("%1%2% of\ncopy").arg(label.isEmpty() ? "" : "\n").arg(*roof, 0, 'f', 0);
    tip += QString("\n%1% of the measured device-to-device copy").arg(*roof, 0, 'f', 1);
  }
  if (isFallback(c)) {
    label = "→ FP32\nfallback" + (label.isEmpty() ? "" : "\n" + label);
    tip += QString("\nran %1 (FP32 fallback): not a tensor-core result")
               .arg(QString::fromStdString(c.ranKernel));
  } else if (!isGood(c.status)) {
    label = statusText(c.status) + (label.isEmpty() ? "" : "\n" + label);
  }
  return label;
}

}  // namespace

ProgressionPage::ProgressionPage(ResultsModel* model, QWidget* parent)
    : PlotPage(model, "Progression", parent) {
  placeLegendBelow(plot());
  controls()->addWidget(new QLabel("Shape:"));
  m_shape = new ShapeCombo(this);
  controls()->addWidget(m_shape);
  m_logY = new QCheckBox("Logarithmic scale", this);
  m_logY->setToolTip("Stages a hundred times apart (naive against tensor cores) all readable");
  controls()->addWidget(m_logY);
  controls()->addStretch(1);
  connect(m_shape, &QComboBox::currentIndexChanged, this, [this] { rebuildNow(); });
  connect(m_logY, &QCheckBox::toggled, this, [this] { rebuildNow(); });
}

// What one rebuild carries from step to step: the shape drawn, its unit and the range its bars,
// lines and labels reach.
struct ProgressionPage::Build {
  const RunDocument& doc;
  CaseSize shape;
  bool vector;  // of a memory-bound family: GB/s against its reference and the copy roof
  QString unit;
  bool logY;
  QList<KernelInfo> stages{};
  // Where a stage's label goes: over its bar, the first of its group when runs are compared.
  std::function<double(double, bool)> labelX = [](double x, bool) { return x; };
  QVector<double> errLow{}, errHigh{}, fbLow{}, fbHigh{}, baseLow{}, baseHigh{};
  double yMax = 0, yMin = 1e300;
  double x0 = 0.4, x1 = 0.6, yTop = 1;  // the stages' x range and the linear axis' top
  bool offScale(double v) const { return !logY && v > yTop; }
};

void ProgressionPage::rebuild() {
  QCustomPlot* p = plot();
  p->clearPlottables();
  p->clearItems();
  m_bars = m_baselineBars = m_fallbackBars = nullptr;
  m_overlayBars.clear();
  m_errorBars = m_fallbackErrorBars = m_baselineErrorBars = nullptr;
  m_violationMarks = 0;
  const RunDocument& doc = model()->document();
  m_shape->setShapes(sizesOf(doc));
  const auto shape = m_shape->currentShape();
  // A memory-bound family (its declaration's headline) plots GB/s against its reference and
  // the copy roof.
  const FamilyInfo* family = shape ? doc.family(shape->family) : nullptr;
  const bool vector = family && family->memoryBound();
  const QString unit =
      QString::fromUtf8(metricUnit(family ? family->headline : Metric::kGflops).data());
  m_logY->setText("Logarithmic " + unit);
  setPlotTitle(p, shape ? QString("%1 at %2 — median of %3, 95% CI bars")
                              .arg(unit, sizeName(*shape, false), timerLabel(doc))
                        : QString("Rate per stage (no results)"));
  p->xAxis->setLabel("stage");
  const bool logY = m_logY->isChecked();
  makeRateAxis(p->yAxis, logY, unit);
  p->legend->setVisible(shape.has_value());
  if (!shape) {
    showEmptyNote(p, emptyPlotReason(doc));
    return;
  }

  Build b{doc, *shape, vector, unit, logY};
  for (const KernelInfo& k : model()->catalog().stages())
    if (model()->isShown(k.id) && doc.find(k.id, *shape)) b.stages << k;
  addBarSeries(b);
  addCiBars();
  const QList<QPair<double, QString>> ticks = addStages(b);
  m_errorBars->setDataPlottable(m_bars);
  m_errorBars->setData(b.errLow, b.errHigh);
  m_fallbackErrorBars->setDataPlottable(m_fallbackBars);
  m_fallbackErrorBars->setData(b.fbLow, b.fbHigh);
  if (m_fallbackBars->data()->isEmpty()) m_fallbackBars->removeFromLegend();
  if (m_baselineBars) {
    m_baselineErrorBars = new QCPErrorBars(p->xAxis, p->yAxis);
    m_baselineErrorBars->setPen(QPen(QColor(0x50, 0x50, 0x50), 1.2));
    m_baselineErrorBars->setWhiskerWidth(6);
    m_baselineErrorBars->removeFromLegend();
    m_baselineErrorBars->setProperty("series", m_baselineBars->name());
    m_baselineErrorBars->setDataPlottable(m_baselineBars);
    m_baselineErrorBars->setData(b.baseLow, b.baseHigh);
  }
  addReferenceLines(b);
  setTextTicksAndRanges(b, ticks);
  keepLabelsOffLines(p);
}

void ProgressionPage::addBarSeries(Build& b) {
  QCustomPlot* p = plot();
  m_bars = newBars(p, "this run", QPen(QColor(0x1f, 0x4e, 0x89)), QColor(0x4a, 0x90, 0xd9));
  m_fallbackBars =
      newBars(p, "→ FP32 fallback (a tensor-core stage ran its FP32 path)",
              QPen(QColor(0x8a, 0x60, 0x00)), QBrush(QColor(0xd9, 0xa4, 0x1b), Qt::BDiagPattern));
  QList<QCPBars*> grouped;
  if (model()->baseline()) {
    m_baselineBars =
        newBars(p, "baseline", QPen(QColor(0x70, 0x70, 0x70)), QColor(0xb0, 0xb0, 0xb0));
    grouped << m_baselineBars;
  }
  for (int i = 0; i < model()->overlays().size(); ++i) {
    const QColor c = QColor::fromHsv((200 + 47 * i) % 360, 70, 150 + 20 * (i % 3));
    m_overlayBars << newBars(p, QFileInfo(model()->overlays()[i].source).fileName(),
                             QPen(c.darker(140)), c);
    grouped << m_overlayBars.back();
  }
  // A stage is a bar of this run or a fallback bar, never both: on a linear axis the fallback
  // bars stack on this run's (nothing below them) and so share its slot in the group.
  if (!b.logY) m_fallbackBars->moveAbove(m_bars);
  if (grouped.isEmpty()) return;
  // Side by side at each stage: this run (or its fallback), then each run compared.
  auto* group = new QCPBarsGroup(p);
  grouped.prepend(m_fallbackBars);
  grouped.prepend(m_bars);
  const int places = int(grouped.size()) - (b.logY ? 0 : 1);
  for (QCPBars* bars : grouped) {
    bars->setWidth(0.8 / double(places));
    bars->setBarsGroup(group);
  }
  b.labelX = [places, logY = b.logY](double x, bool fallback) {
    const int slot = fallback && logY ? 1 : 0;
    return x - 0.4 + (slot + 0.5) * 0.8 / double(places);
  };
}

void ProgressionPage::addCiBars() {
  QCustomPlot* p = plot();
  m_errorBars = new QCPErrorBars(p->xAxis, p->yAxis);
  m_errorBars->setName("95% CI of the median");
  m_errorBars->setPen(QPen(ink(), 1.2));
  m_errorBars->setWhiskerWidth(8);
  m_fallbackErrorBars = new QCPErrorBars(p->xAxis, p->yAxis);
  m_fallbackErrorBars->setPen(m_errorBars->pen());
  m_fallbackErrorBars->setWhiskerWidth(8);
  m_fallbackErrorBars->removeFromLegend();
}

QList<QPair<double, QString>> ProgressionPage::addStages(Build& b) {
  QList<QPair<double, QString>> ticks;
  const auto violations = progressionViolations(b.doc);
  for (int i = 0; i < b.stages.size(); ++i) {
    const KernelInfo& k = b.stages[i];
    const double x = i + 1;
    ticks << QPair<double, QString>{x, QString("%1\n%2").arg(k.stage).arg(shortLabel(k))};
    const CaseResult* c = b.doc.find(k.id, b.shape);
    int labelLines = 1;
    if (c && hasSpeed(b.doc, *c))
      labelLines = addStageBar(b, k, x, *c);
    else if (c)
      barLabel(plot(), x, 0, statusText(c->status), statusColor(c->status));
    addComparedBars(b, k, x);
    for (const auto& v : violations)
      if (violationAt(v, b.shape) && v.to == k.id && c) addViolationMark(b, v, x, *c, labelLines);
  }
  return ticks;
}

int ProgressionPage::addStageBar(Build& b, const KernelInfo& k, double x, const CaseResult& c) {
  QCustomPlot* p = plot();
  const bool fallback = isFallback(c);
  const Range ci = gflopsCi(b.doc, c);
  const double v = headline(b.doc, c);
  (fallback ? m_fallbackBars : m_bars)->addData(x, v);
  (fallback ? b.fbLow : b.errLow) << v - ci.low;
  (fallback ? b.fbHigh : b.errHigh) << ci.high - v;
  b.yMax = std::max({b.yMax, v, ci.high});
  b.yMin = std::min(b.yMin, ci.low);
  QString tip =
      QString(
          "%1 at %2\n%3 %10 (95% CI %4–%5)\nmedian %6 ms, %7 samples, "
          "CV %8%\nstatus %9")
          .arg(qtext(k.id), sizeName(b.shape), formatNumber(v, 6), formatNumber(ci.low, 5),
               formatNumber(ci.high, 5), formatNumber(c.summary.median, 5))
          .arg(c.samplesMs.size())
          .arg(c.summary.cv * 100, 0, 'f', 2)
          .arg(statusText(c.status))
          .arg(b.unit);
  const QString label = stageLabel(c, b.doc, tip);
  tooltips()->add(p->xAxis, p->yAxis, x, v, tip);
  QCPItemText* t = barLabel(p, b.labelX(x, fallback), ci.high, label,
                            isGood(c.status) ? QColor(Qt::black) : statusColor(c.status));
  t->setColor(fallback ? QColor(0x8a, 0x60, 0x00) : t->color());
  t->setProperty("series", fallback ? m_fallbackBars->name() : m_bars->name());
  return int(label.count('\n')) + 1;
}

void ProgressionPage::addComparedBars(Build& b, const KernelInfo& k, double x) {
  QCustomPlot* p = plot();
  if (const auto& baseline = model()->baseline()) {
    if (const CaseResult* c = baseline->find(k.id, b.shape); c && hasSpeed(*baseline, *c)) {
      const double bv = headline(*baseline, *c);
      const Range ci = gflopsCi(*baseline, *c);
      m_baselineBars->addData(x, bv);
      b.baseLow << bv - ci.low;
      b.baseHigh << ci.high - bv;
      b.yMax = std::max({b.yMax, bv, ci.high});
      b.yMin = std::min(b.yMin, bv);
      tooltips()->add(p->xAxis, p->yAxis, x + 0.2, bv,
                      QString("baseline %1 at %2\n%3 %4")
                          .arg(qtext(k.id), sizeName(b.shape), formatNumber(bv, 6), b.unit));
    }
  }
  for (int o = 0; o < m_overlayBars.size(); ++o) {
    const auto& run = model()->overlays()[o];
    if (const CaseResult* c = run.doc.find(k.id, b.shape); c && hasSpeed(run.doc, *c)) {
      const double bv = headline(run.doc, *c);
      m_overlayBars[o]->addData(x, bv);
      b.yMax = std::max(b.yMax, bv);
      b.yMin = std::min(b.yMin, bv);
      tooltips()->add(p->xAxis, p->yAxis, x, bv,
                      QString("%1: %2 at %3\n%4 %5")
                          .arg(QFileInfo(run.source).fileName(), qtext(k.id), sizeName(b.shape),
                               formatNumber(bv, 6), b.unit));
    }
  }
}

void ProgressionPage::addViolationMark(const Build& b, const ProgressionViolation& v, double x,
                                       const CaseResult& c, int labelLines) {
  QCustomPlot* p = plot();
  ++m_violationMarks;
  // Two short lines naming the earlier stage by its number (its name is on the axis below), so
  // the note is no wider than its bar and clear of the neighbouring ones.
  const KernelInfo from = model()->catalog().info(QString::fromStdString(v.from));
  const QString earlier = from.stage > 0 ? QString("stage %1").arg(from.stage) : shortLabel(from);
  auto* mark =
      barLabel(p, b.labelX(x, isFallback(c)), hasSpeed(b.doc, c) ? gflopsCi(b.doc, c).high : 0,
               QString(v.withinNoise ? "▽ noise of\n%1%2" : "▼ below\n%1%2")
                   .arg(earlier, v.explanation.empty() ? "" : "*"),
               v.withinNoise || !v.explanation.empty() ? QColor(0x80, 0x80, 0x80)
                                                       : QColor(0xc0, 0x10, 0x10));
  // Above the bar's own label, clear of the neighbours.
  mark->setPadding(QMargins(2, 0, 2, 6 + 14 * labelLines));
  tooltips()->add(
      p->xAxis, p->yAxis, x, hasSpeed(b.doc, c) ? gflopsCi(b.doc, c).high : 0,
      QString("%1 is %2 %3%4")
          .arg(QString::fromStdString(v.to), v.withinNoise ? "within the noise of" : "slower than",
               QString::fromStdString(v.from),
               v.explanation.empty() ? QString() : " (explained: " + qtext(v.explanation) + ")"));
  mark->setFont(QFont(p->font().family(), 8, QFont::Bold));
}

QCPGraph* ProgressionPage::addLevelLine(const Build& b, const QString& name, double v,
                                        const QString& unit, const QPen& pen) {
  QCPGraph* g = plot()->addGraph();
  g->setName(
      QString("%1: %2%3").arg(name, rateText(v, unit), b.offScale(v) ? " (off scale ↑)" : ""));
  g->setPen(pen);
  g->setData({b.x0, b.x1}, {v, v});
  return g;
}

void ProgressionPage::addReferenceLines(Build& b) {
  QCustomPlot* p = plot();
  // References as horizontal lines across the stages, named with their GFLOP/s.
  b.x1 = double(b.stages.size()) + 0.6;
  // On a linear axis the scale follows the stages and the FP32 reference; faster references
  // (FP16, TF32 tensor cores) stay in the legend with their values, marked off scale there.
  if (const CaseResult* fp32 = b.doc.find("cublas.sgemm", b.shape); fp32 && hasSpeed(b.doc, *fp32))
    b.yMax = std::max(b.yMax, fp32->gflops);
  // The memory-bound families' roofs: the measured copy, and the device's peak bandwidth.
  const double copyRoof = b.vector && b.doc.device ? b.doc.device->copyBandwidthGBs : 0;
  const double hbmPeak = b.vector && b.doc.device ? b.doc.device->peakBandwidthGBs : 0;
  // A memory-bound family's reference (CUB) is the roof its stages are held to: on scale. The
  // copy roof too, unless it is far above every stage and the reference (a radix sort moves
  // its keys at a tenth of it): then it stays in the legend, marked off scale, and the stages
  // keep the plot's height.
  if (b.vector)
    for (const KernelInfo& r : model()->catalog().references())
      if (const CaseResult* c = b.doc.find(r.id, b.shape);
          c && hasSpeed(b.doc, *c) && model()->isShown(r.id))
        b.yMax = std::max(b.yMax, headline(b.doc, *c));
  if (!b.stages.isEmpty() && copyRoof <= kRoofOnScale * b.yMax) b.yMax = std::max(b.yMax, copyRoof);
  b.yTop = b.yMax > 0 ? b.yMax * 1.25 : 1;
  for (const KernelInfo& r : model()->catalog().references()) {
    const CaseResult* c = b.doc.find(r.id, b.shape);
    if (!c || !hasSpeed(b.doc, *c) || !model()->isShown(r.id)) continue;
    const double v = headline(b.doc, *c);
    addLevelLine(b, qtext(r.name), v, b.unit, QPen(kernelColor(qtext(r.id)), 2, Qt::DashLine))
        ->setProperty("series", qtext(r.id));
    b.yMax = std::max(b.yMax, v);
    b.yMin = std::min(b.yMin, v);
    tooltips()->add(
        p->xAxis, p->yAxis, b.x1 - 0.1, b.offScale(v) ? b.yTop * 0.98 : v,
        QString("%1 at %2\n%3 %4").arg(qtext(r.id), sizeName(b.shape), formatNumber(v, 6), b.unit));
  }
  auto roofLine = [&](const QString& name, double gbs, Qt::PenStyle style) {
    if (gbs <= 0 || b.stages.isEmpty()) return;
    QCPGraph* g = addLevelLine(b, name, gbs, "GB/s", QPen(ink(), 1.5, style));
    g->setProperty("series", name);
    g->setProperty("role", "roof");
    b.yMin = std::min(b.yMin, gbs);
    if (!b.offScale(gbs)) b.yMax = std::max(b.yMax, gbs);
  };
  roofLine("device-to-device copy (measured)", copyRoof, Qt::DashDotLine);
  roofLine("peak bandwidth", hbmPeak, Qt::DotLine);
}

void ProgressionPage::setTextTicksAndRanges(const Build& b,
                                            const QList<QPair<double, QString>>& ticks) {
  QCustomPlot* p = plot();
  setCategoryTicks(p->xAxis, ticks);
  p->xAxis->setRange(b.x0, b.x1);
  if (b.logY && b.yMin < 1e300) {
    const double bottom = b.yMin / 3;
    for (QCPBars* bars : {m_bars, m_fallbackBars, m_baselineBars})
      if (bars) bars->setBaseValue(bottom);
    for (QCPBars* bars : m_overlayBars) bars->setBaseValue(bottom);
    p->yAxis->setRange(bottom, b.yMax * 4);
  } else {
    p->yAxis->setRange(0, b.yTop);
  }
  fitRateUnit(p->yAxis, b.unit);
}

}  // namespace kwb::gui
