#include "report_painter.h"

#include <QGuiApplication>
#include <QScreen>

namespace kwb::gui {

int reportResolution() {
  const QScreen* screen = QGuiApplication::primaryScreen();
  return screen ? qRound(screen->logicalDotsPerInchY()) : 96;
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
  m_y += h;
}

void drawStatusGrid(ReportPainter& rp, const QString& title, const QStringList& rows,
                    const QStringList& columns,
                    const std::function<std::optional<GridCell>(int, int)>& cell, int perPage,
                    double labelWidth) {
  const double rowH = 34;
  for (int first = 0; first < std::max<qsizetype>(1, columns.size()); first += perPage) {
    if (first > 0) rp.newPage();
    rp.heading(first == 0 ? title : title + " (continued)");
    const int cols = int(std::min<qsizetype>(perPage, columns.size() - first));
    QCPPainter& p = rp.painter();
    const double cellW = (rp.area().width() - labelWidth) / perPage;
    double y = rp.y();
    p.setFont(reportFont(8, true));
    p.setPen(Qt::black);
    for (int c = 0; c < cols; ++c)
      p.drawText(QRectF(labelWidth + c * cellW, y, cellW, rowH), Qt::AlignCenter,
                 columns[first + c]);
    y += rowH;
    for (int r = 0; r < rows.size(); ++r) {
      if (y + rowH > rp.area().height()) {
        rp.newPage();
        y = rp.y();
      }
      p.setFont(reportFont(8));
      p.setPen(Qt::black);
      p.drawText(QRectF(0, y, labelWidth, rowH), Qt::AlignLeft | Qt::AlignVCenter, rows[r]);
      for (int c = 0; c < cols; ++c) {
        const QRectF box(labelWidth + c * cellW + 1, y + 1, cellW - 2, rowH - 2);
        const auto content = cell(r, first + c);
        if (!content) {
          p.setPen(Qt::gray);
          p.drawText(box, Qt::AlignCenter, "—");
          continue;
        }
        p.fillRect(box, content->color);
        p.setPen(Qt::white);
        p.drawText(box, Qt::AlignCenter, content->text);
      }
      y += rowH;
    }
    rp.setY(y + 12);
  }
}

}  // namespace kwb::gui
