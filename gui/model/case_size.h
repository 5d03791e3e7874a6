// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the pages need to show cases of every problem family (docs/GUI.md, "Problem families").
// A case is keyed by its kwb::CaseSize (family and named axes), so every table, picker and
// comparison takes the cases of any family, one this build does not know included. What a
// page shows of a case (its headline figure, unit and roof) is its family's declaration in
// the document (RunDocument::family), never a branch on GEMM.
#include <QString>
#include <optional>

#include "kwb/family.h"
#include "kwb/family_info.h"
#include "kwb/results.h"

namespace kwb::gui {

inline const CaseSize& sizeKey(const CaseResult& c) { return c.size; }
// "1024³", "2^28 f32", "1,000,003 i32" (kwb::sizeText, long counts grouped) or, not `pretty`,
// "512x512x512", "1000003 i32" (kwb::sizeLabel: as a command line writes it).
QString sizeName(const CaseSize& s, bool pretty = true);
inline QString sizeName(const CaseResult& c, bool pretty = true) {
  return sizeName(c.size, pretty);
}
// "2^28" for powers of two from 2^10, else "1,000,003" (`grouped`) or "1000003".
QString countText(std::int64_t count, bool grouped = true);

// The declaration of the case's family: the document's, else legacyFamilyInfo; null if neither.
const FamilyInfo* familyOf(const RunDocument& doc, const CaseResult& c);
// The family's headline metric: GFLOP/s, or GB/s for a memory-bound one (GFLOP/s when the
// family is declared nowhere).
Metric headlineMetric(const RunDocument& doc, const CaseResult& c);
// Held against the copy bandwidth, its headline GB/s (FamilyInfo::memoryBound).
bool memoryBound(const RunDocument& doc, const CaseResult& c);
// The headline figure: the case's figure of its family's metric.
double headline(const RunDocument& doc, const CaseResult& c);
QString headlineUnit(const RunDocument& doc, const CaseResult& c);  // "GFLOP/s" or "GB/s"
// The unit of a table of the document's cases: one unit when every case has it, else both
// ("GFLOP/s | GB/s": each row in its family's unit).
QString headlineUnit(const RunDocument& doc);
// Every case of the document is of a memory-bound family: Scaling plots GB/s.
bool memoryBoundDocument(const RunDocument& doc);

// The progression violation is at this size (its size label, or its shape in older documents).
bool violationAt(const ProgressionViolation& v, const CaseSize& size);
// The case of `kernel` (v.from or v.to) at the violation's size; null if not in `doc`.
const CaseResult* violationCase(const RunDocument& doc, const ProgressionViolation& v,
                                const std::string& kernel);

// Where a 1-D output first went wrong: CompareReport::firstMismatchIndex, else the column
// of its first mismatch (a vector is one row).
std::optional<std::int64_t> firstMismatchIndex(const CompareReport& r);
// "first mismatch at index 1,000,002: got 5.5, expected 5" (empty when none): what the
// correctness grid and the case dialog show of an output that is no matrix, where a heat map
// of rows and columns means nothing.
QString firstMismatchText(const CompareReport& r);

// Percent of the measured device-to-device copy bandwidth (the roof of the memory-bound
// families): the case's "pct_of_roof" figure, else its GB/s over the document's
// copyBandwidthGBs.
std::optional<double> pctOfCopyRoof(const CaseResult& c, const RunDocument& doc);
// FLOP per byte of the minimum traffic: recorded, else from the work core's family table
// declares (GEMM: its shape and precision; reduce: 1 add per 4-byte element read; scan: 1 add
// per 8 bytes read and written); 0 for a family this build does not know.
double intensityOf(const CaseResult& c);
// The case's declared work: its FLOPs and the fewest bytes it must move (GEMM: A, B and C
// once, in its precision; another family: its table's work); none for an unknown family.
Work declaredWork(const CaseResult& c);
// The GFLOP/s of a case on the roofline: recorded, else its GB/s × its intensity.
double roofGflops(const RunDocument& doc, const CaseResult& c);

}  // namespace kwb::gui
