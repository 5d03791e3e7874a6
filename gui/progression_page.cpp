#include "progression_page.h"

#include <QLabel>
#include <algorithm>

#include "doc_queries.h"
#include "run_request.h"

namespace kwb::gui {

ProgressionPage::ProgressionPage(ResultsModel* model, QWidget* parent)
    : PlotPage(model, "Progression", parent) {
  controls()->addWidget(new QLabel("Shape:"));
  m_shape = new ShapeCombo(this);
  controls()->addWidget(m_shape);
  controls()->addStretch(1);
  connect(m_shape, &QComboBox::currentIndexChanged, this, [this] { rebuildNow(); });
}

void ProgressionPage::rebuild() {
  QCustomPlot* p = plot();
  p->clearPlottables();
  p->clearItems();
  m_bars = m_baselineBars = nullptr;
  m_violationMarks = 0;
  const RunDocument& doc = model()->document();
  m_shape->setShapes(shapesOf(doc));
  const auto shape = m_shape->currentShape();
  setPlotTitle(p, shape ? "GFLOP/s at " + QString::fromStdString(toString(*shape))
                        : QString("GFLOP/s per stage (no results)"));
  p->xAxis->setLabel("stage");
  p->yAxis->setLabel("GFLOP/s");
  if (!shape) return;

  const KernelCatalog& cat = model()->catalog();
  QList<KernelInfo> stages;
  for (const KernelInfo& k : cat.stages())
    if (doc.find(k.id.toStdString(), *shape)) stages << k;
  const auto& baseline = model()->baseline();

  QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
  m_bars = new QCPBars(p->xAxis, p->yAxis);
  m_bars->setName("this run");
  m_bars->setPen(QPen(QColor(0x1f, 0x4e, 0x89)));
  m_bars->setBrush(QColor(0x4a, 0x90, 0xd9));
  QCPBarsGroup* group = nullptr;
  if (baseline) {
    m_baselineBars = new QCPBars(p->xAxis, p->yAxis);
    m_baselineBars->setName("baseline");
    m_baselineBars->setPen(QPen(QColor(0x70, 0x70, 0x70)));
    m_baselineBars->setBrush(QColor(0xb0, 0xb0, 0xb0));
    group = new QCPBarsGroup(p);
    m_bars->setWidth(0.38);
    m_baselineBars->setWidth(0.38);
    m_bars->setBarsGroup(group);
    m_baselineBars->setBarsGroup(group);
  }
  double yMax = 0;
  const auto violations = progressionViolations(doc, cat);
  for (int i = 0; i < stages.size(); ++i) {
    const KernelInfo& k = stages[i];
    const double x = i + 1;
    ticker->addTick(x, QString("%1\n%2").arg(k.stage).arg(shortLabel(k)));
    const CaseResult* c = doc.find(k.id.toStdString(), *shape);
    if (c && hasSpeed(*c)) {
      m_bars->addData(x, c->gflops);
      yMax = std::max(yMax, c->gflops);
      QString tip = QString("%1 at %2\n%3 GFLOP/s (median %4 ms, %5 samples)\nstatus %6")
                        .arg(k.id, shapeText(*shape), formatNumber(c->gflops, 6),
                             formatNumber(c->summary.median, 5))
                        .arg(c->samplesMs.size())
                        .arg(statusText(c->status));
      QString label;
      if (const auto pct = pctLabel(*c)) {
        label = QString("%1%").arg(*pct, 0, 'f', *pct < 10 ? 1 : 0);
        if (c->precision != Precision::kFp32) label += " of FP16";
        tip += QString("\n%1 of the %2 reference")
                   .arg(label, c->precision == Precision::kFp32 ? "cuBLAS FP32" : "cuBLAS FP16");
      }
      if (!isGood(c->status)) label = statusText(c->status) + (label.isEmpty() ? "" : " " + label);
      tooltips()->add(p->xAxis, p->yAxis, x, c->gflops, tip);
      auto* text = new QCPItemText(p);
      text->position->setCoords(x, c->gflops);
      text->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
      text->setText(label);
      text->setPadding(QMargins(0, 0, 0, 3));
      text->setColor(isGood(c->status) ? Qt::black : statusColor(c->status));
    } else if (c) {
      auto* text = new QCPItemText(p);
      text->position->setCoords(x, 0);
      text->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
      text->setText(statusText(c->status));
      text->setColor(statusColor(c->status));
    }
    if (baseline) {
      if (const CaseResult* b = baseline->find(k.id.toStdString(), *shape); b && hasSpeed(*b)) {
        m_baselineBars->addData(x, b->gflops);
        yMax = std::max(yMax, b->gflops);
        tooltips()->add(p->xAxis, p->yAxis, x + 0.2, b->gflops,
                        QString("baseline %1 at %2\n%3 GFLOP/s")
                            .arg(k.id, shapeText(*shape), formatNumber(b->gflops, 6)));
      }
    }
    for (const auto& v : violations) {
      if (v.shape != *shape || QString::fromStdString(v.to) != k.id || !c) continue;
      ++m_violationMarks;
      auto* mark = new QCPItemText(p);
      mark->position->setCoords(x, c->gflops);
      mark->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
      mark->setPadding(QMargins(0, 0, 0, 20));
      // A drop inside the medians' confidence intervals is marked, but as the noise it may be.
      mark->setText(QString(v.withinNoise ? "▽ within noise of\n%1" : "▼ slower than\n%1")
                        .arg(shortLabel(cat.info(QString::fromStdString(v.from)))));
      // Two short lines stay over their own bar, clear of the neighbours.
      mark->setTextAlignment(Qt::AlignHCenter);
      mark->setColor(v.withinNoise ? QColor(0x80, 0x80, 0x80) : QColor(0xc0, 0x10, 0x10));
      mark->setFont(QFont(p->font().family(), 8, QFont::Bold));
    }
  }
  // References as horizontal lines across the stages, named with their GFLOP/s.
  const double x0 = 0.4, x1 = double(stages.size()) + 0.6;
  // The scale follows the stages and the FP32 reference; faster references (FP16, TF32 tensor
  // cores) stay in the legend with their values and are marked off scale, so bars stay readable.
  if (const CaseResult* fp32 = doc.find("cublas.sgemm", *shape); fp32 && hasSpeed(*fp32))
    yMax = std::max(yMax, fp32->gflops);
  const double yTop = yMax > 0 ? yMax * 1.25 : 1;
  QStringList offScale;
  int colorIndex = 3;
  for (const KernelInfo& r : cat.references()) {
    const CaseResult* c = doc.find(r.id.toStdString(), *shape);
    if (!c || !hasSpeed(*c)) continue;
    QCPGraph* g = p->addGraph();
    g->setName(QString("%1 (%2 GFLOP/s)").arg(r.name, QString::number(c->gflops, 'f', 0)));
    if (c->gflops > yTop)
      offScale << QString("%1 %2 GFLOP/s").arg(r.name, QString::number(c->gflops, 'f', 0));
    g->setPen(QPen(kernelColor(colorIndex++), 2, Qt::DashLine));
    g->setData({x0, x1}, {c->gflops, c->gflops});
    yMax = std::max(yMax, c->gflops);
    tooltips()->add(
        p->xAxis, p->yAxis, x1 - 0.1, c->gflops,
        QString("%1 at %2\n%3 GFLOP/s").arg(r.id, shapeText(*shape), formatNumber(c->gflops, 6)));
  }
  p->xAxis->setTicker(ticker);
  p->xAxis->setRange(x0, x1);
  p->yAxis->setRange(0, yTop);
  if (!offScale.isEmpty()) {
    auto* note = new QCPItemText(p);
    note->position->setType(QCPItemPosition::ptAxisRectRatio);
    note->position->setCoords(0.99, 0.01);
    note->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
    note->setText("↑ off scale: " + offScale.join(" · "));
    note->setColor(QColor(0x55, 0x55, 0x55));
  }
  p->legend->setVisible(true);
  p->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
  for (const QString& t : offScale) tooltips()->add(p->xAxis, p->yAxis, x1 - 0.1, yTop * 0.98, t);
}

}  // namespace kwb::gui
