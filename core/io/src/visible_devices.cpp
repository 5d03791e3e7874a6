// SPDX-License-Identifier: Apache-2.0
#include "kwb/visible_devices.h"

#include <algorithm>
#include <system_error>

#include "kwb/text.h"

namespace kwb {

std::vector<std::string> visibleDeviceEntries(std::string_view value) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= value.size()) {
    const std::size_t comma = std::min(value.find(',', start), value.size());
    const std::string_view item = trim(value.substr(start, comma - start));
    if (item.empty()) break;
    out.emplace_back(item);
    start = comma + 1;
  }
  return out;
}

int visibleGpuCount(const char* cudaVisibleDevices, const std::filesystem::path& driverGpus) {
  std::error_code ec;
  int driver = 0;
  for (std::filesystem::directory_iterator it(driverGpus, ec), end; !ec && it != end;
       it.increment(ec))
    driver += it->is_directory(ec) ? 1 : 0;
  if (driver == 0) return -1;
  if (cudaVisibleDevices == nullptr) return driver;
  return std::min(driver, int(visibleDeviceEntries(cudaVisibleDevices).size()));
}

}  // namespace kwb
