// SPDX-License-Identifier: Apache-2.0
#pragma once
// JSON of a case's energy window (kwb run --energy; docs/RESULTS.md, "energy"): an optional
// object of the case, absent in documents without it. Used by results_json.cpp.
#include <nlohmann/json.hpp>

#include "kwb/energy.h"

namespace kwb {

nlohmann::json energyToJson(const EnergyReading& e);
// Every field but `requestedS` may be absent (read as 0 or empty); numbers are checked.
EnergyReading energyFromJson(const nlohmann::json& j);

}  // namespace kwb
