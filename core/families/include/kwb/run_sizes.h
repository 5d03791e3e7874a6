// SPDX-License-Identifier: Apache-2.0
#pragma once
// The sizes of a run of any family (docs/FAMILIES.md, "Sizes"): size texts parsed with the
// family's axes (`kwb run --sizes`, a preset's "sizes") and value lists that cover the axes a
// text leaves out, crossed (`--axis type=u8,f32`, `--types`, a preset's "axes").
#include <string>
#include <string_view>
#include <vector>

#include "kwb/case_size.h"
#include "kwb/family.h"

namespace kwb {

// The values given for one axis: "--axis type=u8,f32" is {"type", {"u8", "f32"}}.
struct AxisValues {
  std::string name;
  std::vector<std::string> values;
  friend bool operator==(const AxisValues&, const AxisValues&) = default;
};
// "name=v1,v2,...": InputError quoting the text when it has no name or no value.
AxisValues parseAxisValues(std::string_view text);

// The run's sizes, text by text in order, each crossed with the values of `axes` (in the
// family's axis order, the first value outermost) for the axes the text leaves out. With no
// text, the sizes are the cross product of `axes` alone. An axis neither names: a word axis
// takes its first word (every word if the family lists it in allWordsByDefault); a number is
// an error. Throws InputError naming the family and the bad axis name, value or size: an axis
// the family does not have, a value it does not take, an axis given twice, or one both a text
// and `axes` name.
std::vector<CaseSize> runSizes(const Family& f, const std::vector<std::string>& texts,
                               const std::vector<AxisValues>& axes);

// Its sizes are shapes, every axis a matrix dimension (GEMM): typed with --shapes
// (kwb/shape.h), listed as "shapes" in a suite. Any other family's are typed with --sizes.
bool takesShapes(const FamilyInfo& f);

// Comma-separated items ("2^20,1000003" → {"2^20", "1000003"}), each trimmed.
std::vector<std::string> splitList(std::string_view text);

}  // namespace kwb
