// SPDX-License-Identifier: Apache-2.0
#include "plots/error_map_plot.h"

#include <QToolTip>
#include <cmath>
#include <limits>

#include "model/doc_queries.h"

namespace kwb::gui {
namespace {

const QColor kMismatchRed(0xe0, 0x10, 0x10);
const QColor kNanGrey(0x9e, 0x9e, 0x9e);

// First index of each cell: the smallest i with i·cells / extent ≥ cell.
std::int64_t firstOf(int cell, std::int64_t extent, int cells) {
  return (std::int64_t(cell) * extent + cells - 1) / cells;
}

// Viridis: perceptually even, readable in grey, and without red, which marks mismatches.
QCPColorGradient viridis() {
  QCPColorGradient g;
  g.setColorInterpolation(QCPColorGradient::ciRGB);
  g.setColorStopAt(0.0, QColor(0x44, 0x01, 0x54));
  g.setColorStopAt(0.25, QColor(0x3b, 0x52, 0x8b));
  g.setColorStopAt(0.5, QColor(0x21, 0x91, 0x8c));
  g.setColorStopAt(0.75, QColor(0x5e, 0xc9, 0x62));
  g.setColorStopAt(1.0, QColor(0xfd, 0xe7, 0x25));
  // Exact zeros and non-finite cells are NaN in the map's data (log scale); zeros show white,
  // non-finite cells get a hatched rectangle on top.
  g.setNanHandling(QCPColorGradient::nhNanColor);
  g.setNanColor(Qt::white);
  return g;
}

// Ticks at the cell boundaries, labelled with the matrix index each cell starts at (the last
// with the extent); every other label when 16 cells would crowd them.
QSharedPointer<QCPAxisTickerText> boundaryTicker(std::int64_t extent, int cells, bool sparse) {
  QSharedPointer<QCPAxisTickerText> t(new QCPAxisTickerText);
  const int step = sparse && cells > 8 ? 2 : 1;
  for (int i = 0; i <= cells; ++i)
    t->addTick(i, i % step == 0 || i == cells ? QString::number(firstOf(i, extent, cells)) : "");
  return t;
}

// A colour map cannot draw a single cell along an axis (its cell size comes from the distance
// between the first and last cell centres), so one cell is drawn as two halves.
int mapSize(int cells) { return cells == 1 ? 2 : cells; }
QCPRange mapRange(int cells) {
  return cells == 1 ? QCPRange(0.25, 0.75) : QCPRange(0.5, cells - 0.5);
}

}  // namespace

CellSpan cellSpan(int cell, std::int64_t extent, int cells) {
  return {firstOf(cell, extent, cells), firstOf(cell + 1, extent, cells) - 1};
}

ErrorMapPlot::ErrorMapPlot(QWidget* parent) : QCustomPlot(parent) {
  // Columns across the top and row 0 at the top, as C is written.
  xAxis->setVisible(false);
  xAxis2->setVisible(true);
  yAxis->setRangeReversed(true);
  xAxis2->setLabel("column of C (ticks at block boundaries)");
  yAxis->setLabel("row of C (ticks at block boundaries)");
  for (QCPAxis* a : {xAxis2, yAxis}) {
    a->grid()->setVisible(false);
    a->setSubTicks(false);
    a->setTickLengthOut(4);
    a->setTickLengthIn(0);
  }
  m_map = new QCPColorMap(xAxis2, yAxis);
  m_map->setInterpolate(false);
  m_map->setTightBoundary(false);  // whole cells, out to the axes' ends
  m_map->setDataScaleType(QCPAxis::stLogarithmic);
  m_scale = new QCPColorScale(this);
  m_scale->setType(QCPAxis::atRight);
  m_scale->setDataScaleType(QCPAxis::stLogarithmic);
  m_scale->axis()->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
  // Two digits: within a decade the ticks are 2·10⁻⁵, 2.5·10⁻⁵, … and must not round alike.
  m_scale->axis()->setNumberFormat("gb");
  m_scale->axis()->setNumberPrecision(2);
  m_scale->axis()->setLabel("max |C − C_ref| per cell");
  m_scale->setBarWidth(14);
  plotLayout()->addElement(0, 1, m_scale);
  m_map->setColorScale(m_scale);
  m_map->setGradient(viridis());  // after: the map takes the scale's gradient when joining it
  // The scale as tall as the map.
  auto* group = new QCPMarginGroup(this);
  axisRect()->setMarginGroup(QCP::msTop | QCP::msBottom, group);
  m_scale->setMarginGroup(QCP::msTop | QCP::msBottom, group);
  setMouseTracking(true);
  connect(this, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
    const QPoint cell = cellAt(e->position());
    if (cell.x() < 0)
      QToolTip::hideText();
    else
      QToolTip::showText(e->globalPosition().toPoint(), cellToolTip(cell.y(), cell.x()), this);
  });
  setMinimumSize(360, 320);
}

void ErrorMapPlot::addCellRect(int row, int col, const QPen& pen, const QBrush& brush) {
  auto* r = new QCPItemRect(this);
  for (QCPItemPosition* p : {r->topLeft, r->bottomRight}) p->setAxes(xAxis2, yAxis);
  r->topLeft->setCoords(col, row);
  r->bottomRight->setCoords(col + 1, row + 1);
  r->setPen(pen);
  r->setBrush(brush);
  r->setClipToAxisRect(true);
}

void ErrorMapPlot::setGrid(const ErrorGrid& grid, std::int64_t m, std::int64_t n) {
  m_grid = grid;
  m_m = m;
  m_n = n;
  m_marked.clear();
  m_nan.clear();
  clearItems();
  const int rows = grid.rows, cols = grid.cols;
  if (rows <= 0 || cols <= 0) {
    m_map->data()->clear();
    return;
  }
  QCPColorMapData* cells = m_map->data();
  cells->setSize(mapSize(cols), mapSize(rows));
  cells->setRange(mapRange(cols), mapRange(rows));
  double lo = std::numeric_limits<double>::infinity(), hi = 0;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const auto i = std::size_t(r) * std::size_t(cols) + std::size_t(c);
      const double v = grid.maxAbs[i];
      const bool positive = std::isfinite(v) && v > 0;
      if (positive) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
      const double shown = positive ? v : std::numeric_limits<double>::quiet_NaN();
      for (int dc = 0; dc < (cols == 1 ? 2 : 1); ++dc)
        for (int dr = 0; dr < (rows == 1 ? 2 : 1); ++dr)
          cells->setCell(cols == 1 ? dc : c, rows == 1 ? dr : r, shown);
      if (std::isnan(v)) m_nan << QPoint(c, r);
      if (grid.mismatches[i] > 0) m_marked << QPoint(c, r);
    }
  // At least a decade, so that one value (or none) still gives a scale with labels.
  if (hi == 0) hi = 1e-6;
  lo = std::min(lo, hi / 10);
  m_map->setDataRange(QCPRange(lo, hi));
  xAxis2->setTicker(boundaryTicker(n, cols, true));
  yAxis->setTicker(boundaryTicker(m, rows, false));
  xAxis2->setRange(0, cols);
  yAxis->setRange(0, rows);
  for (const QPoint& p : m_nan) {
    addCellRect(p.y(), p.x(), Qt::NoPen, kNanGrey);
    addCellRect(p.y(), p.x(), Qt::NoPen, QBrush(Qt::black, Qt::BDiagPattern));
  }
  for (const QPoint& p : m_marked) addCellRect(p.y(), p.x(), QPen(kMismatchRed, 2.5), Qt::NoBrush);
}

QPoint ErrorMapPlot::cellAt(const QPointF& pixel) const {
  if (m_grid.rows <= 0 || !axisRect()->rect().contains(pixel.toPoint())) return {-1, -1};
  const int col = int(std::floor(xAxis2->pixelToCoord(pixel.x())));
  const int row = int(std::floor(yAxis->pixelToCoord(pixel.y())));
  if (col < 0 || col >= m_grid.cols || row < 0 || row >= m_grid.rows) return {-1, -1};
  return {col, row};
}

QString ErrorMapPlot::cellToolTip(int row, int col) const {
  if (row < 0 || col < 0 || row >= m_grid.rows || col >= m_grid.cols) return {};
  const CellSpan rs = cellSpan(row, m_m, m_grid.rows), cs = cellSpan(col, m_n, m_grid.cols);
  const auto i = std::size_t(row) * std::size_t(m_grid.cols) + std::size_t(col);
  const double v = m_grid.maxAbs[i];
  const std::int64_t bad = m_grid.mismatches[i];
  const std::int64_t elements = (rs.last - rs.first + 1) * (cs.last - cs.first + 1);
  QString error;
  if (std::isnan(v))
    error = "not a number: a NaN or Inf in C mismatched here (hatched grey)";
  else if (v == 0)
    error = "0 (C equals C_ref exactly here)";
  else
    error = formatNumber(v, 6);
  return QString("rows %1–%2, columns %3–%4 of C (cell %5, %6)\nmax |C − C_ref|: %7\n%8")
      .arg(rs.first)
      .arg(rs.last)
      .arg(cs.first)
      .arg(cs.last)
      .arg(row)
      .arg(col)
      .arg(error, bad ? QString("%1 of %2 elements mismatch (outlined red)").arg(bad).arg(elements)
                      : QString("no mismatches in %1 elements").arg(elements));
}

}  // namespace kwb::gui
