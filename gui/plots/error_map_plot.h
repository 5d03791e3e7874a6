// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QList>
#include <QPoint>
#include <cstdint>
#include <qcustomplot.h>

#include "kwb/compare.h"

namespace kwb::gui {

// The rows (or columns) [first, last] of C that grid cell `cell` covers: the indices that
// ErrorGrid::cellOf maps to it.
struct CellSpan {
  std::int64_t first = 0;
  std::int64_t last = -1;
};
CellSpan cellSpan(int cell, std::int64_t extent, int cells);

// The heat map of one error grid: a colour map of max |C − C_ref| per cell, laid out as C is
// (row 0 at the top, columns across the top axis), on a log colour scale. Cells with
// mismatches are outlined in red; cells where a NaN or Inf mismatched have no |error| and are
// hatched grey; cells where C equals C_ref exactly are white (zero has no place on a log scale).
class ErrorMapPlot : public QCustomPlot {
  Q_OBJECT
 public:
  explicit ErrorMapPlot(QWidget* parent = nullptr);
  // `m` × `n`: the size of C. An empty grid (rows or cols 0) clears the map.
  void setGrid(const ErrorGrid& grid, std::int64_t m, std::int64_t n);
  const ErrorGrid& grid() const { return m_grid; }
  QCPColorMap* colorMap() const { return m_map; }
  QCPColorScale* colorScale() const { return m_scale; }
  // Cells as QPoint(column, row).
  const QList<QPoint>& markedCells() const { return m_marked; }  // red: mismatches
  const QList<QPoint>& nanCells() const { return m_nan; }        // hatched: non-finite
  // The grid cell under a widget pixel, or (-1, -1).
  QPoint cellAt(const QPointF& pixel) const;
  // Exact row and column ranges, max |error| and mismatch count of a cell.
  QString cellToolTip(int row, int col) const;

 private:
  void addCellRect(int row, int col, const QPen& pen, const QBrush& brush);
  QCPColorMap* m_map;
  QCPColorScale* m_scale;
  ErrorGrid m_grid;
  std::int64_t m_m = 0, m_n = 0;
  QList<QPoint> m_marked, m_nan;
};

}  // namespace kwb::gui
