// SPDX-License-Identifier: Apache-2.0
#pragma once
// JSON of a document's sub-group conformance report (docs/RESULTS.md, "conformance"), used by
// the document's to_json / from_json in results_json.cpp.
#include <nlohmann/json.hpp>

#include "kwb/conformance.h"

namespace kwb {

nlohmann::json conformanceToJson(const ConformanceReport& r);
ConformanceReport conformanceFromJson(const nlohmann::json& j);

}  // namespace kwb
