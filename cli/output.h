// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <string>
#include <vector>

#include "kwb/device_info.h"
#include "kwb/format.h"

namespace kwb::cli {

// A plain text table with aligned columns; the first row is the header.
std::string formatTable(const std::vector<std::vector<std::string>>& rows);
// The device banner, several lines.
std::string formatBanner(const DeviceInfo& d);

}  // namespace kwb::cli
