// SPDX-License-Identifier: Apache-2.0
#include "report/report_tables.h"

#include <QLocale>
#include <cmath>
#include <map>

#include "kwb/run_compare.h"
#include "kwb/shape.h"
#include "model/case_size.h"
#include "model/doc_queries.h"
#include "model/run_request.h"
#include "report/report_painter.h"

namespace kwb::gui {
namespace {

QString fixed(double v, int decimals) { return QLocale::c().toString(v, 'f', decimals); }
QString dash() { return QString::fromUtf8("—"); }

QColor verdictColor(const QString& v) {
  if (v == "FASTER") return QColor(0x1a, 0x7f, 0x37);
  if (v == "SLOWER") return QColor(0xc0, 0x10, 0x10);
  return Qt::black;
}

}  // namespace

QString toolLine(const RunDocument& doc) {
  const QString rev = QString::fromStdString(doc.gitRevision);
  return QString("kwb %1 · %2")
      .arg(doc.toolVersion.empty() ? QString("(version not recorded)")
                                   : QString::fromStdString(doc.toolVersion),
           rev.isEmpty() || rev == "unknown"
               ? QString("git revision not recorded (engine built outside a git checkout)")
               : "git " + rev);
}

void drawSummaryTable(ReportPainter& rp, const RunDocument& doc,
                      const std::optional<RunDocument>& baseline, const KernelLookup& catalog) {
  QList<QList<TableCell>> rows;
  const QString unit = headlineUnit(doc);
  for (const QString& id : kernelsOf(doc, catalog)) {
    const CaseResult* best = nullptr;
    for (const auto& c : doc.cases)
      if (c.kernel == id.toStdString() && hasSpeed(doc, c) && !isFallback(c) &&
          (!best || headline(doc, c) > headline(doc, *best)))
        best = &c;
    const KernelInfo k = catalog.info(id);
    QList<TableCell> row{{QString("%1 — %2").arg(id, qtext(k.name))}, {qtext(k.precision)}};
    if (!best) {
      row << TableCell{dash()} << TableCell{dash()} << TableCell{dash()} << TableCell{dash()}
          << TableCell{dash()};
      rows << row;
      continue;
    }
    const auto pct = refPercent(doc, *best);
    QString verdict = "no baseline";
    if (baseline) {
      const CaseResult* b = baseline->find(best->kernel, best->size);
      verdict =
          b && hasSpeed(*baseline, *b) ? comparisonVerdict(*best, *b) : QString("not in baseline");
    }
    row << TableCell{fixed(headline(doc, *best), 0)} << TableCell{sizeName(*best)}
        << TableCell{k.reference ? QString("(a reference)")
                     : pct       ? QString("%1 of %2").arg(fixed(pct->pct, 1) + "%", pct->reference)
                                 : dash()}
        << TableCell{verdict, QColor(), verdictColor(verdict)}
        << TableCell{fixed(best->summary.cv * 100, 2)};
    rows << row;
  }
  drawTable(rp, "Best result per kernel",
            {{"kernel", 0.30},
             {"precision", 0.10},
             {"best " + unit, 0.11, Qt::AlignRight},
             {"at shape", 0.14, Qt::AlignRight},
             {"% of its precision's reference", 0.13, Qt::AlignRight},
             {"verdict vs baseline", 0.12, Qt::AlignRight},
             {"CV %", 0.08, Qt::AlignRight}},
            rows, 8);
  rp.paragraph(
      "Best over the shapes run, FP32 fallbacks of tensor-core stages left out. "
      "% of reference: FP16 tensor-core stages against cuBLAS FP16, the rest against "
      "cuBLAS FP32, at the same shape" +
          QString(unit == "GFLOP/s" ? "" : "; reduce and scan against their CUB reference") +
          ". CV: the samples' coefficient of variation.",
      7, Qt::darkGray);
}

void drawCaseTable(ReportPainter& rp, const RunDocument& doc) {
  QList<QList<TableCell>> rows;
  const QString unit = headlineUnit(doc);
  for (const auto& c : doc.cases) {
    const bool speed = hasSpeed(doc, c);
    const Range ci = gflopsCi(doc, c);
    const auto pct = refPercent(doc, c);
    QString note = QString::fromStdString(c.message);
    if (isFallback(c)) note = "ran " + QString::fromStdString(c.ranKernel) + " (FP32 fallback)";
    if (implausibleSpeed(doc, c))
      note = QString("impossible %1 or time: not plotted. ").arg(headlineUnit(doc, c)) + note;
    if (const auto roof = pctOfCopyRoof(c, doc))
      note = QString("%1% of the copy roof. ").arg(fixed(*roof, 1)) + note;
    if (c.verification && !isGemm(c.size) && c.verification->compare.mismatches)
      note = firstMismatchText(c.verification->compare) + ". " + note;
    rows << QList<TableCell>{
        {QString::fromStdString(c.kernel)},
        {sizeName(c)},
        {statusText(c.status), statusColor(c.status), Qt::white},
        {speed ? fixed(headline(doc, c), 1) : dash()},
        {speed ? QString("%1–%2").arg(fixed(ci.low, 1), fixed(ci.high, 1)) : dash()},
        {speed ? fixed(c.summary.median, 5) : dash()},
        {speed ? fixed(c.summary.cv * 100, 2) : dash()},
        {pct ? QString("%1 %2").arg(fixed(pct->pct, 1), pct->reference) : dash()},
        {c.verification ? QString::number(c.verification->compare.maxAbsError, 'e', 2) : dash()},
        {note}};
  }
  drawTable(rp, "Cases",
            {{"kernel", 0.15},
             {"shape", 0.10},
             {"status", 0.07},
             {unit, 0.07, Qt::AlignRight},
             {"95% CI " + unit, 0.12, Qt::AlignRight},
             {"median ms", 0.07, Qt::AlignRight},
             {"CV %", 0.05, Qt::AlignRight},
             {"% of ref", 0.08, Qt::AlignRight},
             {"max abs err", 0.08, Qt::AlignRight},
             {"note", 0.21}},
            rows);
}

void drawCorrectnessGrid(ReportPainter& rp, const RunDocument& doc, const QList<QString>& kernels) {
  const QList<CaseSize> shapes = sizesOf(doc);
  const CaseIndex index(doc);
  QStringList columns;
  for (const CaseSize& s : shapes) columns << sizeName(s);
  // The key first: what a cell says and what its colour means.
  rp.heading("Correctness");
  QCPPainter& p = rp.painter();
  double x = 0;
  p.setFont(reportFont(7));
  for (CaseStatus s :
       {CaseStatus::kPass, CaseStatus::kFallback, CaseStatus::kFail, CaseStatus::kError,
        CaseStatus::kCrashed, CaseStatus::kInvalid, CaseStatus::kSkipped}) {
    const QString text = statusText(s);
    const double w = p.fontMetrics().horizontalAdvance(text) + 12;
    p.fillRect(QRectF(x, rp.y(), w, 14), statusColor(s));
    p.setPen(Qt::white);
    p.drawText(QRectF(x, rp.y(), w, 14), Qt::AlignCenter, text);
    x += w + 4;
  }
  p.setPen(Qt::black);
  p.drawText(
      QRectF(x + 4, rp.y(), rp.area().width() - x - 4, 14), Qt::AlignLeft | Qt::AlignVCenter,
      "— not run. A cell: the status, then the largest |C − C_ref| (abs) or the mismatches.");
  rp.setY(rp.y() + 20);
  drawStatusGrid(rp, "Correctness grid", kernels, columns,
                 [&](int r, int c) -> std::optional<GridCell> {
                   const CaseResult* cr = index.find(kernels[r], shapes[c]);
                   if (!cr) return std::nullopt;
                   QString text = statusText(cr->status);
                   if (cr->verification) {
                     const auto& v = cr->verification->compare;
                     text += v.mismatches ? QString("\n%1 mismatches").arg(v.mismatches)
                                          : "\nabs " + QString::number(v.maxAbsError, 'e', 1);
                     // No matrix: where it first went wrong.
                     if (const auto i = !isGemm(cr->size) ? firstMismatchIndex(v) : std::nullopt)
                       text += QString("\nfirst at [%1]").arg(*i);
                   }
                   return GridCell{statusColor(cr->status), text};
                 });
}

void drawBaselineTable(ReportPainter& rp, const RunDocument& doc, const RunDocument& baseline,
                       const QString& baselineName) {
  rp.newPage();
  rp.heading("Speedup against the baseline");
  const QString unit = headlineUnit(doc);
  const RunComparison all = compareRuns(baseline, doc);
  if (all.crossDevice)
    rp.paragraph("C" + QString::fromStdString(all.deviceNote.substr(1)) + ".", 10);
  rp.paragraph(QString("Baseline %1 (%2, %3). Speedup = this run's %4 ÷ the baseline's. "
                       "Verdict: SAME when the whole 95% interval of the change lies within ±2%, "
                       "FASTER or SLOWER when it lies wholly beyond, else UNCERTAIN (kwb ab "
                       "decides by timing both in one run).")
                   .arg(baselineName,
                        baseline.device ? QString::fromStdString(baseline.device->name)
                                        : QString("no device recorded"),
                        recordedDate(baseline), unit),
               9);
  QList<QList<TableCell>> rows;
  double logSum = 0;
  int n = 0;
  std::map<QString, int> verdicts;
  for (const auto& c : doc.cases) {
    const CaseResult* b = baseline.find(c.kernel, c.size);
    if (!b || !hasSpeed(baseline, *b) || !hasSpeed(doc, c)) continue;
    const double speedup = headline(doc, c) / headline(baseline, *b);
    logSum += std::log(speedup);
    ++n;
    const QString verdict = comparisonVerdict(c, *b);
    ++verdicts[verdict];
    rows << QList<TableCell>{
        {QString::fromStdString(c.kernel)}, {sizeName(c)},
        {fixed(headline(baseline, *b), 1)}, {fixed(headline(doc, c), 1)},
        {fixed(speedup, 3) + "×"},          {verdict, QColor(), verdictColor(verdict)}};
  }
  if (n) {
    QStringList counts;
    for (const auto& [v, k] : verdicts) counts << QString("%1 %2").arg(k).arg(v);
    rp.paragraph(QString("Geometric mean speedup over %1 cases: %2× · %3")
                     .arg(n)
                     .arg(fixed(std::exp(logSum / n), 3), counts.join(" · ")),
                 10);
  } else {
    rp.paragraph("No case was timed in both documents.", 10);
  }
  drawTable(rp, "Speedup per case",
            {{"kernel", 0.25},
             {"shape", 0.17, Qt::AlignRight},
             {"baseline " + unit, 0.14, Qt::AlignRight},
             {"this run " + unit, 0.14, Qt::AlignRight},
             {"speedup", 0.12, Qt::AlignRight},
             {"verdict", 0.14, Qt::AlignRight}},
            rows, 8);
}

}  // namespace kwb::gui
