// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <cstdint>
#include <string>

namespace kwb {

// The device banner, read through cudaDeviceGetAttribute because
// CUDA 13 dropped clock and bus fields from cudaDeviceProp.
struct DeviceInfo {
  int index = 0;
  std::string name;
  // Which physical GPU (schema 7): its UUID ("GPU-1a2b..."), its PCI address and the host it is
  // in. Empty in older documents. A merged document tells two GPUs of one model apart by them.
  std::string uuid = {};
  std::string pciBusId = {};
  std::string host = {};
  int ccMajor = 0;
  int ccMinor = 0;
  int smCount = 0;
  int smClockMhz = 0;   // maximum SM clock
  int memClockMhz = 0;  // maximum memory clock
  int memBusWidthBits = 0;
  std::int64_t totalMemoryBytes = 0;
  std::int64_t l2Bytes = 0;
  int warpSize = 32;
  int maxThreadsPerBlock = 0;
  int maxBlockDim[3] = {0, 0, 0};
  std::int64_t sharedMemPerBlockOptin = 0;
  int driverVersion = 0;  // CUDA driver API version, e.g. 13000
  int runtimeVersion = 0;
  // Theoretical peaks derived from the above (see peaks.cpp for the formulas).
  double peakFp32Tflops = 0.0;
  double peakFp16TensorTflops = 0.0;  // dense FP16 in, FP32 accumulate
  double peakTf32TensorTflops = 0.0;
  double peakBandwidthGBs = 0.0;
  // A device-to-device copy measured at run start (read + write bytes / time); 0 if not
  // measured. The bandwidth roof of the memory-bound families.
  double copyBandwidthGBs = 0.0;

  std::string computeCapability() const {
    return std::to_string(ccMajor) + "." + std::to_string(ccMinor);
  }
};

// Fills the peak fields from clocks, SM count and architecture.
void derivePeaks(DeviceInfo& d);

// Dense BF16 in, FP32 accumulate: the FP16 tensor peak from compute capability 8.0 (Ampere,
// Ada and Hopper run BF16 at FP16's rate), 0 before it (no BF16 tensor cores). Derived, not a
// document field, so every document that has the FP16 peak has this one.
double peakBf16TensorTflops(const DeviceInfo& d);

}  // namespace kwb
