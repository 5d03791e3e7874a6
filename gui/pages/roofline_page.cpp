// SPDX-License-Identifier: Apache-2.0
#include "pages/roofline_page.h"

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

// A kernel's cases on the plot (timed, with an intensity and a rate) in order of intensity.
// GEMM at its shape's intensity; reduce (1 add per 4-byte element, 0.25 FLOP/byte) and
// scan (1 add per 8 bytes, read and written) far left, under the bandwidth slope.
std::vector<const CaseResult*> pointsOf(const RunDocument& doc, const QString& id) {
  std::vector<const CaseResult*> points;
  for (const auto& c : doc.cases)
    if (c.kernel == id.toStdString() && hasSpeed(doc, c) && intensityOf(c) > 0 &&
        roofGflops(doc, c) > 0)
      points.push_back(&c);
  std::stable_sort(points.begin(), points.end(), [](const CaseResult* a, const CaseResult* b) {
    return intensityOf(*a) < intensityOf(*b);
  });
  return points;
}

// The bytes a memory-bound case moves, as its GB/s counts them (its declared minimum traffic).
double bytesMoved(const RunDocument& doc, const CaseResult& c) {
  return headline(doc, c) * 1e9 * c.summary.median * 1e-3;
}

constexpr double kMiB = 1024.0 * 1024.0;

}  // namespace

RooflinePage::RooflinePage(ResultsModel* model, QWidget* parent)
    : PlotPage(model, "Roofline", parent) {
  makeLogAxis(plot()->xAxis);
  makeLogAxis(plot()->yAxis);
  setPlotTitle(plot(), "Roofline");
  placeLegendOutside(plot());
}

// What one rebuild carries from step to step: the shapes (a marker each) and the intensities and
// GFLOP/s the points and roofs reach.
struct RooflinePage::Build {
  const RunDocument& doc;
  QList<CaseSize> shapes;
  std::map<CaseSize, int> shapeIndex{};
  double xMin = 1e300, xMax = 0, yMin = 1e300, yMax = 0;
  bool anyFallback = false;
  bool anyVector = false;
  double x0 = 0, x1 = 0;  // the intensity axis
};

void RooflinePage::rebuild() {
  QCustomPlot* p = plot();
  p->clearPlottables();
  p->clearItems();
  m_roofs = 0;
  m_slope = m_copySlope = nullptr;
  const RunDocument& doc = model()->document();
  m_bandwidthView = memoryBoundDocument(doc);
  makeLogAxis(p->xAxis);
  makeLogAxis(p->yAxis);
  if (m_bandwidthView) {
    rebuildBandwidth(doc);
    return;
  }
  setPlotTitle(p, doc.device ? "Roofline — " + QString::fromStdString(doc.device->name)
                             : QString("Roofline (no device recorded)"));
  p->xAxis->setLabel("arithmetic intensity (FLOP per byte of the minimum traffic, log)");
  p->yAxis->setLabel("GFLOP/s (log)");
  Build b{doc, sizesOf(doc)};
  for (int i = 0; i < b.shapes.size(); ++i) b.shapeIndex.emplace(b.shapes[i], i);
  for (const QString& id : shownKernels(doc)) addKernel(b, id, kernelColor(id));
  const bool anyPoint = b.xMax > 0;
  if (!anyPoint) b.xMin = 1, b.xMax = 1000, b.yMin = 1, b.yMax = 1000;
  b.x0 = std::max(1e-2, b.xMin / 10);
  b.x1 = b.xMax * 10;
  // Memory-bound families (reduce, scan) sit far left of the ridge: the axis reaches past the
  // FP32 ridge, so the picture shows how far below the compute roof a memory-bound case is.
  b.anyVector = std::any_of(doc.cases.begin(), doc.cases.end(),
                            [&](const CaseResult& c) { return memoryBound(doc, c); });
  if (anyPoint && b.anyVector && doc.device && doc.device->peakBandwidthGBs > 0)
    b.x1 = std::max(b.x1, 2 * doc.device->peakFp32Tflops * 1000 / doc.device->peakBandwidthGBs);
  if (anyPoint && doc.device && doc.device->peakBandwidthGBs > 0) addRoofs(b, *doc.device);
  addMarkerKeys(b, anyPoint);
  if (!anyPoint) showEmptyNote(p, emptyPlotReason(doc));
  p->xAxis->setRange(b.x0, b.x1);
  p->yAxis->setRange(std::max(1e-3, b.yMin / 3), b.yMax * 3);
  fitRateUnit(p->yAxis, "GFLOP/s");
}

void RooflinePage::addKernel(Build& b, const QString& id, const QColor& color) {
  const QString name = shortLabel(model()->catalog().info(id));
  // One graph per marker (shape) and fill; the first is the kernel's legend entry. Points
  // in order of intensity, so each graph's error bars (the medians' CIs) line up with them.
  std::map<std::pair<int, bool>, QCPGraph*> graphs;
  std::map<QCPGraph*, std::pair<QVector<double>, QVector<double>>> errors;
  QCPGraph* legendEntry = nullptr;
  for (const CaseResult* cp : pointsOf(b.doc, id)) {
    const CaseResult& c = *cp;
    const bool fallback = isFallback(c);
    b.anyFallback |= fallback;
    const int m = b.shapeIndex[c.size] % kMarkerCount;
    QCPGraph*& g = graphs[{m, fallback}];
    if (!g) {
      g = addMarkerGraph(plot(), name, marker(m, color, fallback));
      g->setProperty("series", id);
      g->setPen(QPen(color));
      if (legendEntry) g->removeFromLegend();
      if (!legendEntry) legendEntry = g;
    }
    addPoint(b, g, c, id, errors[g]);
  }
  for (const auto& [g, e] : errors) addErrorBars(g, e.first, e.second);
  // The legend shows the kernel's colour as a disc, whatever its first shape's marker.
  if (legendEntry && b.shapes.size() > 1) legendEntry->setScatterStyle(marker(0, color, false));
}

void RooflinePage::addPoint(Build& b, QCPGraph* g, const CaseResult& c, const QString& id,
                            std::pair<QVector<double>, QVector<double>>& errors) {
  QCustomPlot* p = plot();
  const double ai = intensityOf(c);
  const double y = roofGflops(b.doc, c);
  g->addData(ai, y);
  // The CI of the headline (GFLOP/s, or GB/s for memory-bound families) scaled onto this axis.
  const Range ci = gflopsCi(b.doc, c);
  const double v = headline(b.doc, c);
  const double scale = v > 0 ? y / v : 1.0;
  errors.first << y - ci.low * scale;
  errors.second << ci.high * scale - y;
  b.xMin = std::min(b.xMin, ai), b.xMax = std::max(b.xMax, ai);
  b.yMin = std::min(b.yMin, y), b.yMax = std::max(b.yMax, y);
  const double gbs = memoryBound(b.doc, c) ? v : c.bandwidthGBs;
  tooltips()->add(p->xAxis, p->yAxis, ai, y,
                  QString("%1 at %2%3\n%4 GFLOP/s · %5 FLOP/byte · %6 GB/s")
                      .arg(id, sizeName(c), isFallback(c) ? " — FP32 fallback" : "",
                           formatNumber(y, 6), formatNumber(ai, 4), formatNumber(gbs, 5)));
}

void RooflinePage::addRoofs(Build& b, const DeviceInfo& d) {
  const double bw = d.peakBandwidthGBs;
  const double topPeak =
      std::max({d.peakFp32Tflops, d.peakTf32TensorTflops, d.peakFp16TensorTflops}) * 1000;
  // The memory slope up to the highest roof's ridge, in its own colour and style.
  m_slope = plot()->addGraph();
  m_slope->setName(QString("memory: %1 GB/s × FLOP/byte").arg(formatNumber(bw, 5)));
  m_slope->setPen(QPen(QColor(0x6a, 0x6a, 0x6a), 2, Qt::DotLine));
  const double slopeEnd = std::min(b.x1, topPeak / bw);
  m_slope->setData({b.x0, slopeEnd}, {bw * b.x0, bw * slopeEnd}, true);
  b.yMin = std::min(b.yMin, bw * b.x0);
  // The measured copy bandwidth beside the peak: the roof the memory-bound families reach.
  if (const double copy = d.copyBandwidthGBs; copy > 0) addCopySlope(b, copy, bw, topPeak);
  addRoof(b, "FP32", d.peakFp32Tflops * 1000, bw, Qt::SolidLine);
  addRoof(b, "TF32 tensor", d.peakTf32TensorTflops * 1000, bw, Qt::DashDotLine);
  addRoof(b, "FP16 tensor", d.peakFp16TensorTflops * 1000, bw, Qt::DashLine);
}

void RooflinePage::addCopySlope(Build& b, double copy, double bw, double topPeak) {
  m_copySlope = plot()->addGraph();
  m_copySlope->setName(QString("measured copy: %1 GB/s × FLOP/byte").arg(formatNumber(copy, 5)));
  m_copySlope->setPen(QPen(QColor(0x2a, 0x7a, 0x9a), 2, Qt::DashDotLine));
  const double end = std::min(b.x1, topPeak / copy);
  m_copySlope->setData({b.x0, end}, {copy * b.x0, copy * end}, true);
  b.yMin = std::min(b.yMin, copy * b.x0);
  tooltips()->add(plot()->xAxis, plot()->yAxis, b.x0 * 2, copy * b.x0 * 2,
                  QString("device-to-device copy measured at run start: %1 GB/s (%2% of the "
                          "%3 GB/s peak)")
                      .arg(formatNumber(copy, 5))
                      .arg(100 * copy / bw, 0, 'f', 0)
                      .arg(formatNumber(bw, 5)));
}

void RooflinePage::addRoof(Build& b, const QString& name, double peakGflops, double bw,
                           Qt::PenStyle style) {
  // With reduce or scan cases, a roof whose ridge is right of the axis (the tensor-core
  // roofs) is not drawn, nor does it stretch the GFLOP/s axis.
  if (peakGflops <= 0 || (b.anyVector && peakGflops / bw >= b.x1)) return;
  QCPGraph* g = plot()->addGraph();
  g->setName(QString("%1 peak %2").arg(name, rateText(peakGflops, "GFLOP/s")));
  g->setPen(QPen(ink(), 2, style));
  const double ridge = peakGflops / bw;
  g->setData({std::max(ridge, b.x0), b.x1}, {peakGflops, peakGflops}, true);
  b.yMax = std::max(b.yMax, peakGflops);
  tooltips()->add(
      plot()->xAxis, plot()->yAxis, std::max(ridge, b.x0), peakGflops,
      QString("%1 peak %2 GFLOP/s\nridge at %3 FLOP/byte (bandwidth %4 GB/s)")
          .arg(name, formatNumber(peakGflops, 6), formatNumber(ridge, 4), formatNumber(bw, 5)));
  ++m_roofs;
}

void RooflinePage::addMarkerKeys(const Build& b, bool anyPoint) {
  if (b.anyFallback)
    addMarkerGraph(plot(), "hollow: → FP32 fallback, not a tensor-core result",
                   marker(0, Qt::darkGray, true));
  // A key of the markers when they tell shapes apart.
  if (b.shapes.size() > 1 && b.shapes.size() <= kMarkerCount && anyPoint)
    for (int i = 0; i < b.shapes.size(); ++i)
      addMarkerGraph(plot(), sizeName(b.shapes[i]), marker(i, Qt::darkGray, false))
          ->setProperty("series", "shape " + sizeName(b.shapes[i]));
}

void RooflinePage::rebuildBandwidth(const RunDocument& doc) {
  QCustomPlot* p = plot();
  // Short: the title spans the plot's column only, beside the legend (the device is named in
  // the panel and on the report's first page).
  setPlotTitle(p, "Memory roofline: GB/s against the bytes each case moves");
  p->xAxis->setLabel("bytes moved: the family's minimum traffic (MiB, log)");
  makeLinearAxis(p->yAxis);
  p->yAxis->setLabel("GB/s");
  double xMin = 1e300, xMax = 0, yMax = 0;
  for (const QString& id : shownKernels(doc)) {
    const QColor color = kernelColor(id);
    QCPGraph* g = addMarkerGraph(p, shortLabel(model()->catalog().info(id)),
                                 QCPScatterStyle(QCPScatterStyle::ssDisc, color, 8));
    g->setProperty("series", id);
    g->setPen(QPen(color));
    std::multimap<double, const CaseResult*> points;
    for (const auto& c : doc.cases)
      if (c.kernel == id.toStdString() && hasSpeed(doc, c))
        points.emplace(bytesMoved(doc, c) / kMiB, &c);
    QVector<double> lo, hi;
    for (const auto& [x, c] : points) {
      const double v = headline(doc, *c);
      const Range ci = gflopsCi(doc, *c);
      g->addData(x, v);
      lo << v - ci.low;
      hi << ci.high - v;
      xMin = std::min(xMin, x), xMax = std::max(xMax, x), yMax = std::max(yMax, ci.high);
      tooltips()->add(p->xAxis, p->yAxis, x, v,
                      QString("%1 at %2\n%3 GB/s (95% CI %4–%5) · %6 MiB moved in %7 ms")
                          .arg(id, sizeName(*c), formatNumber(v, 5), formatNumber(ci.low, 5),
                               formatNumber(ci.high, 5), formatNumber(x, 4),
                               formatNumber(c->summary.median, 4)));
    }
    if (points.empty())
      p->removeGraph(g);
    else
      addErrorBars(g, lo, hi);
  }
  if (xMax <= 0) {
    showEmptyNote(p, emptyPlotReason(doc));
    return;
  }
  xMin /= 3, xMax *= 3;
  addBandwidthRoofs(doc, xMin, xMax, yMax);
  p->xAxis->setRange(xMin, xMax);
  p->yAxis->setRange(0, yMax * 1.12);
}

void RooflinePage::addBandwidthRoofs(const RunDocument& doc, double xMin, double xMax,
                                     double& yMax) {
  if (!doc.device) return;
  QCustomPlot* p = plot();
  const DeviceInfo& d = *doc.device;
  auto roof = [&](const QString& name, double gbs, const QPen& pen) {
    if (gbs <= 0) return static_cast<QCPGraph*>(nullptr);
    QCPGraph* g = p->addGraph();
    g->setName(QString("%1: %2").arg(name, rateText(gbs, "GB/s")));
    g->setPen(pen);
    g->setData({xMin, xMax}, {gbs, gbs}, true);
    yMax = std::max(yMax, gbs);
    return g;
  };
  m_slope = roof("peak", d.peakBandwidthGBs, QPen(ink(), 2, Qt::DotLine));
  m_copySlope = roof("copy (measured)", d.copyBandwidthGBs,
                     QPen(QColor(0x2a, 0x7a, 0x9a), 2, Qt::DashDotLine));
  if (d.l2Bytes <= 0) return;
  // The L2's capacity: left of it a working set may be served from L2, faster than DRAM.
  const double l2 = double(d.l2Bytes) / kMiB;
  if (l2 < xMin || l2 > xMax) return;
  QCPGraph* g = p->addGraph();
  g->setName(QString("L2: %1 MiB").arg(formatNumber(l2, 3)));
  g->setPen(QPen(QColor(0x99, 0x66, 0x00), 1.5, Qt::DashLine));
  g->setData({l2, l2}, {0, yMax * 1.12}, true);
  g->setProperty("role", "l2");
}

}  // namespace kwb::gui
