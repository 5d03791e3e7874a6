// SPDX-License-Identifier: Apache-2.0
#pragma once
// The GPUs a process of this host sees, told without starting CUDA: the host pool's parent
// (kwb run --devices) only counts them and pins each worker to one, and starting the CUDA driver
// there would cost it a fraction of a second per GPU before any worker starts.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace kwb {

// The entries of a CUDA_VISIBLE_DEVICES value in order ("2,3" or GPU UUIDs): split at commas,
// blanks trimmed; as CUDA does, an empty entry ends the list.
std::vector<std::string> visibleDeviceEntries(std::string_view value);

// How many GPUs this process sees without starting CUDA: the NVIDIA driver's GPUs (one folder
// each under `driverGpus`, /proc/driver/nvidia/gpus), or CUDA_VISIBLE_DEVICES's entries when that
// is set (at most the driver's count). -1 when the driver lists no folder: ask CUDA, which says
// why there is no device.
int visibleGpuCount(const char* cudaVisibleDevices,
                    const std::filesystem::path& driverGpus = "/proc/driver/nvidia/gpus");

}  // namespace kwb
