#include "report_writer.h"

#include <QFileInfo>
#include <QPdfWriter>
#include <qcustomplot.h>

#include "doc_queries.h"
#include "progression_page.h"
#include "results_model.h"
#include "run_request.h"

namespace kwb::gui {
namespace {

// No shaping, so no ligatures: "ff" and "fl" stay letters and the PDF's text names
// sgemm.double_buffer and Roofline as written (pdftotext, search, copy and paste).
QFont reportFont(int size, bool bold = false) {
  QFont f("DejaVu Sans", size, bold ? QFont::Bold : QFont::Normal);
  f.setStyleStrategy(QFont::PreferNoShaping);
  return f;
}

// Page geometry in device pixels of a 100-dpi A4 landscape page: one unit is one point-ish.
class ReportPainter {
 public:
  explicit ReportPainter(QPdfWriter& w) : m_writer(w), m_painter(&w) {
    m_painter.setMode(QCPPainter::pmVectorized);
    m_painter.setMode(QCPPainter::pmNoCaching);
    m_area = QRectF(QPointF(0, 0), QSizeF(w.width(), w.height()));
  }
  bool ok() const { return m_painter.isActive(); }
  QCPPainter& painter() { return m_painter; }
  QRectF area() const { return m_area; }
  void newPage() {
    m_writer.newPage();
    ++m_pages;
    m_y = 0;
  }
  int pages() const { return m_pages; }
  double y() const { return m_y; }
  void heading(const QString& text, int size = 16) {
    QFont f = reportFont(size, true);
    m_painter.setFont(f);
    m_painter.setPen(Qt::black);
    const QRectF r(0, m_y, m_area.width(), size * 2.2);
    m_painter.drawText(r, Qt::AlignLeft | Qt::AlignVCenter, text);
    m_y += r.height();
  }
  void paragraph(const QString& text, int size = 10, QColor color = Qt::black) {
    QFont f = reportFont(size);
    m_painter.setFont(f);
    m_painter.setPen(color);
    const QRectF bound =
        m_painter.boundingRect(QRectF(0, m_y, m_area.width(), 10000), Qt::TextWordWrap, text);
    m_painter.drawText(QRectF(0, m_y, m_area.width(), bound.height()), Qt::TextWordWrap, text);
    m_y += bound.height() + size * 0.6;
  }
  void plot(QCustomPlot* plot) {
    const double w = m_area.width(), h = m_area.height() - m_y;
    const int pw = 1100, ph = int(pw * h / w);
    m_painter.save();
    m_painter.translate(0, m_y);
    m_painter.scale(w / pw, w / pw);
    plot->toPainter(&m_painter, pw, ph);
    m_painter.restore();
    m_y += h;
  }
  void setY(double y) { m_y = y; }
  bool fits(double h) const { return m_y + h <= m_area.height(); }

 private:
  QPdfWriter& m_writer;
  QCPPainter m_painter;
  QRectF m_area;
  double m_y = 0;
  int m_pages = 1;
};

void correctnessGrid(ReportPainter& rp, const RunDocument& doc, const QList<QString>& kernels) {
  const QList<Shape> shapes = shapesOf(doc);
  const int perPage = 7;
  for (int first = 0; first < shapes.size(); first += perPage) {
    if (first > 0) rp.newPage();
    rp.heading(first == 0 ? "Correctness" : "Correctness (continued)");
    const int cols = int(std::min<qsizetype>(perPage, shapes.size() - first));
    QCPPainter& p = rp.painter();
    const double labelW = 190, rowH = 34;
    const double cellW = (rp.area().width() - labelW) / perPage;
    double y = rp.y();
    p.setFont(reportFont(8, true));
    p.setPen(Qt::black);
    for (int c = 0; c < cols; ++c)
      p.drawText(QRectF(labelW + c * cellW, y, cellW, rowH), Qt::AlignCenter,
                 QString::fromStdString(toString(shapes[first + c])));
    y += rowH;
    for (const QString& k : kernels) {
      p.setFont(reportFont(8));
      p.setPen(Qt::black);
      p.drawText(QRectF(0, y, labelW, rowH), Qt::AlignLeft | Qt::AlignVCenter, k);
      for (int c = 0; c < cols; ++c) {
        const QRectF cell(labelW + c * cellW + 1, y + 1, cellW - 2, rowH - 2);
        const CaseResult* cr = doc.find(k.toStdString(), shapes[first + c]);
        if (!cr) {
          p.setPen(Qt::gray);
          p.drawText(cell, Qt::AlignCenter, "—");
          continue;
        }
        p.fillRect(cell, statusColor(cr->status));
        p.setPen(Qt::white);
        QString text = statusText(cr->status);
        if (cr->verification && cr->verification->compare.mismatches)
          text += QString("\n%1 mismatches").arg(cr->verification->compare.mismatches);
        p.drawText(cell, Qt::AlignCenter, text);
      }
      y += rowH;
    }
    rp.setY(y + 12);
  }
}

void caseTable(ReportPainter& rp, const RunDocument& doc) {
  rp.newPage();
  rp.heading("Cases");
  const QStringList headers{"kernel",    "shape", "status",      "GFLOP/s",
                            "median ms", "% ref", "max rel err", "note"};
  const double widths[] = {0.17, 0.13, 0.08, 0.09, 0.09, 0.06, 0.09, 0.29};
  QCPPainter& p = rp.painter();
  const double W = rp.area().width(), rowH = 17;
  auto drawRow = [&](const QStringList& cells, bool bold, QColor statusBg) {
    if (!rp.fits(rowH)) {
      rp.newPage();
      rp.heading("Cases (continued)");
    }
    double x = 0;
    p.setFont(reportFont(7, bold));
    for (int i = 0; i < cells.size(); ++i) {
      const QRectF r(x, rp.y(), W * widths[i], rowH);
      if (i == 2 && statusBg.isValid()) p.fillRect(r.adjusted(0, 1, -2, -1), statusBg);
      p.setPen(i == 2 && statusBg.isValid() ? Qt::white : Qt::black);
      p.drawText(r.adjusted(2, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft,
                 p.fontMetrics().elidedText(cells[i], Qt::ElideRight, int(r.width() - 4)));
      x += r.width();
    }
    rp.setY(rp.y() + rowH);
  };
  drawRow(headers, true, QColor());
  for (const auto& c : doc.cases) {
    const auto pct = pctLabel(c);
    drawRow({QString::fromStdString(c.kernel), QString::fromStdString(toString(c.shape)),
             statusText(c.status), hasSpeed(c) ? QString::number(c.gflops, 'f', 1) : "—",
             c.timed() ? QString::number(c.summary.median, 'g', 5) : "—",
             pct ? QString::number(*pct, 'f', 1) : "—",
             c.verification ? QString::number(c.verification->compare.maxRelError, 'g', 3) : "—",
             QString::fromStdString(c.message)},
            false, statusColor(c.status));
  }
}

}  // namespace

QString writeReportPdf(const ReportInputs& in, const QString& path) {
  const RunDocument& doc = in.model->document();
  QPdfWriter writer(path);
  writer.setPageSize(QPageSize(QPageSize::A4));
  writer.setPageOrientation(QPageLayout::Landscape);
  writer.setPageMargins(QMarginsF(12, 12, 12, 12), QPageLayout::Millimeter);
  writer.setResolution(100);
  writer.setTitle("Kernel Workbench report");
  writer.setCreator("kwb-gui");
  ReportPainter rp(writer);
  if (!rp.ok())
    return QString("Could not write the report '%1': the file cannot be created.").arg(path);

  rp.heading("Kernel Workbench report", 20);
  rp.paragraph(QString("Results: %1").arg(QFileInfo(in.model->source()).fileName()), 10,
               Qt::darkGray);
  rp.heading("Device", 13);
  rp.paragraph(
      QString("Recorded on %1 on %2\n%3")
          .arg(doc.device ? QString::fromStdString(doc.device->name) : QString("an unknown device"),
               recordedDate(doc), deviceBanner(doc)));
  rp.paragraph(
      QString("Host %1 · kwb %2 (%3) · %4 · wall %5 s")
          .arg(QString::fromStdString(doc.host), QString::fromStdString(doc.toolVersion),
               QString::fromStdString(doc.gitRevision), QString::fromStdString(doc.timestamp))
          .arg(doc.wallSeconds, 0, 'f', 1),
      9, Qt::darkGray);
  rp.heading("Summary", 13);
  rp.paragraph(caseSummaryLine(doc));
  if (doc.knownAnswer.ran)
    rp.paragraph(QString("Known-answer test: %1 — %2")
                     .arg(doc.knownAnswer.passed ? "passed" : "FAILED",
                          QString::fromStdString(doc.knownAnswer.detail)));
  const auto violations = progressionViolations(doc, in.model->catalog());
  if (violations.empty()) rp.paragraph("Progression: no stage is slower than the one before it.");
  for (const auto& v : violations)
    rp.paragraph(
        QString("Progression violation at %1: %2 (%3 GFLOP/s) is slower than %4 (%5 GFLOP/s)")
            .arg(QString::fromStdString(toString(v.shape)), QString::fromStdString(v.to))
            .arg(v.toGflops, 0, 'f', 1)
            .arg(QString::fromStdString(v.from))
            .arg(v.fromGflops, 0, 'f', 1),
        10, QColor(0xc0, 0x10, 0x10));
  QStringList kernelLines;
  const QList<QString> kernels = kernelsOf(doc, in.model->catalog());
  for (const QString& id : kernels) {
    const KernelInfo k = in.model->catalog().info(id);
    kernelLines << QString("%1 — %2%3").arg(id, k.name, k.reference ? " (reference)" : "");
  }
  rp.heading("Kernels", 13);
  rp.paragraph(kernelLines.join('\n'), 9);

  if (in.progression) {
    ShapeCombo* combo = in.progression->shapeCombo();
    const auto chosen = combo->currentShape();
    for (const Shape& s : shapesOf(doc)) {
      bool anyStage = false;
      for (const KernelInfo& k : in.model->catalog().stages())
        if (const CaseResult* c = doc.find(k.id.toStdString(), s); c && hasSpeed(*c))
          anyStage = true;
      if (!anyStage) continue;
      combo->selectShape(s);
      in.progression->rebuildNow();
      rp.newPage();
      rp.heading("Progression at " + QString::fromStdString(toString(s)));
      rp.plot(in.progression->plot());
    }
    if (chosen) combo->selectShape(*chosen);
    in.progression->rebuildNow();
  }
  for (PlotPage* page : in.plots) {
    page->rebuildNow();
    for (QCustomPlot* plot : page->reportPlots()) {
      rp.newPage();
      rp.heading(page->name());
      rp.plot(plot);
    }
  }
  rp.newPage();
  correctnessGrid(rp, doc, kernels);
  caseTable(rp, doc);
  if (const auto& b = in.model->baseline()) {
    rp.newPage();
    rp.heading("Speedup against the baseline");
    rp.paragraph(QString("Baseline %1 (%2)")
                     .arg(QFileInfo(in.model->baselineSource()).fileName(), recordedDate(*b)));
    QStringList lines;
    for (const auto& c : doc.cases) {
      const CaseResult* bc = b->find(c.kernel, c.shape);
      if (!bc || !hasSpeed(*bc) || !hasSpeed(c)) continue;
      lines << QString("%1 at %2: %3 → %4 GFLOP/s, speedup %5×")
                   .arg(QString::fromStdString(c.kernel), QString::fromStdString(toString(c.shape)))
                   .arg(bc->gflops, 0, 'f', 1)
                   .arg(c.gflops, 0, 'f', 1)
                   .arg(c.gflops / bc->gflops, 0, 'f', 3);
    }
    rp.paragraph(lines.join('\n'), 8);
  }
  rp.painter().end();
  if (!QFileInfo(path).exists() || QFileInfo(path).size() == 0)
    return QString("Could not write the report '%1'.").arg(path);
  return {};
}

}  // namespace kwb::gui
