// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the pages need to show cases of every problem family (docs/GUI.md, "Problem families").
// GEMM cases are keyed by their Shape; a 1-D case (reduce, scan) has no shape, so the pages
// key it by a size key: a Shape {count, element type, −problem}. A GEMM dimension is at least
// 1, so k ≤ 0 never names a GEMM shape, and every table, picker and comparison keyed by Shape
// takes 1-D cases unchanged.
#include <QString>
#include <optional>
#include <string_view>

#include "kwb/results.h"

namespace kwb::gui {

bool isVectorCase(const CaseResult& c);  // a 1-D problem family: reduce, scan, …
Shape sizeKey(const CaseResult& c);      // the shape of a GEMM case, else its 1-D key
Shape shapeKey(const CaseSize& s);       // the same for a size
bool isVectorKey(const Shape& key);
// The 1-D key of `count` elements of `type` ("f32", "i32") of the family `problem`; an empty
// problem makes a key of any 1-D family (k = 0), as a size typed by hand is.
Shape vectorKey(const std::string& problem, std::int64_t count, const std::string& type);
QString keyType(const Shape& key);  // "f32" or "i32" of a 1-D key
// "512x512x512" (toString) or "1024³" (shapeText, `pretty`) for GEMM; "2^28 f32" or
// "1,000,003 i32" for a 1-D key.
QString sizeKeyText(const Shape& key, bool pretty = true);
QString sizeText(const CaseResult& c, bool pretty = true);
// "2^28" for powers of two from 2^10, else "1,000,003" (`grouped`) or "1000003".
QString countText(std::int64_t count, bool grouped = true);
// The problem family a 1-D key names: "reduce", "scan" (empty for GEMM; "1-D" for a key of
// any 1-D family or of one this build does not know).
QString keyProblem(const Shape& key);
// The x of the scaling plot: ∛(M·N·K) for GEMM, the element count for a 1-D key.
double sizeAxisValue(const Shape& key);
// "2^20 f32", "1000003 i32", "2^20" (f32): a 1-D size typed by hand, as a key of any 1-D
// family (k = 0); nullopt when the text is not one. sizeMatches takes k = 0 for any family.
std::optional<Shape> parseVectorSize(const QString& text);
bool sizeMatches(const CaseResult& c, const Shape& key);
// The case of `kernel` at `key` (RunDocument::find for GEMM shapes, the 1-D key otherwise).
const CaseResult* findCase(const RunDocument& doc, std::string_view kernel, const Shape& key);

// The progression violation is at this size: its shape, or for a 1-D size its size text.
bool violationAt(const ProgressionViolation& v, const Shape& key);
// The case of `kernel` (v.from or v.to) at the violation's size; null if not in `doc`.
const CaseResult* violationCase(const RunDocument& doc, const ProgressionViolation& v,
                                const std::string& kernel);

// Where a 1-D output first went wrong: CompareReport::firstMismatchIndex, else the column
// of its first mismatch (a vector is one row).
std::optional<std::int64_t> firstMismatchIndex(const CompareReport& r);
// "first mismatch at index 1,000,002: got 5.5, expected 5" (empty when none): what the
// correctness grid and the case dialog show of a vector, where a heat map of rows and
// columns means nothing.
QString firstMismatchText(const CompareReport& r);

// The headline figure: GFLOP/s for GEMM, GB/s (read + write) for the memory-bound families.
double headline(const CaseResult& c);
QString headlineUnit(const CaseResult& c);  // "GFLOP/s" or "GB/s"
// The unit of a table of the document's cases: "GFLOP/s" (GEMM only, as ever), "GB/s" (1-D
// only) or "GFLOP/s | GB/s" (both: GEMM rows in GFLOP/s, 1-D rows in GB/s).
QString headlineUnit(const RunDocument& doc);
// Every case of the document is 1-D: Scaling plots GB/s against the element count.
bool memoryBoundDocument(const RunDocument& doc);
// Percent of the measured device-to-device copy bandwidth (the roof of the 1-D families):
// the case's "pct_of_roof" figure, else its GB/s over the document's copyBandwidthGBs.
std::optional<double> pctOfCopyRoof(const CaseResult& c, const RunDocument& doc);
// FLOP per byte of the minimum traffic: recorded, else from the work core's family table
// declares (GEMM: its shape and precision; reduce: 1 add per 4-byte element read; scan: 1 add
// per 8 bytes read and written).
double intensityOf(const CaseResult& c);
// The GFLOP/s of a case on the roofline: recorded, else its GB/s × its intensity.
double roofGflops(const CaseResult& c);

}  // namespace kwb::gui
