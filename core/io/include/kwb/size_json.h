// SPDX-License-Identifier: Apache-2.0
#pragma once
// JSON of a case's size and of a family's declaration (docs/RESULTS.md, "size", "families").
// A size describes itself: {"family": "reduce", "axes": [{"name": "count", "kind": "count",
// "value": 1048576}, {"name": "type", "kind": "word", "value": "f32"}]}, so documents and event
// lines of any family read back without a table of families.
#include <nlohmann/json.hpp>

#include "kwb/case_size.h"
#include "kwb/family_info.h"

namespace kwb {

void to_json(nlohmann::json& j, const CaseSize& v);
// Refuses a size without a family, an axis without a name, a word axis without a word or a
// number outside 0 to 2^62 (InputError naming the axis).
void from_json(const nlohmann::json& j, CaseSize& v);
void to_json(nlohmann::json& j, const FamilyInfo& v);
void from_json(const nlohmann::json& j, FamilyInfo& v);

// A case or planned case of a document before schema 6: "problem" (GEMM before schema 4),
// "shape", "count" and "elementType", checked against legacyFamilyInfo. Throws InputError for
// an unknown family or a value out of range.
CaseSize legacyCaseSize(const nlohmann::json& j);
// The size of a case or planned case: "size" where the line has one (schema 6), else
// legacyCaseSize. A size of GEMM, reduce or scan is held to their axes (checkedSize).
CaseSize readCaseSize(const nlohmann::json& j);

}  // namespace kwb
