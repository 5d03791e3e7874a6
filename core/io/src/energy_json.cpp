// SPDX-License-Identifier: Apache-2.0
#include "energy_json.h"

#include "json_read.h"

namespace kwb {
using nlohmann::json;

json energyToJson(const EnergyReading& e) {
  json j = {{"requestedS", e.requestedS},
            {"windowS", e.windowS},
            {"launches", e.launches},
            {"joules", e.joules},
            {"joulesPerLaunch", e.joulesPerLaunch},
            {"powerW", e.powerW},
            {"sampledPowerW", e.sampledPowerW},
            {"idlePowerW", e.idlePowerW},
            {"powerLimitW", e.powerLimitW},
            {"counterStepJ", e.counterStepJ},
            {"uncertaintyPct", e.uncertaintyPct},
            {"smClockMhzMin", e.smClockMhzMin},
            {"smClockMhzMax", e.smClockMhzMax},
            {"workPerJoule", e.workPerJoule},
            {"workUnit", e.workUnit}};
  if (!e.unavailable.empty()) j["unavailable"] = e.unavailable;
  return j;
}

EnergyReading energyFromJson(const json& j) {
  using jsonread::value;
  if (!j.is_object()) throw InputError("'energy' must be an object, not " + jsonread::describe(j));
  EnergyReading e;
  jsonread::get(j, "requestedS", e.requestedS);
  e.unavailable = value(j, "unavailable", std::string());
  e.windowS = value(j, "windowS", 0.0);
  e.launches = value(j, "launches", std::int64_t{0});
  e.joules = value(j, "joules", 0.0);
  e.joulesPerLaunch = value(j, "joulesPerLaunch", 0.0);
  e.powerW = value(j, "powerW", 0.0);
  e.sampledPowerW = value(j, "sampledPowerW", 0.0);
  e.idlePowerW = value(j, "idlePowerW", 0.0);
  e.powerLimitW = value(j, "powerLimitW", 0.0);
  e.counterStepJ = value(j, "counterStepJ", 0.0);
  e.uncertaintyPct = value(j, "uncertaintyPct", 0.0);
  e.smClockMhzMin = value(j, "smClockMhzMin", 0.0);
  e.smClockMhzMax = value(j, "smClockMhzMax", 0.0);
  e.workPerJoule = value(j, "workPerJoule", 0.0);
  e.workUnit = value(j, "workUnit", std::string());
  return e;
}

}  // namespace kwb
