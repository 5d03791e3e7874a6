#include "scaling_page.h"

#include <algorithm>
#include <map>

#include "doc_queries.h"
#include "run_request.h"

namespace kwb::gui {

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

void ScalingPage::rebuild() {
  QCustomPlot* p = plot();
  p->clearPlottables();
  setPlotTitle(p, "GFLOP/s against problem size");
  p->xAxis->setLabel("size (∛(M·N·K))");
  p->yAxis->setLabel("GFLOP/s");
  if (m_logY->isChecked())
    makeLogAxis(p->yAxis);
  else {
    p->yAxis->setScaleType(QCPAxis::stLinear);
    p->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    p->yAxis->setNumberFormat("g");
  }
  const KernelCatalog& cat = model()->catalog();
  double xMin = 1e300, xMax = 0, yMin = 1e300, yMax = 0;
  auto addSeries = [&](const RunDocument& doc, const QString& id, int color, bool baseline) {
    std::multimap<double, const CaseResult*> points;
    for (const auto& c : doc.cases)
      if (c.kernel == id.toStdString() && hasSpeed(c)) points.emplace(sizeOf(c.shape), &c);
    if (points.empty()) return;
    QCPGraph* g = p->addGraph();
    const KernelInfo k = cat.info(id);
    g->setName(baseline ? k.id + " (baseline)" : k.id);
    QPen pen(kernelColor(color), baseline ? 1.5 : 2, baseline ? Qt::DashLine : Qt::SolidLine);
    g->setPen(pen);
    g->setScatterStyle(
        QCPScatterStyle(baseline ? QCPScatterStyle::ssCircle : QCPScatterStyle::ssDisc, 6));
    for (const auto& [x, c] : points) {
      g->addData(x, c->gflops);
      xMin = std::min(xMin, x), xMax = std::max(xMax, x);
      yMin = std::min(yMin, c->gflops), yMax = std::max(yMax, c->gflops);
      tooltips()->add(p->xAxis, p->yAxis, x, c->gflops,
                      QString("%1%2 at %3\n%4 GFLOP/s · median %5 ms")
                          .arg(k.id, baseline ? " (baseline)" : "", shapeText(c->shape),
                               formatNumber(c->gflops, 6), formatNumber(c->summary.median, 5)));
    }
  };
  const QList<QString> ids = kernelsOf(model()->document(), cat);
  for (int i = 0; i < ids.size(); ++i) addSeries(model()->document(), ids[i], i, false);
  if (const auto& b = model()->baseline()) {
    const QList<QString> bids = kernelsOf(*b, cat);
    for (const QString& id : bids)
      addSeries(*b, id, ids.contains(id) ? int(ids.indexOf(id)) : int(ids.size()), true);
  }
  if (xMax > 0) {
    p->xAxis->setRange(xMin / 1.4, xMax * 1.4);
    if (m_logY->isChecked())
      p->yAxis->setRange(yMin / 2, yMax * 2);
    else
      p->yAxis->setRange(0, yMax * 1.1);
  }
}

}  // namespace kwb::gui
