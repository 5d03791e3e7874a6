#include "pages/roofline_page.h"

#include <QLocale>
#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "kwb/shape.h"
#include "model/case_size.h"
#include "model/doc_queries.h"
#include "model/run_request.h"

namespace kwb::gui {
namespace {

// Markers by shape (in order of first appearance); beyond eight shapes they repeat.
const QCPScatterStyle::ScatterShape kMarkers[] = {QCPScatterStyle::ssDisc,
                                                  QCPScatterStyle::ssSquare,
                                                  QCPScatterStyle::ssDiamond,
                                                  QCPScatterStyle::ssTriangle,
                                                  QCPScatterStyle::ssTriangleInverted,
                                                  QCPScatterStyle::ssCross,
                                                  QCPScatterStyle::ssPlus,
                                                  QCPScatterStyle::ssStar};
constexpr int kMarkerCount = int(sizeof kMarkers / sizeof kMarkers[0]);

QCPScatterStyle marker(int shapeIndex, QColor color, bool hollow) {
  auto shape = kMarkers[shapeIndex % kMarkerCount];
  if (hollow && shape == QCPScatterStyle::ssDisc) shape = QCPScatterStyle::ssCircle;
  return QCPScatterStyle(shape, QPen(color, 1.6), hollow ? QBrush(Qt::white) : QBrush(color), 9);
}

QString gflopsText(double v) { return QLocale::c().toString(v, 'f', 0) + " GFLOP/s"; }

}  // namespace

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
  m_slope = m_copySlope = nullptr;
  const RunDocument& doc = model()->document();
  const KernelLookup& cat = model()->catalog();
  setPlotTitle(p, doc.device ? "Roofline — " + QString::fromStdString(doc.device->name)
                             : QString("Roofline (no device recorded)"));
  p->xAxis->setLabel("arithmetic intensity (FLOP per byte of the minimum traffic, log)");
  p->yAxis->setLabel("GFLOP/s (log)");
  double xMin = 1e300, xMax = 0, yMin = 1e300, yMax = 0;
  const QList<QString> all = kernelsOf(doc, cat);
  const QList<Shape> shapes = shapesOf(doc);
  std::map<Shape, int> shapeIndex;
  for (int i = 0; i < shapes.size(); ++i) shapeIndex.emplace(shapes[i], i);
  bool anyFallback = false;
  for (const QString& id : shownKernels(doc)) {
    const QColor color = kernelColor(int(all.indexOf(id)));
    const QString name = shortLabel(cat.info(id));
    // One graph per marker (shape) and fill; the first is the kernel's legend entry. Points
    // in order of intensity, so each graph's error bars (the medians' CIs) line up with them.
    std::map<std::pair<int, bool>, QCPGraph*> graphs;
    std::map<QCPGraph*, std::pair<QVector<double>, QVector<double>>> errors;
    QCPGraph* legendEntry = nullptr;
    // GEMM at its shape's intensity; reduce (1 add per 4-byte element, 0.25 FLOP/byte) and
    // scan (1 add per 8 bytes, read and written) far left, under the bandwidth slope.
    auto intensity = [](const CaseResult& c) { return intensityOf(c); };
    std::vector<const CaseResult*> points;
    for (const auto& c : doc.cases)
      if (c.kernel == id.toStdString() && hasSpeed(c) && intensityOf(c) > 0 && roofGflops(c) > 0)
        points.push_back(&c);
    std::stable_sort(points.begin(), points.end(), [&](const CaseResult* a, const CaseResult* b) {
      return intensity(*a) < intensity(*b);
    });
    for (const CaseResult* cp : points) {
      const CaseResult& c = *cp;
      const bool fallback = isFallback(c);
      anyFallback |= fallback;
      const int m = shapeIndex[sizeKey(c)] % kMarkerCount;
      QCPGraph*& g = graphs[{m, fallback}];
      if (!g) {
        g = p->addGraph();
        g->setName(name);
        g->setProperty("series", id);
        g->setLineStyle(QCPGraph::lsNone);
        g->setPen(QPen(color));
        g->setScatterStyle(marker(m, color, fallback));
        if (legendEntry) g->removeFromLegend();
        if (!legendEntry) legendEntry = g;
      }
      const double ai = intensity(c);
      const double y = roofGflops(c);
      g->addData(ai, y);
      // The CI of the headline (GFLOP/s, or GB/s for 1-D cases) scaled onto this axis.
      const Range ci = gflopsCi(c);
      const double scale = headline(c) > 0 ? y / headline(c) : 1.0;
      errors[g].first << y - ci.low * scale;
      errors[g].second << ci.high * scale - y;
      xMin = std::min(xMin, ai), xMax = std::max(xMax, ai);
      yMin = std::min(yMin, y), yMax = std::max(yMax, y);
      const double gbs = isVectorCase(c) ? headline(c) : c.bandwidthGBs;
      tooltips()->add(p->xAxis, p->yAxis, ai, y,
                      QString("%1 at %2%3\n%4 GFLOP/s · %5 FLOP/byte · %6 GB/s")
                          .arg(id, sizeText(c), fallback ? " — FP32 fallback" : "",
                               formatNumber(y, 6), formatNumber(ai, 4), formatNumber(gbs, 5)));
    }
    for (const auto& [g, e] : errors) {
      auto* bars = new QCPErrorBars(p->xAxis, p->yAxis);
      bars->setDataPlottable(g);
      bars->setData(e.first, e.second);
      bars->setPen(QPen(color, 1));
      bars->setWhiskerWidth(5);
      bars->setProperty("series", id);
      bars->removeFromLegend();
    }
    // The legend shows the kernel's colour as a disc, whatever its first shape's marker.
    if (legendEntry && shapes.size() > 1) legendEntry->setScatterStyle(marker(0, color, false));
  }
  const bool anyPoint = xMax > 0;
  if (!anyPoint) xMin = 1, xMax = 1000, yMin = 1, yMax = 1000;
  const double x0 = std::max(1e-2, xMin / 10);
  double x1 = xMax * 10;
  // Reduce and scan sit far left of the ridge: the axis reaches past the FP32 ridge, so the
  // picture shows how far below the compute roof a memory-bound case is.
  const bool anyVector = std::any_of(doc.cases.begin(), doc.cases.end(),
                                     [](const CaseResult& c) { return isVectorCase(c); });
  if (anyPoint && anyVector && doc.device && doc.device->peakBandwidthGBs > 0)
    x1 = std::max(x1, 2 * doc.device->peakFp32Tflops * 1000 / doc.device->peakBandwidthGBs);
  if (anyPoint && doc.device && doc.device->peakBandwidthGBs > 0) {
    const DeviceInfo& d = *doc.device;
    const double bw = d.peakBandwidthGBs;
    const double topPeak =
        std::max({d.peakFp32Tflops, d.peakTf32TensorTflops, d.peakFp16TensorTflops}) * 1000;
    // The memory slope up to the highest roof's ridge, in its own colour and style.
    m_slope = p->addGraph();
    m_slope->setName(QString("memory: %1 GB/s × FLOP/byte").arg(formatNumber(bw, 5)));
    m_slope->setPen(QPen(QColor(0x6a, 0x6a, 0x6a), 2, Qt::DotLine));
    const double slopeEnd = std::min(x1, topPeak / bw);
    m_slope->setData({x0, slopeEnd}, {bw * x0, bw * slopeEnd}, true);
    yMin = std::min(yMin, bw * x0);
    auto addRoof = [&](const QString& name, double peakGflops, Qt::PenStyle style) {
      // With reduce or scan cases, a roof whose ridge is right of the axis (the tensor-core
      // roofs) is not drawn, nor does it stretch the GFLOP/s axis.
      if (peakGflops <= 0 || (anyVector && peakGflops / bw >= x1)) return;
      QCPGraph* g = p->addGraph();
      g->setName(QString("%1 peak %2").arg(name, gflopsText(peakGflops)));
      g->setPen(QPen(ink(), 2, style));
      const double ridge = peakGflops / bw;
      g->setData({std::max(ridge, x0), x1}, {peakGflops, peakGflops}, true);
      yMax = std::max(yMax, peakGflops);
      tooltips()->add(
          p->xAxis, p->yAxis, std::max(ridge, x0), peakGflops,
          QString("%1 peak %2 GFLOP/s\nridge at %3 FLOP/byte (bandwidth %4 GB/s)")
              .arg(name, formatNumber(peakGflops, 6), formatNumber(ridge, 4), formatNumber(bw, 5)));
      ++m_roofs;
    };
    // The measured copy bandwidth beside the peak: the roof the memory-bound families reach.
    if (const double copy = d.copyBandwidthGBs; copy > 0) {
      m_copySlope = p->addGraph();
      m_copySlope->setName(
          QString("measured copy: %1 GB/s × FLOP/byte").arg(formatNumber(copy, 5)));
      m_copySlope->setPen(QPen(QColor(0x2a, 0x7a, 0x9a), 2, Qt::DashDotLine));
      const double end = std::min(x1, topPeak / copy);
      m_copySlope->setData({x0, end}, {copy * x0, copy * end}, true);
      yMin = std::min(yMin, copy * x0);
      tooltips()->add(p->xAxis, p->yAxis, x0 * 2, copy * x0 * 2,
                      QString("device-to-device copy measured at run start: %1 GB/s (%2% of the "
                              "%3 GB/s peak)")
                          .arg(formatNumber(copy, 5))
                          .arg(100 * copy / bw, 0, 'f', 0)
                          .arg(formatNumber(bw, 5)));
    }
    addRoof("FP32", d.peakFp32Tflops * 1000, Qt::SolidLine);
    addRoof("TF32 tensor", d.peakTf32TensorTflops * 1000, Qt::DashDotLine);
    addRoof("FP16 tensor", d.peakFp16TensorTflops * 1000, Qt::DashLine);
  }
  if (anyFallback) {
    QCPGraph* g = p->addGraph();
    g->setName("hollow: → FP32 fallback, not a tensor-core result");
    g->setLineStyle(QCPGraph::lsNone);
    g->setScatterStyle(marker(0, Qt::darkGray, true));
  }
  // A key of the markers when they tell shapes apart.
  if (shapes.size() > 1 && shapes.size() <= kMarkerCount && anyPoint)
    for (int i = 0; i < shapes.size(); ++i) {
      QCPGraph* g = p->addGraph();
      g->setName(sizeKeyText(shapes[i]));
      g->setProperty("series", "shape " + sizeKeyText(shapes[i]));
      g->setLineStyle(QCPGraph::lsNone);
      g->setScatterStyle(marker(i, Qt::darkGray, false));
    }
  if (!anyPoint) showEmptyNote(p, emptyPlotReason(doc));
  p->xAxis->setRange(x0, x1);
  p->yAxis->setRange(std::max(1e-3, yMin / 3), yMax * 3);
}

}  // namespace kwb::gui
