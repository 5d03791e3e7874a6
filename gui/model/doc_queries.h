// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QColor>
#include <QList>
#include <QString>
#include <map>
#include <string>

#include "kwb/results.h"
#include "model/kernel_lookup.h"

namespace kwb::gui {

// Read-only views of a document the pages share.
// The sizes of the cases (every family's), in order of first appearance.
QList<CaseSize> sizesOf(const RunDocument& doc);

// Cases by kernel and size in O(log n): RunDocument::find is a linear scan, and a grid of
// kernels × sizes asking it for every cell grows with the square of the sizes.
class CaseIndex {
 public:
  explicit CaseIndex(const RunDocument& doc);
  const CaseResult* find(const std::string& kernel, const CaseSize& size) const;
  const CaseResult* find(const QString& kernel, const CaseSize& size) const {
    return find(kernel.toStdString(), size);
  }

 private:
  std::map<std::pair<std::string, CaseSize>, const CaseResult*> m_cases;
};
QList<QString> kernelsOf(const RunDocument& doc, const KernelLookup& catalog);  // catalog order
QColor statusColor(CaseStatus s);
QString statusText(CaseStatus s);  // "PASS"
// A kernel's colour, by its id alone: the same in every plot, the report and every run, whatever
// else is listed or hidden (a fixed slot for each built-in kernel, a hash of the id otherwise).
QColor kernelColor(const QString& id);
// Above any GPU's GEMM rate (10 PFLOP/s): a value past it is a corrupt or hand-edited file.
inline constexpr double kImplausibleGflops = 1e7;
// Above any GPU's memory bandwidth (1 PB/s): the same for the GB/s of the 1-D families.
inline constexpr double kImplausibleGBs = 1e6;
// The headline a plot shows (model/case_size.h: the family's metric, GFLOP/s or GB/s): the
// median-derived figure of a timed case, else nothing. Zero,
// negative, non-finite and implausibly high values are not speeds (see implausibleSpeed).
bool hasSpeed(const RunDocument& doc, const CaseResult& c);
// A timed case whose headline or median cannot be real: flagged, never plotted.
bool implausibleSpeed(const RunDocument& doc, const CaseResult& c);
// "3 cases with impossible GFLOP/s are not plotted: sgemm.naive 512x512x512 (-5), …", or "".
QString implausibleNote(const RunDocument& doc);
// The tensor-core stage ran its FP32 path instead.
bool isFallback(const CaseResult& c);
// The percent of a reference a case reached, and which reference: FP16 tensor-core precision
// against cuBLAS FP16, BF16 against cuBLAS BF16, everything else (FP32 fallbacks included) against
// cuBLAS FP32; a case of another family against its family's reference (its "pct_of_reference"
// figure), named "CUB" for a CUB reference, else by the reference's id.
struct RefPercent {
  double pct = 0;
  // What the percent is of, said whole: "cuBLAS SGEMM" (not "FP32", which reads as a % of
  // the FP32 peak), "cuBLAS FP16", "cuBLAS BF16", "CUB".
  QString reference;
};
std::optional<RefPercent> refPercent(const RunDocument& doc, const CaseResult& c);
std::optional<double> pctLabel(const RunDocument& doc, const CaseResult& c);  // its number
// The headline (GFLOP/s or GB/s) at the ends of the median's 95% CI (a shorter time is more
// GFLOP/s).
struct Range {
  double low = 0, high = 0;
};
Range gflopsCi(const RunDocument& doc, const CaseResult& c);
// Which timer made a document's figures, for axis titles and captions ("GPU time, back-to-back
// (CUDA graph)"; schema 1 documents say host-inclusive).
QString timerLabel(const RunDocument& doc);
// Verdict of `now` against `base` at one kernel and shape, as `kwb compare` gives it
// (kwb/run_compare.h): FASTER, SLOWER, SAME or UNCERTAIN.
QString comparisonVerdict(const CaseResult& now, const CaseResult& base);
QString formatNumber(double v, int precision = 3);
QString deviceBanner(const RunDocument& doc);  // "NVIDIA H200 · sm_90 · 132 SMs · ..."
QString recordedDate(const RunDocument& doc);  // "2026-11-22"
// The GPU that ran `c`, with its index and host where the document has them: "NVIDIA H100
// 80GB HBM3 (GPU 1 on node3)"; "none (not run)" for a hole of a merge; empty when unrecorded.
QString caseDeviceText(const RunDocument& doc, const CaseResult& c);
// Violations in the document, or computed from the stages present (live runs).
std::vector<ProgressionViolation> progressionViolations(const RunDocument& doc);
// Why a plot of timed cases is empty: "No timed cases: a tuning sweep, shown on the Tuning tab".
QString emptyPlotReason(const RunDocument& doc);
QString caseSummaryLine(const RunDocument& doc);  // "40 cases · 38 pass · 1 FAIL (...)"

}  // namespace kwb::gui
