// SPDX-License-Identifier: Apache-2.0
#pragma once
// nlohmann-json bindings of the tuning sweep, used by the results document.
#include <nlohmann/json.hpp>

#include "kwb/results.h"

namespace kwb {

void to_json(nlohmann::json& j, const TuneConfig& v);
void from_json(const nlohmann::json& j, TuneConfig& v);
void to_json(nlohmann::json& j, const TuneChoice& v);
void from_json(const nlohmann::json& j, TuneChoice& v);
void to_json(nlohmann::json& j, const TuneGrid& v);
void from_json(const nlohmann::json& j, TuneGrid& v);

}  // namespace kwb
