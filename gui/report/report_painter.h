// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QColor>
#include <QFontMetrics>
#include <QPdfWriter>
#include <functional>
#include <optional>
#include <qcustomplot.h>

namespace kwb::gui {

// Text without shaping, so without ligatures: "ff" and "fl" stay letters and the PDF's text
// names sgemm.double_buffer and Roofline as written (pdftotext, search, copy and paste).
QFont reportFont(int size, bool bold = false);

// The PDF's resolution: that of the screen fonts are measured at. Plots lay out their text
// with screen font metrics; drawn on a page of another resolution, a point-sized font comes
// out wider than the box measured for it, and legends and labels were cut off.
int reportResolution();

// What a table cell of `width` pixels shows of `text`: a header as it is (it wraps), a body cell
// elided at the right whatever its alignment, so that a right-aligned text too wide for its cell
// never runs into the cell on its left ("51.1%" under "2048³" read "1.1%").
QString tableCellText(const QFontMetrics& fm, const QString& text, double width, bool header);

// Lays out the report top to bottom on the pages of a PdfWriter (units: device pixels of a
// page at reportResolution(), 96 dpi on most screens, about 0.75 point each).
class ReportPainter {
 public:
  explicit ReportPainter(QPdfWriter& w);
  bool ok() const { return m_painter.isActive(); }
  QCPPainter& painter() { return m_painter; }
  QRectF area() const { return m_area; }
  void newPage();
  int pages() const { return m_pages; }
  double y() const { return m_y; }
  void setY(double y) { m_y = y; }
  bool fits(double h) const { return m_y + h <= m_area.height(); }
  void heading(const QString& text, int size = 16);
  void paragraph(const QString& text, int size = 10, QColor color = Qt::black);
  // The plot, scaled to the page width, filling the rest of the page.
  void plot(QCustomPlot* plot);
  // Called after each plot is drawn (tests measure its text there).
  std::function<void(QCustomPlot*, QPaintDevice*)> afterPlot;
  QPaintDevice* device() const { return &m_writer; }

 private:
  QPdfWriter& m_writer;
  QCPPainter m_painter;
  QRectF m_area;
  double m_y = 0;
  int m_pages = 1;
};

// A coloured status grid: row labels down the left, `columns` across, wrapped into bands of at
// most `perBand` columns that follow each other down the page (a page holds as many bands as
// fit; one that runs over is continued under "<title> (continued)" with its column titles, and
// no page holds a single row of a band alone). `cell` gives a cell's colour and text, or
// nothing for an empty cell.
struct GridCell {
  QColor color;
  QString text;
};
// A table with a bold header row repeated on every page it runs onto; numbers go right-aligned
// in columns wide enough for them (text columns elide). Widths are fractions of the page.
struct TableColumn {
  QString header;
  double width;
  Qt::Alignment align = Qt::AlignLeft;
};
struct TableCell {
  QString text;
  QColor background = QColor();  // invalid: none
  QColor color = Qt::black;
};
void drawTable(ReportPainter& rp, const QString& title, const QList<TableColumn>& columns,
               const QList<QList<TableCell>>& rows, int fontSize = 7);
// Text of a report plot that does not fit: legend entries, axis and tick labels, titles and
// text items measured with `device`'s font metrics against the boxes laid out for them.
// Empty when everything fits. Call right after the plot was drawn for the page.
QStringList textOverflows(QCustomPlot* plot, QPaintDevice* device);
struct GridLayout {
  int perBand = 7;
  double labelWidth = 190;
  double rowHeight = 34;  // two lines of text at fontSize 8
  int fontSize = 8;
  double bandGap = 10;
};
void drawStatusGrid(ReportPainter& rp, const QString& title, const QStringList& rows,
                    const QStringList& columns,
                    const std::function<std::optional<GridCell>(int row, int column)>& cell,
                    const GridLayout& layout = {});

}  // namespace kwb::gui
