// SPDX-License-Identifier: Apache-2.0
// The Scaling page's sweep views: a line per kernel along one of M, N, K with the other two
// fixed, and the heat map of a 2-D sweep of M × N at one K.
#include <QFileInfo>
#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <vector>

#include "model/doc_queries.h"
#include "pages/scaling_build.h"
#include "pages/scaling_page.h"

namespace kwb::gui {
namespace {

using Dims = std::tuple<std::int64_t, std::int64_t, std::int64_t>;

// The other two dimensions of a shape, with `axis` (0 M, 1 N, 2 K) left out.
std::pair<std::int64_t, std::int64_t> fixedOf(const Shape& s, int axis) {
  return axis == 0 ? std::pair{s.n, s.k} : axis == 1 ? std::pair{s.m, s.k} : std::pair{s.m, s.n};
}

QList<Shape> gemmShapes(const RunDocument& doc) {
  std::set<Dims> seen;
  QList<Shape> out;
  for (const auto& c : doc.cases)
    if (isGemm(c.size) && seen.insert({c.shape().m, c.shape().n, c.shape().k}).second)
      out << c.shape();
  return out;
}

// The longest run of shapes along `axis` that share the other two dimensions.
int longestSweep(const QList<Shape>& shapes, int axis) {
  std::map<std::pair<std::int64_t, std::int64_t>, int> n;
  int best = 0;
  for (const Shape& s : shapes) best = std::max(best, ++n[fixedOf(s, axis)]);
  return best;
}

// The K of the largest M × N grid (at least 2 × 2), or 0.
std::int64_t heatMapK(const QList<Shape>& shapes) {
  std::map<std::int64_t, std::pair<std::set<std::int64_t>, std::set<std::int64_t>>> byK;
  for (const Shape& s : shapes) byK[s.k].first.insert(s.m), byK[s.k].second.insert(s.n);
  std::int64_t best = 0;
  std::size_t cells = 0;
  for (const auto& [k, mn] : byK)
    if (mn.first.size() >= 2 && mn.second.size() >= 2 && mn.first.size() * mn.second.size() > cells)
      best = k, cells = mn.first.size() * mn.second.size();
  return best;
}

}  // namespace

ScalingPage::View ScalingPage::view() const {
  return m_view->currentIndex() < 0 ? View::kSize : View(m_view->currentData().toInt());
}

void ScalingPage::setView(View v) {
  const int i = m_view->findData(int(v));
  if (i >= 0) m_view->setCurrentIndex(i);
  rebuildNow();
}

void ScalingPage::offerViews(const RunDocument& doc) {
  const QList<Shape> shapes = memoryBoundDocument(doc) ? QList<Shape>{} : gemmShapes(doc);
  QList<QPair<QString, View>> views{{"size ∛(M·N·K)", View::kSize}};
  const char* names[] = {"M (N, K fixed)", "N (M, K fixed)", "K (M, N fixed)"};
  View start = View::kSize;
  for (int axis = 0; axis < 3; ++axis)
    if (longestSweep(shapes, axis) >= 3) {
      views << QPair<QString, View>{names[axis], View(axis + 1)};
      if (start == View::kSize) start = View(axis + 1);
    }
  if (heatMapK(shapes) > 0) {
    views << QPair<QString, View>{"M × N heat map", View::kHeatMap};
    start = View::kHeatMap;
  }
  // Where every shape is a cube, the cube root is the sweep.
  if (std::all_of(shapes.begin(), shapes.end(), [](const Shape& s) { return isCubic(s); }))
    start = View::kSize;
  QStringList texts;
  for (const auto& v : views) texts << v.first;
  QStringList had;
  for (int i = 0; i < m_view->count(); ++i) had << m_view->itemText(i);
  if (texts == had) return;  // the same choices: the user's stays
  const QSignalBlocker block(m_view);
  m_view->clear();
  for (const auto& [text, v] : views) m_view->addItem(text, int(v));
  m_view->setCurrentIndex(m_view->findData(int(start)));
  m_view->setEnabled(views.size() > 1);
  m_view->setToolTip(views.size() > 1 ? "The views these shapes allow: the cube root of M·N·K, "
                                        "a sweep along one dimension, an M × N heat map"
                                      : "No sweep in these shapes: x is the cube root of M·N·K");
}

void ScalingPage::addSweepSeries(Build& b, const RunDocument& d, const QString& id,
                                 const QString& run, Qt::PenStyle style) {
  const int axis = int(b.view) - 1;
  std::map<std::pair<std::int64_t, std::int64_t>, QList<const CaseResult*>> lines;
  b.of = &d;
  for (const auto& c : d.cases)
    if (c.kernel == id.toStdString() && isGemm(c.size) && hasSpeed(d, c))
      lines[fixedOf(c.shape(), axis)] << &c;
  // The kMaxSweepLines sweeps of this kernel with the most sizes (ties: in order of the fixed
  // pair), the rest counted for the title: thousands of lines would be unreadable and each costs
  // the plot a legend re-layout.
  std::vector<
      const std::pair<const std::pair<std::int64_t, std::int64_t>, QList<const CaseResult*>>*>
      sweeps;
  for (const auto& line : lines)
    if (line.second.size() >= 2) sweeps.push_back(&line);  // else not a sweep along this axis
  std::stable_sort(sweeps.begin(), sweeps.end(),
                   [](auto* x, auto* y) { return x->second.size() > y->second.size(); });
  if (sweeps.size() > kMaxSweepLines) {
    b.sweepsLeftOut += int(sweeps.size() - kMaxSweepLines);
    sweeps.resize(kMaxSweepLines);
  }
  const char* fixedNames[] = {"N×K", "M×K", "M×N"};
  const QColor col = kernelColor(id);
  int drawn = 0;
  for (const auto* line : sweeps) {
    const auto& [fixed, points] = *line;
    const QString name = QString("%1 · %2 %3×%4%5")
                             .arg(shortLabel(model()->catalog().info(id)), fixedNames[axis])
                             .arg(fixed.first)
                             .arg(fixed.second)
                             .arg(run);
    QCPGraph* g = seriesGraph(id + run, drawn == 0 ? "line" : "sweep", name);
    g->setPen(QPen(col, run.isEmpty() ? 2 : 1.5, style));
    // A second fixed pair of one kernel: another marker, the same colour.
    const QCPScatterStyle::ScatterShape markers[] = {
        QCPScatterStyle::ssDisc, QCPScatterStyle::ssSquare, QCPScatterStyle::ssTriangle,
        QCPScatterStyle::ssDiamond};
    g->setScatterStyle(QCPScatterStyle(markers[drawn % 4], 6));
    addPoints(b, g, points, name);
    ++drawn;
  }
}

void ScalingPage::removeHeatMap() {
  if (!m_colorScale) return;
  plot()->plotLayout()->remove(m_colorScale);
  plot()->plotLayout()->simplify();
  m_colorScale = nullptr;
  m_heatMap = nullptr;  // a plottable: gone with clearPlottables
}

void ScalingPage::drawHeatMap(const RunDocument& doc) {
  QCustomPlot* p = plot();
  const QList<Shape> shapes = gemmShapes(doc);
  const std::int64_t k = heatMapK(shapes);
  std::set<std::int64_t> ms, ns;
  for (const Shape& s : shapes)
    if (s.k == k) ms.insert(s.m), ns.insert(s.n);
  // The kernel whose rates the cells show.
  const QString had = m_kernel->currentData().toString();
  {
    const QSignalBlocker block(m_kernel);
    m_kernel->clear();
    for (const QString& id : shownKernels(doc))
      m_kernel->addItem(shortLabel(model()->catalog().info(id)), id);
    const int i = m_kernel->findData(had);
    m_kernel->setCurrentIndex(i >= 0 ? i : 0);
  }
  const QString id = m_kernel->currentData().toString();
  const std::vector<std::int64_t> mList(ms.begin(), ms.end()), nList(ns.begin(), ns.end());
  m_heatMap = new QCPColorMap(p->xAxis, p->yAxis);
  m_heatMap->data()->setSize(int(mList.size()), int(nList.size()));
  m_heatMap->data()->setRange(QCPRange(0, double(mList.size()) - 1),
                              QCPRange(0, double(nList.size()) - 1));
  double lo = 1e300, hi = 0;
  for (int i = 0; i < int(mList.size()); ++i)
    for (int j = 0; j < int(nList.size()); ++j) {
      const Shape s{mList[std::size_t(i)], nList[std::size_t(j)], k};
      const CaseResult* c = doc.find(id.toStdString(), gemmSize(s));
      const double v = c && hasSpeed(doc, *c) ? headline(doc, *c) : std::nan("");
      m_heatMap->data()->setCell(i, j, v);
      if (std::isnan(v)) continue;
      lo = std::min(lo, v), hi = std::max(hi, v);
      tooltips()->add(
          p->xAxis, p->yAxis, i, j,
          QString("%1 at %2\n%3 GFLOP/s").arg(id, sizeName(c->size, false), formatNumber(v, 5)));
    }
  m_colorScale = new QCPColorScale(p);
  int row = 0;
  for (int r = 0; r < p->plotLayout()->rowCount(); ++r)
    if (p->plotLayout()->element(r, 0) == p->axisRect()) row = r;
  p->plotLayout()->addElement(row, 2, m_colorScale);
  m_colorScale->setType(QCPAxis::atRight);
  m_heatMap->setColorScale(m_colorScale);
  // Viridis: perceptually even and readable in grey, dark slow to bright fast.
  QCPColorGradient gradient;
  gradient.setColorStops({{0.0, QColor(0x44, 0x01, 0x54)},
                          {0.25, QColor(0x3b, 0x52, 0x8b)},
                          {0.5, QColor(0x21, 0x91, 0x8c)},
                          {0.75, QColor(0x5e, 0xc9, 0x62)},
                          {1.0, QColor(0xfd, 0xe7, 0x25)}});
  gradient.setNanHandling(QCPColorGradient::nhTransparent);
  m_heatMap->setGradient(gradient);
  m_heatMap->setDataRange(QCPRange(lo < hi ? lo : 0, hi > lo ? hi : lo + 1));
  m_heatMap->setInterpolate(false);
  m_colorScale->axis()->setLabel("GFLOP/s");
  makeLinearAxis(m_colorScale->axis());
  p->legend->setVisible(false);
  QList<QPair<double, QString>> mTicks, nTicks;
  for (int i = 0; i < int(mList.size()); ++i)
    mTicks << QPair<double, QString>{double(i), QString::number(mList[std::size_t(i)])};
  for (int j = 0; j < int(nList.size()); ++j)
    nTicks << QPair<double, QString>{double(j), QString::number(nList[std::size_t(j)])};
  p->xAxis->setScaleType(QCPAxis::stLinear);
  p->yAxis->setScaleType(QCPAxis::stLinear);
  setCategoryTicks(p->xAxis, mTicks);
  setTextTicks(p->yAxis, nTicks);
  p->xAxis->setLabel("M");
  p->yAxis->setLabel("N");
  p->xAxis->setRange(-0.5, double(mList.size()) - 0.5);
  p->yAxis->setRange(-0.5, double(nList.size()) - 0.5);
  setPlotTitle(p, QString("%1: GFLOP/s over M × N at K = %2 — median of %3")
                      .arg(shortLabel(model()->catalog().info(id)))
                      .arg(k)
                      .arg(timerLabel(doc)));
  fitRateUnit(m_colorScale->axis(), "GFLOP/s");
}

}  // namespace kwb::gui
