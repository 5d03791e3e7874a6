// SPDX-License-Identifier: Apache-2.0
#include "report/report_writer.h"

#include <QBuffer>
#include <QFileInfo>
#include <QLocale>
#include <functional>

#include "kwb/shape.h"
#include "model/case_size.h"
#include "model/doc_queries.h"
#include "model/output_file.h"
#include "model/results_model.h"
#include "model/run_request.h"
#include "pages/progression_page.h"
#include "pages/timing_page.h"
#include "panels/conformance_view.h"
#include "report/report_error_maps.h"
#include "report/report_painter.h"
#include "report/report_tables.h"

namespace kwb::gui {
namespace {

constexpr int kMaxShapePages = 12;

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
      GridLayout{8, 220});
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

// The title, the results file and the device the run was recorded on.
void titleSection(ReportPainter& rp, const ReportInputs& in, const RunDocument& doc) {
  rp.heading("Kernel Workbench report", 20);
  QString files = QString("Results: %1").arg(QFileInfo(in.model->source()).fileName());
  if (in.model->baseline())
    files += QString(" · baseline: %1").arg(QFileInfo(in.model->baselineSource()).fileName());
  QStringList compared;
  for (const auto& run : in.model->overlays()) compared << QFileInfo(run.source).fileName();
  if (!compared.isEmpty())
    files += QString(" · compared runs (drawn over this one on Progression and Scaling): %1")
                 .arg(compared.join(", "));
  rp.paragraph(files, 10, Qt::darkGray);
  rp.heading("Device", 13);
  rp.paragraph(
      QString("Recorded on %1 on %2\n%3")
          .arg(doc.device ? QString::fromStdString(doc.device->name) : QString("an unknown device"),
               recordedDate(doc), deviceBanner(doc)));
  rp.paragraph(QString("Host %1 · %2 · %3 · wall %4 s · timer: %5")
                   .arg(QString::fromStdString(doc.host), toolLine(doc),
                        QString::fromStdString(doc.timestamp))
                   .arg(doc.wallSeconds, 0, 'f', 1)
                   .arg(timerLabel(doc)),
               9, Qt::darkGray);
}

void violationParagraphs(ReportPainter& rp, const RunDocument& doc) {
  const auto violations = progressionViolations(doc);
  if (violations.empty() && !doc.cases.empty())
    rp.paragraph("Progression: no stage is slower than the one before it.");
  for (const auto& v : violations) {
    // In its family's unit: a memory-bound family's GB/s of the two cases it names.
    const CaseResult* from = violationCase(doc, v, v.from);
    const CaseResult* to = violationCase(doc, v, v.to);
    const bool bytes = from && to && memoryBound(doc, *to);
    rp.paragraph(
        QString("Progression violation at %1: %2 (%3 %7) is slower than %4 (%5 %7)%6%8")
            .arg(v.size.empty() ? QString::fromStdString(toString(v.shape)) : qtext(v.size),
                 QString::fromStdString(v.to))
            .arg(bytes ? headline(doc, *to) : v.toGflops, 0, 'f', 1)
            .arg(QString::fromStdString(v.from))
            .arg(bytes ? headline(doc, *from) : v.fromGflops, 0, 'f', 1)
            .arg(v.withinNoise ? QString(" (within noise: the medians' 95% CIs overlap)")
                               : QString())
            .arg(bytes ? "GB/s" : "GFLOP/s")
            .arg(v.explanation.empty() ? QString() : ". Explained: " + qtext(v.explanation)),
        10, QColor(0xc0, 0x10, 0x10));
  }
}

// Run-level checks: the cases, the known-answer test, conformance, a sweep, the progression.
void summarySection(ReportPainter& rp, const RunDocument& doc) {
  rp.heading("Summary", 13);
  rp.paragraph(caseSummaryLine(doc));
  if (const QString note = implausibleNote(doc); !note.isEmpty())
    rp.paragraph(note, 10, QColor(0xc0, 0x10, 0x10));
  if (doc.knownAnswer.ran)
    rp.paragraph(QString("Known-answer test: %1 — %2")
                     .arg(doc.knownAnswer.passed ? "passed" : "FAILED",
                          QString::fromStdString(doc.knownAnswer.detail)));
  if (doc.conformance) rp.paragraph(conformanceSummary(*doc.conformance));
  if (doc.tuning)
    rp.paragraph(QString("Tuning sweep of %1 at %2: %3 configurations, best %4")
                     .arg(QString::fromStdString(doc.tuning->kernel),
                          QString::fromStdString(shapeText(doc.tuning->shape)))
                     .arg(doc.tuning->results.size())
                     .arg(doc.tuning->best.empty() ? QString("none")
                                                   : QString::fromStdString(doc.tuning->best)));
  violationParagraphs(rp, doc);
}

// The summary table names every kernel; documents without timed cases list them instead.
void kernelsSection(ReportPainter& rp, const ReportInputs& in, const RunDocument& doc,
                    const QList<QString>& kernels) {
  QStringList kernelLines;
  for (const QString& id : kernels) {
    const KernelInfo k = in.model->catalog().info(id);
    kernelLines << QString("%1 — %2%3").arg(id, qtext(k.name), k.reference ? " (reference)" : "");
  }
  if (std::any_of(doc.cases.begin(), doc.cases.end(),
                  [&](const CaseResult& c) { return hasSpeed(doc, c); })) {
    drawSummaryTable(rp, doc, in.model->baseline(), in.model->catalog());
  } else if (!kernelLines.isEmpty()) {
    if (!rp.fits(60)) rp.newPage();
    rp.heading("Kernels", 13);
    rp.paragraph(kernelLines.join('\n'), 9);
  }
}

// Pages per shape (Progression, Timing): the first kMaxShapePages shapes with timed cases.
void perShapePages(ReportPainter& rp, const ReportInputs& in, PlotPage* page, ShapeCombo* combo,
                   const QString& title, const std::function<bool(const CaseResult&)>& counts) {
  if (!page) return;
  const RunDocument& doc = in.model->document();
  page->setPrinting(true);
  const auto chosen = combo->currentShape();
  const CaseIndex index(doc);
  int pages = 0, skipped = 0;
  for (const CaseSize& s : sizesOf(doc)) {
    bool any = false;
    for (const KernelInfo& k : in.model->catalog().kernels())
      if (const CaseResult* c = index.find(k.id, s); c && hasSpeed(doc, *c) && counts(*c))
        any = true;
    if (!any) continue;
    if (pages == kMaxShapePages) {
      ++skipped;
      continue;
    }
    ++pages;
    combo->selectShape(s);
    page->rebuildNow();
    rp.newPage();
    rp.heading(QString("%1 at %2").arg(title, sizeName(s, false)));
    rp.plot(page->plot());
  }
  if (skipped)
    rp.paragraph(
        QString("%1 more shapes are not drawn; open the results in kwb-gui.").arg(skipped));
  if (chosen) combo->selectShape(*chosen);
  page->setPrinting(false);
}

// Every plot: Progression and Timing at each shape, then the other plot pages.
void plotPages(ReportPainter& rp, const ReportInputs& in) {
  perShapePages(rp, in, in.progression, in.progression ? in.progression->shapeCombo() : nullptr,
                "Progression", [&](const CaseResult& c) {
                  return !in.model->catalog().info(QString::fromStdString(c.kernel)).reference;
                });
  perShapePages(rp, in, in.timing, in.timing ? in.timing->shapeCombo() : nullptr, "Timing",
                [](const CaseResult&) { return true; });
  for (PlotPage* page : in.plots) {
    page->setPrinting(true);
    for (QCustomPlot* plot : page->reportPlots()) {
      rp.newPage();
      rp.heading(page->name());
      rp.plot(plot);
    }
    page->setPrinting(false);
  }
}

}  // namespace

QPageSize defaultReportPageSize() {
  return QPageSize(QLocale::system().measurementSystem() == QLocale::ImperialUSSystem
                       ? QPageSize::Letter
                       : QPageSize::A4);
}

QString writeReportPdf(const ReportInputs& in, const QString& path, const QString& option) {
  const RunDocument& doc = in.model->document();
  // Drawn in memory, then written as every output is (kwb/text_file.h): through a temporary
  // file renamed over `path` only when complete, onto a regular file only, keeping its mode; a
  // full disk or a file-size limit leaves the previous report as it was.
  QByteArray bytes;
  QBuffer file(&bytes);
  if (!file.open(QIODevice::WriteOnly))
    return QString("Could not write the report '%1': %2.").arg(path, file.errorString());
  QPdfWriter writer(&file);
  writer.setPageSize(in.pageSize);
  writer.setPageOrientation(QPageLayout::Landscape);
  writer.setPageMargins(QMarginsF(12, 12, 12, 12), QPageLayout::Millimeter);
  writer.setResolution(reportResolution());
  writer.setTitle("Kernel Workbench report");
  writer.setCreator("kwb-gui");
  ReportPainter rp(writer);
  rp.afterPlot = in.afterPlot;
  if (!rp.ok())
    return QString("Could not write the report '%1': the file cannot be created.").arg(path);

  titleSection(rp, in, doc);
  summarySection(rp, doc);
  const QList<QString> kernels = kernelsOf(doc, in.model->catalog());
  kernelsSection(rp, in, doc, kernels);
  plotPages(rp, in);
  if (!doc.cases.empty()) {
    rp.newPage();
    const bool caseRows = caseTableHasRows(doc);
    if (!caseRows) drawCaseTable(rp, doc);  // one sentence: every case passed, see the grid
    drawCorrectnessGrid(rp, doc, kernels);
    drawFailingErrorMaps(rp, doc);
    if (caseRows) drawCaseTable(rp, doc);  // on a fresh page
  }
  if (doc.conformance) conformanceSection(rp, *doc.conformance);
  if (const auto& b = in.model->baseline())
    drawBaselineTable(rp, doc, *b, QFileInfo(in.model->baselineSource()).fileName());
  rp.painter().end();
  if (bytes.isEmpty())
    return QString(
               "Could not write the report '%1': nothing was drawn; any previous file there "
               "is unchanged.")
        .arg(path);
  return writeOutputFile(path, bytes, option);
}

}  // namespace kwb::gui
