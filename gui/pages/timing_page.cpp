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

}  // namespace

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
  p->plotLayout()->addElement(2, 0, m_histRect);
  m_key = new QCPTextElement(p, "", QFont(p->font().family(), 9));
  m_key->setTextColor(QColor(0x44, 0x44, 0x44));
  p->plotLayout()->addElement(3, 0, m_key);
  p->plotLayout()->setRowStretchFactor(1, 1.3);
  p->plotLayout()->setRowStretchFactor(2, 1);
  p->plotLayout()->setRowStretchFactor(3, 0.01);
  // Both plots share their left margin, so kernels' boxes and histograms line up.
  auto* margins = new QCPMarginGroup(p);
  p->axisRect()->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
  m_histRect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
  m_histRect->setRangeDrag(Qt::Horizontal | Qt::Vertical);
  m_histRect->setRangeZoom(Qt::Horizontal | Qt::Vertical);
  // The legend names the histograms: it sits in their plot.
  p->axisRect()->insetLayout()->take(p->legend);
  m_histRect->insetLayout()->addElement(p->legend, Qt::AlignTop | Qt::AlignRight);
  p->legend->setLayer("legend");
}

void TimingPage::selectCase(const QString&, const Shape& shape) {
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
  m_shape->setShapes(shapesOf(doc));
  const auto shape = m_shape->currentShape();
  const KernelLookup& cat = model()->catalog();
  const bool relative = scale() == Scale::kRelative;
  QList<const CaseResult*> cases;
  QList<int> colors;
  const QList<QString> all = kernelsOf(doc, cat);
  if (shape)
    for (const QString& id : shownKernels(doc))
      if (const CaseResult* c = findCase(doc, id.toStdString(), *shape); c && hasSpeed(*c))
        cases << c, colors << int(all.indexOf(id));

  setPlotTitle(
      p,
      shape ? QString("Time per launch at %1 — %2").arg(sizeKeyText(*shape, false), timerLabel(doc))
            : QString("Time per launch (no timed cases)"));
  m_key->setTextColor(ink());
  m_key->setText(cases.isEmpty()
                     ? QString()
                     : QString("Box: p25–p75, line at the median · whiskers: p5–p95 · dots: min "
                               "and max · below each name: its median · histograms: percent of "
                               "each kernel's samples per bin"));
  QCPAxis* by = p->yAxis;
  QCPAxis* bx = p->xAxis;
  bx->setLabel("");
  if (relative) {
    makeLinearAxis(by);
    by->setLabel("time relative to the kernel's median (%)");
  } else {
    makeLogAxis(by);
    by->setLabel("ms per launch (log)");
  }
  auto rel = [&](double v, double median) { return relative ? 100.0 * (v / median - 1.0) : v; };

  QList<QPair<double, QString>> ticks;
  QStringList tickTexts;
  double yMin = 1e300, yMax = -1e300;
  for (int i = 0; i < cases.size(); ++i) {
    const CaseResult& c = *cases[i];
    const auto& s = c.summary;
    const double x = i + 1, m = s.median;
    const QString id = QString::fromStdString(c.kernel);
    auto* box = new QCPStatisticalBox(bx, by);
    box->setProperty("series", id);
    box->setName(shortLabel(cat.info(id)));
    box->removeFromLegend();
    const QColor color = kernelColor(colors[i]);
    box->setPen(QPen(color.darker(140), 1.2));
    box->setMedianPen(QPen(color.darker(170), 2.5));
    QColor fill = color;
    fill.setAlpha(90);
    box->setBrush(fill);
    box->setWhiskerPen(QPen(color.darker(140), 1.2, Qt::SolidLine));
    box->setWhiskerBarPen(QPen(color.darker(140), 1.2));
    box->setOutlierStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, color.darker(140), 5));
    box->setWidth(0.55);
    box->addData(x, rel(s.p5, m), rel(s.p25, m), rel(s.median, m), rel(s.p75, m), rel(s.p95, m),
                 QVector<double>{rel(s.min, m), rel(s.max, m)});
    m_boxes << box;
    const QString label =
        QString("%1\n%2 ms").arg(shortLabel(cat.info(id)), formatNumber(s.median, 3));
    ticks << QPair<double, QString>{x, label};
    tickTexts << label;
    yMin = std::min(yMin, rel(s.p5, m)), yMax = std::max(yMax, rel(s.p95, m));
    tooltips()->add(
        bx, by, x, rel(s.median, m),
        QString("%1 at %2\nmedian %3 ms (95%% CI %4–%5)\np5 %6 · p25 %7 · p75 %8 · p95 %9 ms\n"
                "min %10 · max %11 ms\n%12 samples · CV %13%")
            .arg(id, sizeText(c), formatNumber(s.median, 5), formatNumber(s.ci95.low, 5),
                 formatNumber(s.ci95.high, 5), formatNumber(s.p5, 5), formatNumber(s.p25, 5),
                 formatNumber(s.p75, 5), formatNumber(s.p95, 5))
            .arg(formatNumber(s.min, 5), formatNumber(s.max, 5))
            .arg(c.samplesMs.size())
            .arg(s.cv * 100, 0, 'f', 2));
  }
  setTextTicks(bx, ticks);
  bx->setRange(0.4, double(cases.size()) + 0.6);
  fitTickLabels(bx, tickTexts);
  if (cases.isEmpty()) {
    yMin = relative ? -1 : 0.01, yMax = 1;
  } else if (relative) {
    // Room for the p5–p95 whiskers of every kernel; min and max beyond it are marked at the edge.
    const double pad = std::max(0.5, (yMax - yMin) * 0.2);
    yMin -= pad, yMax += pad;
  } else {
    yMin /= 1.5, yMax *= 1.5;
  }
  by->setRange(yMin, yMax);
  for (int i = 0; relative && i < cases.size(); ++i) {
    const auto& s = cases[i]->summary;
    for (const double v : {s.min, s.max}) {
      const double r = rel(v, s.median);
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

  // Histograms of every kernel, overlaid, over the same scale as the boxes.
  QCPAxis* hx = m_histRect->axis(QCPAxis::atBottom);
  QCPAxis* hy = m_histRect->axis(QCPAxis::atLeft);
  hy->setLabel("% of the kernel's samples");
  makeLinearAxis(hy);
  if (relative) {
    makeLinearAxis(hx);
    hx->setLabel("time relative to the kernel's median (%)");
  } else {
    makeLogAxis(hx);
    hx->setLabel("ms per launch (log)");
  }
  const double lo = yMin, hi = yMax;
  auto binOf = [&](double v) {
    const double t = relative ? (v - lo) / (hi - lo) : std::log(v / lo) / std::log(hi / lo);
    return int(std::floor(t * kBins));
  };
  auto edge = [&](double b) {
    return relative ? lo + (hi - lo) * b / kBins : lo * std::pow(hi / lo, b / kBins);
  };
  double peak = 0;
  for (int i = 0; i < cases.size(); ++i) {
    const CaseResult& c = *cases[i];
    const QString id = QString::fromStdString(c.kernel);
    QVector<double> counts(kBins, 0);
    int outside = 0;
    for (double v : c.samplesMs) {
      const int b = binOf(rel(v, c.summary.median));
      if (b < 0 || b >= kBins)
        ++outside;
      else
        counts[b] += 1;
    }
    auto* g = new QCPGraph(hx, hy);
    g->setProperty("series", id);
    g->setName(outside
                   ? QString("%1 (%2 beyond the axis)").arg(shortLabel(cat.info(id))).arg(outside)
                   : shortLabel(cat.info(id)));
    const QColor color = kernelColor(colors[i]);
    g->setPen(QPen(color, 1.6));
    QColor fill = color;
    fill.setAlpha(40);
    g->setBrush(fill);
    g->setLineStyle(QCPGraph::lsStepCenter);
    const double n = double(c.samplesMs.size());
    for (int b = 0; b < kBins; ++b) {
      const double center =
          relative ? (edge(b) + edge(b + 1)) / 2 : std::sqrt(edge(b) * edge(b + 1));
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
                            .arg(formatNumber(edge(b), 4), formatNumber(edge(b + 1), 4),
                                 relative ? "%" : " ms"));
    }
    m_histograms << g;
  }
  hx->setRange(lo, hi);
  hy->setRange(0, peak > 0 ? peak * 1.15 : 1);
  p->legend->setVisible(!cases.isEmpty());
  if (cases.isEmpty()) showEmptyNote(p, emptyPlotReason(doc));
}

}  // namespace kwb::gui
