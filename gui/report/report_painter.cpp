// SPDX-License-Identifier: Apache-2.0
#include "report/report_painter.h"

#include <QGuiApplication>
#include <QScreen>
#include <algorithm>
#include <cmath>

namespace kwb::gui {

int reportResolution() {
  const QScreen* screen = QGuiApplication::primaryScreen();
  return screen ? qRound(screen->logicalDotsPerInchY()) : 96;
}

QString tableCellText(const QFontMetrics& fm, const QString& text, double width, bool header) {
  return header ? text : fm.elidedText(text, Qt::ElideRight, int(width - 6));
}

QFont reportFont(int size, bool bold) {
  QFont f("DejaVu Sans", size, bold ? QFont::Bold : QFont::Normal);
  f.setStyleStrategy(QFont::PreferNoShaping);
  return f;
}

ReportPainter::ReportPainter(QPdfWriter& w) : m_writer(w), m_painter(&w) {
  m_painter.setMode(QCPPainter::pmVectorized);
  m_painter.setMode(QCPPainter::pmNoCaching);
  m_area = QRectF(QPointF(0, 0), QSizeF(w.width(), w.height()));
}

void ReportPainter::newPage() {
  m_writer.newPage();
  ++m_pages;
  m_y = 0;
}

void ReportPainter::heading(const QString& text, int size) {
  m_painter.setFont(reportFont(size, true));
  m_painter.setPen(Qt::black);
  const QRectF r(0, m_y, m_area.width(), size * 2.2);
  m_painter.drawText(r, Qt::AlignLeft | Qt::AlignVCenter, text);
  m_y += r.height();
}

void ReportPainter::paragraph(const QString& text, int size, QColor color) {
  m_painter.setFont(reportFont(size));
  m_painter.setPen(color);
  const QRectF bound =
      m_painter.boundingRect(QRectF(0, m_y, m_area.width(), 10000), Qt::TextWordWrap, text);
  m_painter.drawText(QRectF(0, m_y, m_area.width(), bound.height()), Qt::TextWordWrap, text);
  m_y += bound.height() + size * 0.6;
}

void ReportPainter::plot(QCustomPlot* plot) {
  const double w = m_area.width(), h = m_area.height() - m_y;
  const int pw = 1100, ph = int(pw * h / w);
  m_painter.save();
  m_painter.translate(0, m_y);
  m_painter.scale(w / pw, w / pw);
  plot->toPainter(&m_painter, pw, ph);
  m_painter.restore();
  if (afterPlot) afterPlot(plot, &m_writer);
  m_y += h;
}

void drawTable(ReportPainter& rp, const QString& title, const QList<TableColumn>& columns,
               const QList<QList<TableCell>>& rows, int fontSize) {
  QCPPainter& p = rp.painter();
  const double tableW = rp.area().width(), rowH = fontSize * 2.3;
  auto drawRow = [&](const QList<TableCell>& cells, bool bold) {
    double x = 0;
    p.setFont(reportFont(fontSize, bold));
    for (int i = 0; i < columns.size() && i < cells.size(); ++i) {
      const QRectF r(x, rp.y(), tableW * columns[i].width, rowH);
      if (cells[i].background.isValid()) p.fillRect(r.adjusted(0, 1, -2, -1), cells[i].background);
      p.setPen(cells[i].color);
      const Qt::Alignment align = bold ? (columns[i].align & ~Qt::AlignLeft) | Qt::AlignBottom
                                       : columns[i].align | Qt::AlignVCenter;
      const QString text = tableCellText(p.fontMetrics(), cells[i].text, r.width(), bold);
      p.drawText(r.adjusted(3, 0, -3, 0), align | (bold ? Qt::TextWordWrap : 0), text);
      x += r.width();
    }
    rp.setY(rp.y() + rowH);
  };
  QList<TableCell> header;
  for (const TableColumn& c : columns) header << TableCell{c.header};
  auto headerRow = [&] {
    const double y0 = rp.y();
    double x = 0;
    p.setFont(reportFont(fontSize, true));
    for (int i = 0; i < columns.size(); ++i) {
      const QRectF r(x, y0, tableW * columns[i].width, rowH * 1.8);
      p.setPen(Qt::black);
      p.drawText(r.adjusted(3, 0, -3, -2),
                 (columns[i].align & Qt::AlignRight ? Qt::AlignRight : Qt::AlignLeft) |
                     Qt::AlignBottom | Qt::TextWordWrap,
                 header[i].text);
      x += r.width();
    }
    p.setPen(QPen(Qt::black, 0.8));
    p.drawLine(QPointF(0, y0 + rowH * 1.8), QPointF(tableW, y0 + rowH * 1.8));
    rp.setY(y0 + rowH * 1.8 + 2);
  };
  // A table that fits a page whole starts on a fresh one rather than leave a stub of its rows
  // on a page of their own; a longer one starts where there is room for a few rows.
  const double whole = 13 * 2.2 + rowH * 1.8 + 2 + rowH * double(rows.size());
  if (!rp.fits(rowH * 4) || (!rp.fits(whole) && whole <= rp.area().height())) rp.newPage();
  rp.heading(title, 13);
  headerRow();
  for (int r = 0; r < rows.size(); ++r) {
    const auto& row = rows[r];
    // No page holds the last row alone: break a row earlier.
    const bool lastTwo = r == rows.size() - 2 && r > 0;
    if (!rp.fits(rowH) || (lastTwo && !rp.fits(2 * rowH))) {
      rp.newPage();
      rp.heading(title + " (continued)", 13);
      headerRow();
    }
    drawRow(row, false);
  }
  rp.setY(rp.y() + 8);
}

namespace {

constexpr double kSlack = 0.5;  // px a text may exceed its room by (rounding)

double widestLine(const QString& text, const QFontMetricsF& fm) {
  double w = 0;
  for (const QString& line : text.split('\n')) w = std::max(w, fm.horizontalAdvance(line));
  return w;
}

// Legend entries: icon, padding and text inside the entry's box.
void legendOverflows(QCustomPlot* plot, QPaintDevice* device, QStringList& out) {
  const QString where = plot->objectName();
  for (int i = 0; i < plot->legend->itemCount(); ++i) {
    auto* item = qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(i));
    if (!item || !plot->legend->visible()) continue;
    const QFontMetricsF fm(item->font(), device);
    const double need = plot->legend->iconSize().width() + plot->legend->iconTextPadding() +
                        fm.horizontalAdvance(item->plottable()->name());
    if (need > item->rect().width() + kSlack)
      out << QString("%1: legend entry '%2' needs %3 px, has %4")
                 .arg(where, item->plottable()->name())
                 .arg(QString::number(need, 'f', 1), QString::number(item->rect().width()));
  }
}

// Neighbouring tick labels of a horizontal axis must not run together.
void tickLabelClashes(QCPAxis* axis, const QString& where, QPaintDevice* device, QStringList& out) {
  const QFontMetricsF tm(axis->tickLabelFont(), device);
  const QVector<double> ticks = axis->tickVector();
  const QVector<QString> labels = axis->tickVectorLabels();
  const double angle = std::abs(axis->tickLabelRotation()) * M_PI / 180;
  for (int t = 1; t < ticks.size() && t < labels.size(); ++t) {
    if (!axis->range().contains(ticks[t]) || !axis->range().contains(ticks[t - 1])) continue;
    const double dx = std::abs(axis->coordToPixel(ticks[t]) - axis->coordToPixel(ticks[t - 1]));
    const double lines = double(std::max(labels[t].count('\n'), labels[t - 1].count('\n')) + 1);
    const bool clash =
        angle < 1e-3 ? (widestLine(labels[t], tm) + widestLine(labels[t - 1], tm)) / 2 + 2 > dx
                     : dx * std::sin(angle) < tm.height() * lines * 0.9;
    if (clash)
      out << QString("%1: tick labels '%2' and '%3' overlap")
                 .arg(where, labels[t - 1], labels[t])
                 .replace('\n', ' ');
  }
}

// Axis titles no longer than their axis; tick labels clear of each other.
void axisOverflows(QCustomPlot* plot, QPaintDevice* device, QStringList& out) {
  const QString where = plot->objectName();
  for (QCPAxisRect* rect : plot->axisRects())
    for (QCPAxis* axis : rect->axes()) {
      if (!axis->visible()) continue;
      const bool vertical = axis->orientation() == Qt::Vertical;
      const double length = vertical ? rect->height() : rect->width();
      const QFontMetricsF lm(axis->labelFont(), device);
      if (!axis->label().isEmpty() && lm.horizontalAdvance(axis->label()) > length + kSlack)
        out << QString("%1: axis title '%2' is longer than its axis").arg(where, axis->label());
      if (vertical || !axis->tickLabels()) continue;
      tickLabelClashes(axis, where, device, out);
    }
}

// Titles and other text elements of the layout.
void textElementOverflows(QCustomPlot* plot, QPaintDevice* device, QStringList& out) {
  const QString where = plot->objectName();
  for (int r = 0; r < plot->plotLayout()->rowCount(); ++r)
    for (int c = 0; c < plot->plotLayout()->columnCount(); ++c)
      if (auto* t = plot->plotLayout()->hasElement(r, c)
                        ? qobject_cast<QCPTextElement*>(plot->plotLayout()->element(r, c))
                        : nullptr) {
        const QFontMetricsF fm(t->font(), device);
        if (widestLine(t->text(), fm) > t->rect().width() + kSlack)
          out << QString("%1: text '%2' is wider than the plot").arg(where, t->text());
      }
}

// Where a text item's text lands, in pixels (its padding left out).
QRectF placedText(const QCPItemText* t, QPaintDevice* device) {
  const QFontMetricsF fm(t->font(), device);
  QRectF box = fm.boundingRect(QRectF(0, 0, 10000, 10000), int(t->textAlignment()), t->text());
  box = QRectF(QPointF(0, 0), box.size()).marginsAdded(QMarginsF(t->padding()));
  const QPointF at = t->position->pixelPosition();
  const Qt::Alignment a = t->positionAlignment();
  double x = at.x() - box.width() / 2, y = at.y() - box.height() / 2;
  if (a & Qt::AlignLeft) x = at.x();
  if (a & Qt::AlignRight) x = at.x() - box.width();
  if (a & Qt::AlignTop) y = at.y();
  if (a & Qt::AlignBottom) y = at.y() - box.height();
  return QRectF(x, y, box.width(), box.height()).marginsRemoved(QMarginsF(t->padding()));
}

// Text items (bar labels, marks, notes) inside the plot and clear of each other.
void textItemOverflows(QCustomPlot* plot, QPaintDevice* device, QStringList& out) {
  const QString where = plot->objectName();
  // The plot's area as last laid out (toPainter gives the viewport back, not the layout).
  QRectF area;
  for (QCPLayoutElement* e : plot->plotLayout()->elements(true))
    if (e) area = area.united(e->outerRect());
  QList<QPair<QRectF, QString>> boxes;
  for (int i = 0; i < plot->itemCount(); ++i) {
    auto* t = qobject_cast<QCPItemText*>(plot->item(i));
    if (!t || !t->visible() || t->text().isEmpty()) continue;
    const QRectF placed = placedText(t, device);
    if (!area.adjusted(-kSlack, -kSlack, kSlack, kSlack).contains(placed))
      out << QString("%1: '%2' runs off the plot").arg(where, t->text()).replace('\n', ' ');
    boxes << QPair<QRectF, QString>{placed, t->text()};
  }
  for (int i = 0; i < boxes.size(); ++i)
    for (int j = i + 1; j < boxes.size(); ++j)
      if (boxes[i].first.adjusted(1, 1, -1, -1).intersects(boxes[j].first.adjusted(1, 1, -1, -1)))
        out << QString("%1: '%2' overlaps '%3'")
                   .arg(where, boxes[i].second, boxes[j].second)
                   .replace('\n', ' ');
}

}  // namespace

QStringList textOverflows(QCustomPlot* plot, QPaintDevice* device) {
  QStringList out;
  legendOverflows(plot, device, out);
  axisOverflows(plot, device, out);
  textElementOverflows(plot, device, out);
  textItemOverflows(plot, device, out);
  return out;
}

namespace {

// One band of a status grid: the column titles, then a row per label, broken across pages
// with the titles repeated; never a page holding one row of the band alone.
struct Band {
  const QStringList& rows;
  const QStringList& columns;
  const std::function<std::optional<GridCell>(int, int)>& cell;
  int first, count;  // the band's columns
  double cellW, rowH, labelWidth;
  int fontSize;
};

// A column title too wide for its cell goes on two lines, broken before its last '×', 'x' or
// space ("1348×860" over "×1524"); the titles' row is as high as its tallest.
QString fitTitle(const QString& title, const QFontMetricsF& fm, double width) {
  if (fm.horizontalAdvance(title) <= width) return title;
  const qsizetype at =
      std::max({title.lastIndexOf(QChar(0x00D7)), title.lastIndexOf('x'), title.lastIndexOf(' ')});
  return at > 0 ? title.left(at) + "\n" + title.mid(at) : title;
}

void drawBandHeader(ReportPainter& rp, const Band& b) {
  QCPPainter& p = rp.painter();
  p.setFont(reportFont(b.fontSize, true));
  p.setPen(Qt::black);
  const QFontMetricsF fm(p.font(), p.device());
  QStringList titles;
  int lines = 1;
  for (int c = 0; c < b.count; ++c) {
    titles << fitTitle(b.columns[b.first + c], fm, b.cellW - 4);
    lines = std::max(lines, int(titles.back().count('\n')) + 1);
  }
  const double h = std::max(b.rowH, fm.lineSpacing() * lines + 4);
  for (int c = 0; c < b.count; ++c)
    p.drawText(QRectF(b.labelWidth + c * b.cellW, rp.y(), b.cellW, h), Qt::AlignCenter, titles[c]);
  rp.setY(rp.y() + h);
}

void drawBandRow(ReportPainter& rp, const Band& b, int r) {
  QCPPainter& p = rp.painter();
  const double y = rp.y();
  p.setFont(reportFont(b.fontSize));
  p.setPen(Qt::black);
  p.drawText(QRectF(0, y, b.labelWidth, b.rowH), Qt::AlignLeft | Qt::AlignVCenter,
             p.fontMetrics().elidedText(b.rows[r], Qt::ElideRight, int(b.labelWidth - 4)));
  for (int c = 0; c < b.count; ++c) {
    const QRectF box(b.labelWidth + c * b.cellW + 1, y + 1, b.cellW - 2, b.rowH - 2);
    const auto content = b.cell(r, b.first + c);
    if (!content) {
      p.setPen(Qt::gray);
      p.drawText(box, Qt::AlignCenter, "—");
      continue;
    }
    p.fillRect(box, content->color);
    p.setPen(Qt::white);
    p.drawText(box, Qt::AlignCenter, content->text);
  }
  rp.setY(y + b.rowH);
}

}  // namespace

void drawStatusGrid(ReportPainter& rp, const QString& title, const QStringList& rows,
                    const QStringList& columns,
                    const std::function<std::optional<GridCell>(int, int)>& cell,
                    const GridLayout& layout) {
  const double cellW = (rp.area().width() - layout.labelWidth) / layout.perBand;
  const double rowH = layout.rowHeight;
  // The bands follow each other down the page: a new page only when the next band's titles and
  // two of its rows (or all, if fewer) no longer fit.
  const double minBand = rowH * double(2 + std::min<qsizetype>(2, rows.size()));
  if (!rp.fits(title.isEmpty() ? minBand : minBand + 36)) rp.newPage();
  if (!title.isEmpty()) rp.heading(title);
  for (int first = 0; first < std::max<qsizetype>(1, columns.size()); first += layout.perBand) {
    const Band b{rows,
                 columns,
                 cell,
                 first,
                 int(std::min<qsizetype>(layout.perBand, columns.size() - first)),
                 cellW,
                 rowH,
                 layout.labelWidth,
                 layout.fontSize};
    if (!rp.fits(minBand)) {
      rp.newPage();
      rp.heading(title + " (continued)");
    }
    drawBandHeader(rp, b);
    for (int r = 0; r < rows.size(); ++r) {
      // A break before the last row of a band would leave it alone: break a row earlier.
      const bool lastTwo = r == rows.size() - 2;
      if (!rp.fits(rowH) || (lastTwo && !rp.fits(2 * rowH) && r > 0)) {
        rp.newPage();
        rp.heading(title + " (continued)");
        drawBandHeader(rp, b);
      }
      drawBandRow(rp, b, r);
    }
    rp.setY(rp.y() + layout.bandGap);
  }
  rp.setY(rp.y() + 6);
}

}  // namespace kwb::gui
