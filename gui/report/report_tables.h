// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <optional>

#include "kwb/results.h"
#include "model/kernel_lookup.h"

namespace kwb::gui {

class ReportPainter;

// First page: per kernel its best GFLOP/s (FP32 fallbacks left out), the % of its own
// precision's reference there, the verdict against the baseline and the CV.
void drawSummaryTable(ReportPainter& rp, const RunDocument& doc,
                      const std::optional<RunDocument>& baseline, const KernelLookup& catalog);
// Every case: numbers right-aligned with fixed decimals, the median's CI and the CV.
// Whether the case table lists any case: every case up to 400, else those that did not pass.
// Without rows it is one sentence, which the report puts before the grid (a page of its own
// after the grid held that sentence alone).
bool caseTableHasRows(const RunDocument& doc);
void drawCaseTable(ReportPainter& rp, const RunDocument& doc);
// Kernel × shape grid of statuses with the max abs error (or mismatches), and its key.
void drawCorrectnessGrid(ReportPainter& rp, const RunDocument& doc, const QList<QString>& kernels);
// Speedup per case against the baseline with its verdict, the geometric mean and the counts.
void drawBaselineTable(ReportPainter& rp, const RunDocument& doc, const RunDocument& baseline,
                       const QString& baselineName);
// "kwb 0.1.0 · git 1a2b3c4" or "kwb 0.1.0 · git revision not recorded".
QString toolLine(const RunDocument& doc);

}  // namespace kwb::gui
