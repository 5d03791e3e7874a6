// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <string>
#include <vector>

#include "kwb/device_info.h"

namespace kwb::cuda {

// Number of usable devices; 0 with `reason` set ("no CUDA device: <why>") when there are
// none or the driver is missing. Never throws.
int deviceCount(std::string* reason);
// The banner of device `index`, peaks derived. Throws NoDeviceError when it does not exist.
DeviceInfo queryDevice(int index);
// Free and total device memory of the current device, in bytes.
void memoryInfo(std::size_t* freeBytes, std::size_t* totalBytes);
// Whether this process's CUDA context still works. After a kernel fault (an illegal address, a
// trap) every call returns the same sticky error and only a new process gets a context again;
// an error a call left pending but not sticky is cleared and does not count. Never throws.
bool contextUsable();
// Starts this process's CUDA context on `device` now (the driver, then the primary context),
// rather than at the first call that needs it. Throws NoDeviceError without such a device,
// CudaError when CUDA fails.
void startContext(int device);

}  // namespace kwb::cuda
