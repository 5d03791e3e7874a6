// SPDX-License-Identifier: Apache-2.0
#include "report/report_tables.h"

#include <QLocale>
#include <algorithm>
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

// Up to this many cases, the case table lists them all.
constexpr std::size_t kCaseTableRows = 400;

QColor verdictColor(const QString& v) {
  if (v == "FASTER") return QColor(0x1a, 0x7f, 0x37);
  if (v == "SLOWER") return QColor(0xc0, 0x10, 0x10);
  return Qt::black;
}

// What the summary's columns mean, for the families the document holds: GEMM's tensor-core
// fallbacks and cuBLAS references only where there are GEMM cases.
QString summaryFootnote(const RunDocument& doc) {
  bool gemm = false;
  QStringList others;  // the other families, in the order of their first case
  for (const auto& c : doc.cases) {
    if (isGemm(c.size))
      gemm = true;
    else if (!others.contains(QString::fromStdString(c.problem())))
      others << QString::fromStdString(c.problem());
  }
  QStringList parts{gemm && others.isEmpty() ? "Best over the shapes run"
                                             : "Best over the sizes run"};
  if (gemm)
    parts << "FP32 fallbacks of tensor-core stages left out. % of reference for GEMM: FP16 "
             "tensor-core stages against cuBLAS FP16, BF16 ones against cuBLAS BF16, the rest "
             "against cuBLAS SGEMM, at the same shape";
  QStringList references;
  for (const QString& id : others) {
    const FamilyInfo* f = doc.family(id.toStdString());
    references << (f && !f->reference.empty()
                       ? QString("%1 against %2").arg(id, QString::fromStdString(f->reference))
                       : id + " against its reference");
  }
  if (!others.isEmpty())
    parts << "% of reference for " + references.join(", ") +
                 ", at the same size and element type (the precision column)";
  return parts.join(". ") + ". CV: the samples' coefficient of variation.";
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
    // A 1-D case's precision is its element type ("i32" at an i32 size), not the kernel's
    // declared default.
    const std::string type = best && !isGemm(best->size) ? best->size.word("type") : "";
    QList<TableCell> row{{QString("%1 — %2").arg(id, qtext(k.name))},
                         {type.empty() ? qtext(k.precision) : qtext(type)}};
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
            {{"kernel", 0.27},
             {"precision", 0.09},
             {"best " + unit, 0.09, Qt::AlignRight},
             {"at shape", 0.12, Qt::AlignRight},
             {"% of its precision's reference", 0.21, Qt::AlignRight},
             {"verdict vs baseline", 0.14, Qt::AlignRight},
             {"CV %", 0.06, Qt::AlignRight}},
            rows, 8);
  rp.paragraph(summaryFootnote(doc), 7, Qt::darkGray);
}

bool caseTableHasRows(const RunDocument& doc) {
  return doc.cases.size() <= kCaseTableRows ||
         std::any_of(doc.cases.begin(), doc.cases.end(),
                     [](const CaseResult& c) { return c.status != CaseStatus::kPass; });
}

void drawCaseTable(ReportPainter& rp, const RunDocument& doc) {
  QList<QList<TableCell>> rows;
  const QString unit = headlineUnit(doc);
  // A long document lists the cases that did not pass; the grid above has every one, and the
  // results file (kwb export --csv / --md) every figure.
  const bool all = doc.cases.size() <= kCaseTableRows;
  int passing = 0;
  for (const auto& c : doc.cases) {
    if (!all && c.status == CaseStatus::kPass) {
      ++passing;
      continue;
    }
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
  if (!rows.isEmpty()) rp.newPage();  // else the one sentence goes where the report is
  if (!all)
    rp.paragraph(QString("%1 cases, %2 passed: those are in the correctness grid and, with "
                         "every figure, in the results file (kwb export --csv or --md writes "
                         "them as a table). %3")
                     .arg(doc.cases.size())
                     .arg(passing)
                     .arg(rows.isEmpty() ? QString("No other case to list.")
                                         : QString("The %1 others follow.").arg(rows.size())),
                 9);
  if (rows.isEmpty()) return;
  drawTable(rp, all ? QString("Cases") : QString("Cases that did not pass"),
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

namespace {

// Per kernel: how many cases of each outcome, the largest error of those compared, and the
// first size that did not pass. Ahead of the grid, so a long document says the outcome first.
void drawCorrectnessSummary(ReportPainter& rp, const RunDocument& doc,
                            const QList<QString>& kernels) {
  QList<QList<TableCell>> rows;
  for (const QString& id : kernels) {
    std::map<CaseStatus, int> n;
    double worst = 0;
    const CaseResult* firstBad = nullptr;
    int cases = 0;
    for (const auto& c : doc.cases) {
      if (c.kernel != id.toStdString()) continue;
      ++cases;
      ++n[c.status];
      if (c.verification) worst = std::max(worst, c.verification->compare.maxAbsError);
      if (!firstBad && c.status != CaseStatus::kPass) firstBad = &c;
    }
    auto count = [&](std::initializer_list<CaseStatus> of) {
      int k = 0;
      for (CaseStatus st : of) k += n[st];
      return TableCell{
          k ? QString::number(k) : dash(), QColor(),
          k && *of.begin() != CaseStatus::kPass ? statusColor(*of.begin()) : QColor(Qt::black)};
    };
    rows << QList<TableCell>{
        {id},
        {QString::number(cases)},
        count({CaseStatus::kPass}),
        count({CaseStatus::kFallback}),
        count({CaseStatus::kFail}),
        count({CaseStatus::kError, CaseStatus::kCrashed, CaseStatus::kInvalid}),
        count({CaseStatus::kSkipped}),
        {QString::number(worst, 'e', 2)},
        {firstBad ? QString("%1 (%2)").arg(sizeName(*firstBad), statusText(firstBad->status))
                  : dash()}};
  }
  drawTable(rp, "Correctness summary",
            {{"kernel", 0.22},
             {"cases", 0.07, Qt::AlignRight},
             {"PASS", 0.07, Qt::AlignRight},
             {"FALLBACK", 0.09, Qt::AlignRight},
             {"FAIL", 0.07, Qt::AlignRight},
             {"ERROR, CRASHED, INVALID", 0.12, Qt::AlignRight},
             {"SKIPPED", 0.08, Qt::AlignRight},
             {"largest |C − C_ref|", 0.12, Qt::AlignRight},
             {"first not passing", 0.16}},
            rows, 8);
}

// The key: what a cell says and what its colour means.
void drawStatusKey(ReportPainter& rp, const QString& cellText) {
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
  p.drawText(QRectF(x + 4, rp.y(), rp.area().width() - x - 4, 14), Qt::AlignLeft | Qt::AlignVCenter,
             "— not run. " + cellText);
  rp.setY(rp.y() + 20);
}

// A cell of the grid: the status, then (roomy) the largest error or the mismatches and, for a
// 1-D output, where it first went wrong; compact, one line: the status and any mismatches.
GridCell gridCell(const CaseResult& c, bool compact) {
  QString text = statusText(c.status);
  if (!c.verification) return {statusColor(c.status), text};
  const auto& v = c.verification->compare;
  if (compact) {
    if (v.mismatches) text += QString(" ×%1").arg(v.mismatches);
    return {statusColor(c.status), text};
  }
  text += v.mismatches ? QString("\n%1 mismatches").arg(v.mismatches)
                       : "\nabs " + QString::number(v.maxAbsError, 'e', 1);
  if (const auto i = !isGemm(c.size) ? firstMismatchIndex(v) : std::nullopt)
    text += QString("\nfirst at [%1]").arg(*i);
  return {statusColor(c.status), text};
}

}  // namespace

void drawCorrectnessGrid(ReportPainter& rp, const RunDocument& doc, const QList<QString>& kernels) {
  const QList<CaseSize> shapes = sizesOf(doc);
  const CaseIndex index(doc);
  QStringList columns;
  for (const CaseSize& s : shapes) columns << sizeName(s);
  rp.heading("Correctness");
  drawCorrectnessSummary(rp, doc, kernels);
  // Many sizes: one line a cell, twice the columns a band (the errors are in the summary above
  // and the case table); 1200 sizes of three kernels take a few pages, not hundreds.
  const bool compact = shapes.size() > 28;
  drawStatusKey(rp, compact ? "A cell: the status, and ×N the mismatches of a failing case."
                            : "A cell: the status, then the largest |C − C_ref| (abs) or the "
                              "mismatches.");
  GridLayout layout;
  if (compact) layout = GridLayout{14, 160, 17, 6, 6};
  drawStatusGrid(
      rp, "Correctness grid", kernels, columns,
      [&](int r, int c) -> std::optional<GridCell> {
        const CaseResult* cr = index.find(kernels[r], shapes[c]);
        if (!cr) return std::nullopt;
        return gridCell(*cr, compact);
      },
      layout);
}

void drawBaselineTable(ReportPainter& rp, const RunDocument& doc, const RunDocument& baseline,
                       const QString& baselineName) {
  rp.newPage();
  rp.heading("Against the baseline");
  const QString unit = headlineUnit(doc);
  const RunComparison all = compareRuns(baseline, doc);
  if (all.crossDevice)
    rp.paragraph("C" + QString::fromStdString(all.deviceNote.substr(1)) + ".", 10);
  rp.paragraph(QString("Baseline %1 (%2, %3). Change: this run's median time ÷ the baseline's "
                       "− 1, negative = faster (as kwb compare prints it), with the speedup as a "
                       "factor. Rates in %4. Verdict: SAME when the whole 95% interval of the "
                       "change lies within ±2%, FASTER or SLOWER when it lies wholly beyond, else "
                       "UNCERTAIN (kwb ab decides by timing both in one run).")
                   .arg(baselineName,
                        baseline.device ? QString::fromStdString(baseline.device->name)
                                        : QString("no device recorded"),
                        recordedDate(baseline), unit),
               9);
  QList<QList<TableCell>> rows;
  double logSum = 0;
  int n = 0;
  std::map<QString, int> verdicts;
  for (const CaseComparison& r : all.cases) {
    const CaseResult* c = doc.find(r.kernel, r.caseSize);
    const CaseResult* b = baseline.find(r.kernel, r.caseSize);
    if (!c || !b || !hasSpeed(baseline, *b) || !hasSpeed(doc, *c)) continue;
    logSum += std::log1p(r.change);
    ++n;
    const QString verdict = QString::fromUtf8(toString(r.verdict).data());
    ++verdicts[verdict];
    rows << QList<TableCell>{{QString::fromStdString(c->kernel)},
                             {sizeName(*c)},
                             {fixed(headline(baseline, *b), 1)},
                             {fixed(headline(doc, *c), 1)},
                             {QString::fromStdString(signedPercent(r.change))},
                             {QString::fromStdString(speedupText(r.change))},
                             {verdict, QColor(), verdictColor(verdict)}};
  }
  if (n) {
    QStringList counts;
    for (const auto& [v, k] : verdicts) counts << QString("%1 %2").arg(k).arg(v);
    const double meanChange = std::expm1(logSum / n);
    rp.paragraph(QString("Geometric mean over %1 cases: time %2, %3 · %4")
                     .arg(n)
                     .arg(QString::fromStdString(signedPercent(meanChange)),
                          QString::fromStdString(speedupText(meanChange)), counts.join(" · ")),
                 10);
  } else {
    rp.paragraph("No case was timed in both documents.", 10);
  }
  drawTable(rp, "Change per case",
            {{"kernel", 0.22},
             {"shape", 0.15, Qt::AlignRight},
             {"baseline " + unit, 0.13, Qt::AlignRight},
             {"this run " + unit, 0.13, Qt::AlignRight},
             {"change in time", 0.11, Qt::AlignRight},
             {"speedup", 0.13, Qt::AlignRight},
             {"verdict", 0.12, Qt::AlignRight}},
            rows, 8);
}

}  // namespace kwb::gui
