#include "report_writer.h"

#include <QFileInfo>
#include <QSaveFile>

#include "conformance_view.h"
#include "doc_queries.h"
#include "progression_page.h"
#include "report_error_maps.h"
#include "report_painter.h"
#include "results_model.h"
#include "run_request.h"

namespace kwb::gui {
namespace {

void correctnessGrid(ReportPainter& rp, const RunDocument& doc, const QList<QString>& kernels) {
  const QList<Shape> shapes = shapesOf(doc);
  QStringList columns;
  for (const Shape& s : shapes) columns << QString::fromStdString(toString(s));
  drawStatusGrid(rp, "Correctness", kernels, columns, [&](int r, int c) -> std::optional<GridCell> {
    const CaseResult* cr = doc.find(kernels[r].toStdString(), shapes[c]);
    if (!cr) return std::nullopt;
    QString text = statusText(cr->status);
    if (cr->verification && cr->verification->compare.mismatches)
      text += QString("\n%1 mismatches").arg(cr->verification->compare.mismatches);
    return GridCell{statusColor(cr->status), text};
  });
}

void conformanceSection(ReportPainter& rp, const ConformanceReport& report) {
  rp.newPage();
  rp.heading("Sub-group conformance");
  rp.paragraph(conformanceSummary(report));
  QStringList launches;
  for (const SubgroupRun& run : report.runs)
    launches << QString("tile size %1: %2 · %3 items · %4 tiles · %5 incomplete tiles%6")
                    .arg(run.tileSize)
                    .arg(launchText(run))
                    .arg(run.items)
                    .arg(run.tiles)
                    .arg(run.incompleteTiles)
                    .arg(run.error.empty() ? QString()
                                           : " · ERROR " + QString::fromStdString(run.error));
  rp.paragraph(launches.join('\n'), 9);
  const QStringList ids = checkIds(report);
  QStringList columns;
  for (const SubgroupRun& run : report.runs) columns << QString("tile %1").arg(run.tileSize);
  drawStatusGrid(
      rp, "Checks", ids, columns,
      [&](int r, int c) -> std::optional<GridCell> {
        const ConformanceCheck* check =
            findCheck(report.runs[std::size_t(c)], ids[r].toStdString());
        if (!check) return std::nullopt;
        return GridCell{
            statusColor(check->passed ? CaseStatus::kPass : CaseStatus::kFail),
            check->passed ? QString("PASS") : QString("FAIL (%1)").arg(check->failures)};
      },
      8, 220);
  for (const SubgroupRun& run : report.runs)
    for (const ConformanceCheck& check : run.checks) {
      if (check.passed) continue;
      if (!rp.fits(80)) rp.newPage();
      rp.paragraph(QString("%1 at tile size %2:\n%3")
                       .arg(QString::fromStdString(check.id))
                       .arg(run.tileSize)
                       .arg(offendersText(check)),
                   8, QColor(0xc0, 0x10, 0x10));
    }
}

void caseTable(ReportPainter& rp, const RunDocument& doc) {
  rp.newPage();
  rp.heading("Cases");
  const QStringList headers{"kernel",    "shape", "status",      "GFLOP/s",
                            "median ms", "% ref", "max abs err", "note"};
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
             c.verification ? QString::number(c.verification->compare.maxAbsError, 'g', 3) : "—",
             QString::fromStdString(c.message)},
            false, statusColor(c.status));
  }
}

}  // namespace

QString writeReportPdf(const ReportInputs& in, const QString& path) {
  const RunDocument& doc = in.model->document();
  // Written to a temporary file beside `path` and renamed over it only when complete: a full
  // disk or a file-size limit leaves the previous report as it was.
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly))
    return QString("Could not write the report '%1': %2.").arg(path, file.errorString());
  QPdfWriter writer(&file);
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
  if (doc.conformance) rp.paragraph(conformanceSummary(*doc.conformance));
  if (doc.tuning)
    rp.paragraph(QString("Tuning sweep of %1 at %2: %3 configurations, best %4")
                     .arg(QString::fromStdString(doc.tuning->kernel), shapeText(doc.tuning->shape))
                     .arg(doc.tuning->results.size())
                     .arg(doc.tuning->best.empty() ? QString("none")
                                                   : QString::fromStdString(doc.tuning->best)));
  const auto violations = progressionViolations(doc, in.model->catalog());
  if (violations.empty() && !doc.cases.empty())
    rp.paragraph("Progression: no stage is slower than the one before it.");
  for (const auto& v : violations)
    rp.paragraph(
        QString("Progression violation at %1: %2 (%3 GFLOP/s) is slower than %4 (%5 GFLOP/s)%6")
            .arg(QString::fromStdString(toString(v.shape)), QString::fromStdString(v.to))
            .arg(v.toGflops, 0, 'f', 1)
            .arg(QString::fromStdString(v.from))
            .arg(v.fromGflops, 0, 'f', 1)
            .arg(v.withinNoise ? QString(" (within noise: the medians' 95% CIs overlap)")
                               : QString()),
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
  if (!doc.cases.empty()) {
    rp.newPage();
    correctnessGrid(rp, doc, kernels);
    drawFailingErrorMaps(rp, doc);
    caseTable(rp, doc);
  }
  if (doc.conformance) conformanceSection(rp, *doc.conformance);
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
  if (file.size() == 0 || !file.commit())
    return QString("Could not write the report '%1': %2; any previous file there is unchanged.")
        .arg(path,
             file.errorString().isEmpty() ? QString("nothing was written") : file.errorString());
  return {};
}

}  // namespace kwb::gui
