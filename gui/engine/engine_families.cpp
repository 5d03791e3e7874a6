// SPDX-License-Identifier: Apache-2.0
#include "engine/engine_families.h"

#include <nlohmann/json.hpp>
#include <string>

#include "kwb/error.h"
#include "kwb/family.h"
#include "kwb/size_json.h"

namespace kwb::gui {

std::vector<FamilyInfo> registerEngineFamilies(const QByteArray& listFamiliesJson) {
  const auto fail = [](const std::string& why) {
    return InputError("the engine's `kwb list --families --json`: " + why);
  };
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(listFamiliesJson.toStdString());
  } catch (const nlohmann::json::exception& e) {
    throw fail(std::string("not valid JSON (") + e.what() + ")");
  }
  if (!j.is_array() || j.empty()) throw fail("not a non-empty JSON array of families");
  std::vector<FamilyInfo> infos;
  for (const auto& entry : j) {
    try {
      infos.push_back(entry.get<FamilyInfo>());
    } catch (const std::exception& e) {
      throw fail("family " + std::to_string(infos.size() + 1) + ": " + e.what());
    }
  }
  for (const FamilyInfo& info : infos) {
    Family f;
    static_cast<FamilyInfo&>(f) = info;
    registerFamily(f);
  }
  return infos;
}

}  // namespace kwb::gui
