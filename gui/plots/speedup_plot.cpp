// SPDX-License-Identifier: Apache-2.0
#include "plots/speedup_plot.h"

#include <algorithm>
#include <map>

#include "model/case_size.h"
#include "model/doc_queries.h"
#include "plots/plot_helpers.h"

namespace kwb::gui {

double speedupOf(double change) { return 1.0 / (1.0 + change); }

SpeedupPlot::SpeedupPlot(QWidget* parent) : QCustomPlot(parent) {
  setupPlot(this);
  setMinimumSize(400, 220);
  setPlotTitle(this, "Speedup against the baseline");
  placeLegendOutside(this);
}

QCPGraph* SpeedupPlot::lineOf(const QString& kernel) const {
  for (int i = 0; i < graphCount(); ++i)
    if (graph(i)->property("series").toString() == kernel) return graph(i);
  return nullptr;
}

void SpeedupPlot::draw(const RunComparison& all, const QList<CaseSize>& sizes,
                       const KernelLookup& catalog, const QList<QString>& kernels) {
  clearPlottables();
  clearItems();
  // The x position of each size compared, in the document's order.
  std::map<CaseSize, int> column;
  for (const CaseSize& s : sizes)
    for (const auto& r : all.cases)
      if (r.caseSize == s && !column.count(s)) column.emplace(s, int(column.size()) + 1);
  std::map<QString, std::vector<const CaseComparison*>> byKernel;
  for (const auto& r : all.cases)
    if (kernels.contains(QString::fromStdString(r.kernel)) && column.count(r.caseSize))
      byKernel[QString::fromStdString(r.kernel)].push_back(&r);
  double lo = 0.97, hi = 1.03;  // the SAME band in view at least
  for (const QString& id : kernels) {
    if (!byKernel.count(id)) continue;
    auto& rows = byKernel[id];
    std::sort(rows.begin(), rows.end(),
              [&](auto* a, auto* b) { return column[a->caseSize] < column[b->caseSize]; });
    QCPGraph* g = addGraph();
    g->setProperty("series", id);
    g->setName(shortLabel(catalog.info(id)));
    g->setPen(QPen(kernelColor(id), 2));
    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 6));
    QVector<double> below, above;
    for (const CaseComparison* r : rows) {
      const double x = column[r->caseSize], v = speedupOf(r->change);
      const double vLo = speedupOf(r->changeCi.high), vHi = speedupOf(r->changeCi.low);
      g->addData(x, v);
      below << std::max(0.0, v - vLo);
      above << std::max(0.0, vHi - v);
      lo = std::min(lo, vLo), hi = std::max(hi, vHi);
    }
    addErrorBars(g, below, above);
  }
  // The SAME band (±2% in time) and no change.
  auto* band = new QCPItemRect(this);
  band->topLeft->setCoords(0, speedupOf(-0.02));
  band->bottomRight->setCoords(double(column.size()) + 1, speedupOf(0.02));
  band->setPen(Qt::NoPen);
  band->setBrush(QColor(0x80, 0x80, 0x80, 40));
  band->setLayer("background");
  QCPGraph* one = addGraph();
  one->setName("1× (no change); grey band: SAME (±2%)");
  one->setPen(QPen(QColor(0x40, 0x40, 0x40), 1, Qt::DashLine));
  one->setData({0.5, double(column.size()) + 0.5}, {1, 1});
  QList<QPair<double, QString>> ticks;
  for (const auto& [s, x] : column) ticks << QPair<double, QString>{double(x), sizeName(s, false)};
  std::sort(ticks.begin(), ticks.end());
  setCategoryTicks(xAxis, ticks);
  makeLinearAxis(yAxis);
  yAxis->setLabel("speedup: baseline time ÷ this run's (above 1: faster)");
  xAxis->setRange(0.5, double(column.size()) + 0.5);
  const double pad = (hi - lo) * 0.1;
  yAxis->setRange(lo - pad, hi + pad);
  setPlotTitle(this, all.crossDevice
                         ? "Speedup against the baseline — CROSS-DEVICE: another GPU model, not "
                           "a change of the code alone"
                         : "Speedup against the baseline per size, 95% intervals");
  legend->setVisible(graphCount() > 1);
  replot();
}

}  // namespace kwb::gui
