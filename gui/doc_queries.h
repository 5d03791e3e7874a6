#pragma once
#include <QColor>
#include <QList>
#include <QString>

#include "kernel_catalog.h"
#include "kwb/results.h"

namespace kwb::gui {

// Read-only views of a document the pages share.
QList<Shape> shapesOf(const RunDocument& doc);  // in order of first appearance
QList<QString> kernelsOf(const RunDocument& doc, const KernelCatalog& catalog);  // catalog order
double sizeOf(const Shape& s);  // cube root of M·N·K: the x of the scaling plot
QColor statusColor(CaseStatus s);
QString statusText(CaseStatus s);  // "PASS"
QColor kernelColor(int index);
// The GFLOP/s a plot shows: the median-derived gflops of a timed case, else nothing.
bool hasSpeed(const CaseResult& c);
// Percent shown on a progression bar: of the FP16 roof for tensor-core precision, else FP32.
std::optional<double> pctLabel(const CaseResult& c);
QString formatNumber(double v, int precision = 3);
QString deviceBanner(const RunDocument& doc);  // "NVIDIA H200 · sm_90 · 132 SMs · ..."
QString recordedDate(const RunDocument& doc);  // "2026-11-22"
// Violations in the document, or computed from the stages present (live runs).
std::vector<ProgressionViolation> progressionViolations(const RunDocument& doc,
                                                        const KernelCatalog& catalog);
QString caseSummaryLine(const RunDocument& doc);  // "40 cases · 38 pass · 1 FAIL (...)"

}  // namespace kwb::gui
