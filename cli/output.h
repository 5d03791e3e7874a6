// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <string>
#include <vector>

#include "kwb/device_info.h"
#include "kwb/format.h"
#include "kwb/run_document.h"

namespace kwb::cli {

// A plain text table with aligned columns; the first row is the header.
std::string formatTable(const std::vector<std::vector<std::string>>& rows);
// The device banner, several lines.
std::string formatBanner(const DeviceInfo& d);
// The human progress line of a finished or failed case, the `done`-th of `planSize` (stderr):
// "[3/60] sgemm.tiled 512x512x512: pass 812.4 GFLOP/s".
std::string progressLine(const CaseResult& r, int done, std::size_t planSize);
// The path of this kwb (/proc/self/exe), for the processes it starts of itself; "kwb" where it
// cannot be read.
std::string thisKwb();

}  // namespace kwb::cli
