#include "roofline_page.h"

#include <algorithm>
#include <cmath>

#include "doc_queries.h"
#include "run_request.h"

namespace kwb::gui {

RooflinePage::RooflinePage(ResultsModel* model, QWidget* parent)
    : PlotPage(model, "Roofline", parent) {
  makeLogAxis(plot()->xAxis);
  makeLogAxis(plot()->yAxis);
  setPlotTitle(plot(), "Roofline");
  placeLegendOutside(plot());
}

void RooflinePage::rebuild() {
  QCustomPlot* p = plot();
  p->clearPlottables();
  p->clearItems();
  m_roofs = 0;
  const RunDocument& doc = model()->document();
  const KernelCatalog& cat = model()->catalog();
  setPlotTitle(p, doc.device ? "Roofline — " + QString::fromStdString(doc.device->name)
                             : QString("Roofline (no device recorded)"));
  p->xAxis->setLabel("arithmetic intensity (FLOP/byte)");
  p->yAxis->setLabel("GFLOP/s");
  double xMin = 1e300, xMax = 0, yMin = 1e300, yMax = 0;
  const QList<QString> ids = kernelsOf(doc, cat);
  for (int i = 0; i < ids.size(); ++i) {
    QCPGraph* g = nullptr;
    for (const auto& c : doc.cases) {
      if (c.kernel != ids[i].toStdString() || !hasSpeed(c)) continue;
      const double elem = c.precision == Precision::kFp16Fp32Acc ? 2.0 : 4.0;
      const double ai = c.arithmeticIntensity > 0 ? c.arithmeticIntensity
                                                  : c.shape.flops() / c.shape.minBytes(elem);
      if (!g) {
        g = p->addGraph();
        g->setName(ids[i]);
        g->setLineStyle(QCPGraph::lsNone);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, kernelColor(i), 8));
      }
      g->addData(ai, c.gflops);
      xMin = std::min(xMin, ai), xMax = std::max(xMax, ai);
      yMin = std::min(yMin, c.gflops), yMax = std::max(yMax, c.gflops);
      tooltips()->add(p->xAxis, p->yAxis, ai, c.gflops,
                      QString("%1 at %2\n%3 GFLOP/s · %4 FLOP/byte · %5 GB/s")
                          .arg(ids[i], shapeText(c.shape), formatNumber(c.gflops, 6),
                               formatNumber(ai, 4), formatNumber(c.bandwidthGBs, 5)));
    }
  }
  if (xMax == 0) xMin = 1, xMax = 1000, yMin = 1, yMax = 1000;
  const double x0 = std::max(1e-2, xMin / 10), x1 = xMax * 10;
  if (doc.device && doc.device->peakBandwidthGBs > 0) {
    const DeviceInfo& d = *doc.device;
    const double bw = d.peakBandwidthGBs;
    auto addRoof = [&](const QString& name, double peakGflops, QColor color) {
      if (peakGflops <= 0) return;
      QCPGraph* g = p->addGraph();
      g->setName(QString("%1 roof %2 TFLOP/s").arg(name, formatNumber(peakGflops / 1000, 4)));
      g->setPen(QPen(color, 2));
      const double ridge = peakGflops / bw;
      QVector<double> xs{x0}, ys{bw * x0};
      if (ridge > x0 && ridge < x1) xs << ridge, ys << peakGflops;
      xs << x1, ys << std::min(peakGflops, bw * x1);
      g->setData(xs, ys, true);
      yMax = std::max(yMax, peakGflops);
      tooltips()->add(
          p->xAxis, p->yAxis, std::max(ridge, x0), std::min(peakGflops, bw * std::max(ridge, x0)),
          QString("%1 peak %2 GFLOP/s\nridge at %3 FLOP/byte (bandwidth %4 GB/s)")
              .arg(name, formatNumber(peakGflops, 6), formatNumber(ridge, 4), formatNumber(bw, 5)));
      ++m_roofs;
    };
    addRoof("FP32", d.peakFp32Tflops * 1000, QColor(0x20, 0x20, 0x20));
    addRoof("FP16 tensor", d.peakFp16TensorTflops * 1000, QColor(0x99, 0x33, 0x00));
    auto* label = new QCPItemText(p);
    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    label->position->setCoords(x0 * 2, bw * x0 * 2 / 1.2);
    label->setText(QString("%1 GB/s").arg(formatNumber(bw, 5)));
    label->setColor(QColor(0x40, 0x40, 0x40));
    yMin = std::min(yMin, bw * x0);
  }
  p->xAxis->setRange(x0, x1);
  p->yAxis->setRange(std::max(1e-3, yMin / 3), yMax * 3);
}

}  // namespace kwb::gui
