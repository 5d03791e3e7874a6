// SPDX-License-Identifier: Apache-2.0
#pragma once
// JSON of a case's timing figures (docs/RESULTS.md): the summary of
// its samples, the make-up of its interval (schema 5) and its paired ratios (schema 5). Used by
// the case's own to_json / from_json in results_json.cpp.
#include <nlohmann/json.hpp>
#include <vector>

#include "kwb/results.h"

namespace kwb {

nlohmann::json summaryToJson(const stats::Summary& s);
stats::Summary summaryFromJson(const nlohmann::json& j);
nlohmann::json pairedToJson(const std::vector<PairedRatio>& paired);
std::vector<PairedRatio> pairedFromJson(const nlohmann::json& a);
nlohmann::json uncertaintyToJson(const stats::Uncertainty& u);
stats::Uncertainty uncertaintyFromJson(const nlohmann::json& j);

}  // namespace kwb
