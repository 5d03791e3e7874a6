// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a results document says about each problem family it holds (docs/RESULTS.md,
// "families"): its axes, its headline figure and roof, its reference kernel. A family's code
// (inputs, reference, comparison, work) lives in its folder under kernels/ and declares this;
// a reader needs nothing else to name, parse, group and plot the family's cases.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kwb/case_size.h"

namespace kwb {

// The headline figure of a family and the roof it is held against.
enum class Metric { kGflops, kGbps };
std::string_view figureKey(Metric m);   // "gflops", "gbps"
std::string_view metricUnit(Metric m);  // "GFLOP/s", "GB/s"

// One axis a family's sizes have.
struct AxisSpec {
  std::string name;  // "m", "count", "type"
  AxisKind kind = AxisKind::kDimension;
  std::string unit = {};                // see SizeAxis::unit
  std::vector<std::string> words = {};  // kWord: the words it takes, the first the default
  std::int64_t min = 0;                 // numbers: the smallest and largest value
  std::int64_t max = (std::int64_t{1} << 31) - 1;

  friend bool operator==(const AxisSpec&, const AxisSpec&) = default;
};

struct FamilyInfo {
  std::string id;              // "gemm", "reduce", "scan"
  std::string title;           // "Sum reduction"
  std::vector<AxisSpec> axes;  // in size order
  Metric headline = Metric::kGflops;
  std::string roof;       // "compute peak" / "device-to-device copy bandwidth"
  std::string reference;  // the reference kernel id: "cublas.sgemm", "cub.reduce_sum"

  friend bool operator==(const FamilyInfo&, const FamilyInfo&) = default;
  // Memory-bound: held against the copy bandwidth, GB/s its headline.
  bool memoryBound() const { return headline == Metric::kGbps; }
};

// A size of this family from its text ("512", "256x384x640", "2^20 f32", "2^20" for the
// default word, "2^24 u8 256 bins"): the unit-less numbers first, joined by 'x' or '×' (one
// number fills every dimension: "512" is 512³), then each word and each "number unit" in any
// order. Throws InputError quoting the text and saying what the family expects.
CaseSize parseSize(const FamilyInfo& f, std::string_view text);
// The same, keeping what the text leaves out unset: one entry per axis of the family, in order,
// empty where the text names no value (the run fills those: kwb/run_sizes.h). The numbers
// without a unit must be there.
std::vector<std::optional<SizeAxis>> parsePartialSize(const FamilyInfo& f, std::string_view text);
// Comma-separated sizes.
std::vector<CaseSize> parseSizeList(const FamilyInfo& f, std::string_view text);
// The same checks for values already split (a file, an event): every axis present, each
// number within its range, each word one the axis takes. Throws InputError naming the size.
CaseSize checkedSize(const FamilyInfo& f, const CaseSize& s);
// "M x N x K (each 1 to 2147483647)", "count (0 to 2147483647) and type f32|i32".
std::string sizeGrammar(const FamilyInfo& f);

// The families of the documents kwb wrote before they listed theirs (schemas 1 to 5): GEMM,
// reduce and scan as those versions defined them. Null for any other id.
const FamilyInfo* legacyFamilyInfo(std::string_view id);

}  // namespace kwb
