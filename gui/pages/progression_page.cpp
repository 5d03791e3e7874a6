#include "pages/progression_page.h"

#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <algorithm>
#include <functional>

#include "kwb/shape.h"
#include "model/case_size.h"
#include "model/doc_queries.h"
#include "model/run_request.h"

namespace kwb::gui {
namespace {

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
  t->setBrush(QColor(255, 255, 255, 215));
  t->setColor(color);
  return t;
}

QString rateText(double v, const QString& unit) {
  return QLocale::c().toString(v, 'f', 0) + " " + unit;
}

}  // namespace

ProgressionPage::ProgressionPage(ResultsModel* model, QWidget* parent)
    : PlotPage(model, "Progression", parent) {
  controls()->addWidget(new QLabel("Shape:"));
  m_shape = new ShapeCombo(this);
  controls()->addWidget(m_shape);
  m_logY = new QCheckBox("Logarithmic GFLOP/s", this);
  m_logY->setToolTip("Stages a hundred times apart (naive against tensor cores) all readable");
  controls()->addWidget(m_logY);
  controls()->addStretch(1);
  connect(m_shape, &QComboBox::currentIndexChanged, this, [this] { rebuildNow(); });
  connect(m_logY, &QCheckBox::toggled, this, [this] { rebuildNow(); });
}

void ProgressionPage::rebuild() {
  QCustomPlot* p = plot();
  p->clearPlottables();
  p->clearItems();
  m_bars = m_baselineBars = m_fallbackBars = nullptr;
  m_overlayBars.clear();
  m_errorBars = m_fallbackErrorBars = nullptr;
  m_violationMarks = 0;
  const RunDocument& doc = model()->document();
  m_shape->setShapes(shapesOf(doc));
  const auto shape = m_shape->currentShape();
  // The memory-bound families (a 1-D size) plot GB/s against CUB and the copy roof.
  const bool vector = shape && isVectorKey(*shape);
  const QString unit = vector ? "GB/s" : "GFLOP/s";
  m_logY->setText("Logarithmic " + unit);
  setPlotTitle(p, shape ? QString("%1 at %2 — median of %3, 95% CI bars")
                              .arg(unit, sizeKeyText(*shape, false), timerLabel(doc))
                        : QString("GFLOP/s per stage (no results)"));
  p->xAxis->setLabel("stage");
  const bool logY = m_logY->isChecked();
  makeRateAxis(p->yAxis, logY, unit);
  p->legend->setVisible(shape.has_value());
  if (!shape) {
    showEmptyNote(p, emptyPlotReason(doc));
    return;
  }

  const KernelLookup& cat = model()->catalog();
  QList<KernelInfo> stages;
  for (const KernelInfo& k : cat.stages())
    if (model()->isShown(k.id) && findCase(doc, k.id, *shape)) stages << k;
  const auto& baseline = model()->baseline();

  m_bars = new QCPBars(p->xAxis, p->yAxis);
  m_bars->setName("this run");
  m_bars->setPen(QPen(QColor(0x1f, 0x4e, 0x89)));
  m_bars->setBrush(QColor(0x4a, 0x90, 0xd9));
  m_fallbackBars = new QCPBars(p->xAxis, p->yAxis);
  m_fallbackBars->setName("→ FP32 fallback (a tensor-core stage ran its FP32 path)");
  m_fallbackBars->setPen(QPen(QColor(0x8a, 0x60, 0x00)));
  m_fallbackBars->setBrush(QBrush(QColor(0xd9, 0xa4, 0x1b), Qt::BDiagPattern));
  QList<QCPBars*> grouped;
  if (baseline) {
    m_baselineBars = new QCPBars(p->xAxis, p->yAxis);
    m_baselineBars->setName("baseline");
    m_baselineBars->setPen(QPen(QColor(0x70, 0x70, 0x70)));
    m_baselineBars->setBrush(QColor(0xb0, 0xb0, 0xb0));
    grouped << m_baselineBars;
  }
  for (int i = 0; i < model()->overlays().size(); ++i) {
    auto* b = new QCPBars(p->xAxis, p->yAxis);
    b->setName(QFileInfo(model()->overlays()[i].source).fileName());
    const QColor c = QColor::fromHsv((200 + 47 * i) % 360, 70, 150 + 20 * (i % 3));
    b->setPen(QPen(c.darker(140)));
    b->setBrush(c);
    m_overlayBars << b;
    grouped << b;
  }
  // A stage is a bar of this run or a fallback bar, never both: on a linear axis the fallback
  // bars stack on this run's (nothing below them) and so share its slot in the group.
  if (!logY) m_fallbackBars->moveAbove(m_bars);
  // Where a stage's label goes: over its bar, the first of its group when runs are compared.
  std::function<double(double, bool)> labelX = [](double x, bool) { return x; };
  if (!grouped.isEmpty()) {
    // Side by side at each stage: this run (or its fallback), then each run compared.
    auto* group = new QCPBarsGroup(p);
    grouped.prepend(m_fallbackBars);
    grouped.prepend(m_bars);
    const int places = int(grouped.size()) - (logY ? 0 : 1);
    for (QCPBars* b : grouped) {
      b->setWidth(0.8 / double(places));
      b->setBarsGroup(group);
    }
    labelX = [places, logY](double x, bool fallback) {
      const int slot = fallback && logY ? 1 : 0;
      return x - 0.4 + (slot + 0.5) * 0.8 / double(places);
    };
  }
  m_errorBars = new QCPErrorBars(p->xAxis, p->yAxis);
  m_errorBars->setName("95% CI of the median");
  m_errorBars->setPen(QPen(ink(), 1.2));
  m_errorBars->setWhiskerWidth(8);
  m_fallbackErrorBars = new QCPErrorBars(p->xAxis, p->yAxis);
  m_fallbackErrorBars->setPen(m_errorBars->pen());
  m_fallbackErrorBars->setWhiskerWidth(8);
  m_fallbackErrorBars->removeFromLegend();
  QVector<double> errLow, errHigh, fbLow, fbHigh;
  QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
  QStringList tickTexts;
  double yMax = 0, yMin = 1e300;
  const auto violations = progressionViolations(doc);
  for (int i = 0; i < stages.size(); ++i) {
    const KernelInfo& k = stages[i];
    const double x = i + 1;
    const QString tick = QString("%1\n%2").arg(k.stage).arg(shortLabel(k));
    ticker->addTick(x, tick);
    tickTexts << tick;
    const CaseResult* c = findCase(doc, k.id, *shape);
    int labelLines = 1;
    if (c && hasSpeed(*c)) {
      const bool fallback = isFallback(*c);
      const Range ci = gflopsCi(*c);
      const double v = headline(*c);
      (fallback ? m_fallbackBars : m_bars)->addData(x, v);
      (fallback ? fbLow : errLow) << v - ci.low;
      (fallback ? fbHigh : errHigh) << ci.high - v;
      yMax = std::max({yMax, v, ci.high});
      yMin = std::min(yMin, ci.low);
      QString tip =
          QString(
              "%1 at %2\n%3 %10 (95% CI %4–%5)\nmedian %6 ms, %7 samples, "
              "CV %8%\nstatus %9")
              .arg(qtext(k.id), sizeKeyText(*shape), formatNumber(v, 6), formatNumber(ci.low, 5),
                   formatNumber(ci.high, 5), formatNumber(c->summary.median, 5))
              .arg(c->samplesMs.size())
              .arg(c->summary.cv * 100, 0, 'f', 2)
              .arg(statusText(c->status))
              .arg(unit);
      QString label;
      if (const auto pct = refPercent(*c)) {
        // Two short lines: a label no wider than its bar when runs are compared side by side.
        label =
            QString("%1%\nof %2").arg(pct->pct, 0, 'f', pct->pct < 10 ? 1 : 0).arg(pct->reference);
        tip += vector ? QString("\n%1 reference").arg(QString(label).replace('\n', ' '))
                      : QString("\n%1 reference (cuBLAS %2)")
                            .arg(QString(label).replace('\n', ' '), pct->reference);
      }
      if (const auto roof = pctOfCopyRoof(*c, doc)) {
        label += QString("%1%2% of\ncopy").arg(label.isEmpty() ? "" : "\n").arg(*roof, 0, 'f', 0);
        tip += QString("\n%1% of the measured device-to-device copy").arg(*roof, 0, 'f', 1);
      }
      if (fallback) {
        label = "→ FP32\nfallback" + (label.isEmpty() ? "" : "\n" + label);
        tip += QString("\nran %1 (FP32 fallback): not a tensor-core result")
                   .arg(QString::fromStdString(c->ranKernel));
      } else if (!isGood(c->status)) {
        label = statusText(c->status) + (label.isEmpty() ? "" : "\n" + label);
      }
      labelLines = int(label.count('\n')) + 1;
      tooltips()->add(p->xAxis, p->yAxis, x, v, tip);
      QCPItemText* t = barLabel(p, labelX(x, fallback), ci.high, label,
                                isGood(c->status) ? QColor(Qt::black) : statusColor(c->status));
      t->setColor(fallback ? QColor(0x8a, 0x60, 0x00) : t->color());
      t->setProperty("series", fallback ? m_fallbackBars->name() : m_bars->name());
    } else if (c) {
      barLabel(p, x, 0, statusText(c->status), statusColor(c->status));
    }
    if (baseline) {
      if (const CaseResult* b = findCase(*baseline, k.id, *shape); b && hasSpeed(*b)) {
        const double bv = headline(*b);
        m_baselineBars->addData(x, bv);
        yMax = std::max(yMax, bv);
        yMin = std::min(yMin, bv);
        tooltips()->add(p->xAxis, p->yAxis, x + 0.2, bv,
                        QString("baseline %1 at %2\n%3 %4")
                            .arg(qtext(k.id), sizeKeyText(*shape), formatNumber(bv, 6), unit));
      }
    }
    for (int o = 0; o < m_overlayBars.size(); ++o) {
      const auto& run = model()->overlays()[o];
      if (const CaseResult* b = findCase(run.doc, k.id, *shape); b && hasSpeed(*b)) {
        const double bv = headline(*b);
        m_overlayBars[o]->addData(x, bv);
        yMax = std::max(yMax, bv);
        yMin = std::min(yMin, bv);
        tooltips()->add(p->xAxis, p->yAxis, x, bv,
                        QString("%1: %2 at %3\n%4 %5")
                            .arg(QFileInfo(run.source).fileName(), qtext(k.id), sizeKeyText(*shape),
                                 formatNumber(bv, 6), unit));
      }
    }
    for (const auto& v : violations) {
      if (!violationAt(v, *shape) || v.to != k.id || !c) continue;
      ++m_violationMarks;
      auto* mark =
          barLabel(p, labelX(x, isFallback(*c)), hasSpeed(*c) ? gflopsCi(*c).high : 0,
                   QString(v.withinNoise ? "▽ within noise of\n%1%2" : "▼ slower than\n%1%2")
                       .arg(shortLabel(cat.info(QString::fromStdString(v.from))),
                            v.explanation.empty() ? "" : " (explained)"),
                   v.withinNoise || !v.explanation.empty() ? QColor(0x80, 0x80, 0x80)
                                                           : QColor(0xc0, 0x10, 0x10));
      // Above the bar's own label, clear of the neighbours.
      mark->setPadding(QMargins(2, 0, 2, 6 + 14 * labelLines));
      mark->setBrush(Qt::NoBrush);
      mark->setFont(QFont(p->font().family(), 8, QFont::Bold));
    }
  }
  m_errorBars->setDataPlottable(m_bars);
  m_errorBars->setData(errLow, errHigh);
  m_fallbackErrorBars->setDataPlottable(m_fallbackBars);
  m_fallbackErrorBars->setData(fbLow, fbHigh);
  if (m_fallbackBars->data()->isEmpty()) m_fallbackBars->removeFromLegend();
  // References as horizontal lines across the stages, named with their GFLOP/s.
  const double x0 = 0.4, x1 = double(stages.size()) + 0.6;
  // On a linear axis the scale follows the stages and the FP32 reference; faster references
  // (FP16, TF32 tensor cores) stay in the legend with their values, marked off scale there.
  if (const CaseResult* fp32 = findCase(doc, "cublas.sgemm", *shape); fp32 && hasSpeed(*fp32))
    yMax = std::max(yMax, fp32->gflops);
  // The memory-bound families' roofs: the measured copy, and the device's peak bandwidth.
  const double copyRoof = vector && doc.device ? doc.device->copyBandwidthGBs : 0;
  const double hbmPeak = vector && doc.device ? doc.device->peakBandwidthGBs : 0;
  if (!stages.isEmpty()) yMax = std::max(yMax, copyRoof);
  const double yTop = yMax > 0 ? yMax * 1.25 : 1;
  const QList<QString> all = kernelsOf(doc, cat);
  for (const KernelInfo& r : cat.references()) {
    const CaseResult* c = findCase(doc, r.id, *shape);
    if (!c || !hasSpeed(*c) || !model()->isShown(r.id)) continue;
    const double v = headline(*c);
    QCPGraph* g = p->addGraph();
    const bool offScale = !logY && v > yTop;
    g->setName(QString("%1: %2%3")
                   .arg(qtext(r.name), rateText(v, unit), offScale ? " (off scale ↑)" : ""));
    g->setProperty("series", qtext(r.id));
    g->setPen(QPen(kernelColor(int(all.indexOf(qtext(r.id)))), 2, Qt::DashLine));
    g->setData({x0, x1}, {v, v});
    yMax = std::max(yMax, v);
    yMin = std::min(yMin, v);
    tooltips()->add(
        p->xAxis, p->yAxis, x1 - 0.1, offScale ? yTop * 0.98 : v,
        QString("%1 at %2\n%3 %4").arg(qtext(r.id), sizeKeyText(*shape), formatNumber(v, 6), unit));
  }
  auto roofLine = [&](const QString& name, double gbs, Qt::PenStyle style) {
    if (gbs <= 0 || stages.isEmpty()) return;
    QCPGraph* g = p->addGraph();
    const bool offScale = !logY && gbs > yTop;
    g->setName(
        QString("%1: %2%3").arg(name, rateText(gbs, "GB/s"), offScale ? " (off scale ↑)" : ""));
    g->setProperty("series", name);
    g->setProperty("role", "roof");
    g->setPen(QPen(ink(), 1.5, style));
    g->setData({x0, x1}, {gbs, gbs});
    yMin = std::min(yMin, gbs);
    if (!offScale) yMax = std::max(yMax, gbs);
  };
  roofLine("device-to-device copy (measured)", copyRoof, Qt::DashDotLine);
  roofLine("peak bandwidth", hbmPeak, Qt::DotLine);
  p->xAxis->setTicker(ticker);
  p->xAxis->setRange(x0, x1);
  fitTickLabels(p->xAxis, tickTexts);
  if (logY && yMin < 1e300) {
    const double bottom = yMin / 3;
    for (QCPBars* b : {m_bars, m_fallbackBars, m_baselineBars})
      if (b) b->setBaseValue(bottom);
    for (QCPBars* b : m_overlayBars) b->setBaseValue(bottom);
    p->yAxis->setRange(bottom, yMax * 4);
  } else {
    p->yAxis->setRange(0, yTop);
  }
  p->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
}

}  // namespace kwb::gui
