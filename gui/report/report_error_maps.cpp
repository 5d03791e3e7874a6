// SPDX-License-Identifier: Apache-2.0
#include "report/report_error_maps.h"

#include "model/case_size.h"
#include "plots/error_map_plot.h"
#include "report/report_painter.h"

namespace kwb::gui {
namespace {

struct MapOf {
  const CaseResult* c;
  const CompareReport* report;
  const char* run;
};

// The run to draw: the canary run where it mismatched, else the α/β run.
std::optional<MapOf> failingRun(const CaseResult& c) {
  if (!c.verification) return std::nullopt;
  const Verification& v = *c.verification;
  if (v.compare.mismatches > 0) return MapOf{&c, &v.compare, "canary run (β = 0)"};
  if (v.alphaBeta && v.alphaBeta->mismatches > 0) return MapOf{&c, &*v.alphaBeta, "α/β run"};
  return std::nullopt;
}

}  // namespace

void drawFailingErrorMaps(ReportPainter& rp, const RunDocument& doc) {
  QList<MapOf> maps;
  QStringList withoutGrid, vectors;
  for (const CaseResult& c : doc.cases)
    if (const auto m = failingRun(c)) {
      // An output that is no matrix has no rows and columns to map: its first wrong index.
      if (!isGemm(c.size))
        vectors << QString("%1 at %2: %3 mismatches, %4")
                       .arg(QString::fromStdString(c.kernel), sizeName(c, false))
                       .arg(m->report->mismatches)
                       .arg(firstMismatchText(*m->report));
      else if (m->report->grid.rows > 0 && m->report->grid.cols > 0)
        maps << *m;
      else
        withoutGrid << QString("%1 at %2")
                           .arg(QString::fromStdString(c.kernel),
                                QString::fromStdString(toString(c.shape())));
    }
  if (maps.isEmpty() && withoutGrid.isEmpty() && vectors.isEmpty()) return;
  if (!vectors.isEmpty()) {
    if (!rp.fits(40 + 14.0 * double(vectors.size()))) rp.newPage();
    rp.heading("Where the failing 1-D cases are wrong: the first mismatching index", 13);
    for (const QString& line : vectors) rp.paragraph(line, 9);
    if (maps.isEmpty() && withoutGrid.isEmpty()) return;
  }
  const int perRow = 3;
  const double gap = 16, captionH = 30;
  const double slotW = (rp.area().width() - gap * (perRow - 1)) / perRow;
  // Drawn at a widget size where the plot's fonts read well, then scaled into the slot.
  const int pw = 440, ph = 380;
  const double scale = slotW / pw, slotH = captionH + ph * scale + gap;
  if (!rp.fits(40 + slotH)) rp.newPage();
  rp.heading("Where the failing cases are wrong: max |C − C_ref| per block of C", 13);
  if (!withoutGrid.isEmpty())
    rp.paragraph(QString("No error grid in this results file (recorded by an older kwb) for: %1")
                     .arg(withoutGrid.join(", ")),
                 9, Qt::darkGray);
  ErrorMapPlot plot;
  plot.resize(pw, ph);
  QCPPainter& p = rp.painter();
  for (int i = 0; i < maps.size(); ++i) {
    const int col = i % perRow;
    if (col == 0 && i > 0) rp.setY(rp.y() + slotH);
    if (col == 0 && !rp.fits(slotH)) {
      rp.newPage();
      rp.heading("Where the failing cases are wrong (continued)", 13);
    }
    const MapOf& m = maps[i];
    const double x = col * (slotW + gap);
    p.setFont(reportFont(8, true));
    p.setPen(Qt::black);
    p.drawText(QRectF(x, rp.y(), slotW, captionH),
               Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap,
               QString("%1 at %2\n%3: %4 mismatches")
                   .arg(QString::fromStdString(m.c->kernel),
                        QString::fromStdString(toString(m.c->shape())), m.run)
                   .arg(m.report->mismatches));
    plot.setGrid(m.report->grid, m.c->shape().m, m.c->shape().n);
    p.save();
    p.translate(x, rp.y() + captionH);
    p.scale(scale, scale);
    plot.toPainter(&p, pw, ph);
    p.restore();
  }
  if (!maps.isEmpty()) rp.setY(rp.y() + slotH);
  rp.paragraph(
      "Red outline: the block holds mismatches. Grey hatched: a NaN or Inf mismatched "
      "there. White: C equals C_ref exactly. Colours on a log scale; axes in matrix "
      "indices at block boundaries.",
      8, Qt::darkGray);
}

}  // namespace kwb::gui
