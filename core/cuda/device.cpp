// SPDX-License-Identifier: Apache-2.0
#include <cstdio>
#include "kwb/cuda/device.h"

#include <cuda_runtime_api.h>

#include "kwb/cuda/check.h"
#include "kwb/error.h"

namespace kwb::cuda {

int deviceCount(std::string* reason) {
  int count = 0;  // cudaGetDeviceCount leaves it untouched when it fails
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    if (reason)
      *reason = std::string("no CUDA device: ") + cudaGetErrorName(e) + " (" +
                cudaGetErrorString(e) + ")";
    (void)cudaGetLastError();
    return 0;
  }
  if (count == 0 && reason) *reason = "no CUDA device: the driver reports 0 devices";
  return count;
}

static int attr(cudaDeviceAttr a, int dev) {
  int v = 0;
  KWB_CUDA_CHECK(cudaDeviceGetAttribute(&v, a, dev));
  return v;
}

namespace {
// "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", as nvidia-smi -L writes it.
std::string uuidText(const cudaUUID_t& u) {
  std::string s = "GPU-";
  char hex[3];
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) s += '-';
    std::snprintf(hex, sizeof hex, "%02x", unsigned(static_cast<unsigned char>(u.bytes[i])));
    s += hex;
  }
  return s;
}
// NoDeviceError unless this machine has CUDA device `index`, saying why.
void requireDevice(int index) {
  std::string reason;
  const int n = deviceCount(&reason);
  if (n == 0) throw NoDeviceError(reason);
  if (index < 0 || index >= n)
    throw NoDeviceError("no CUDA device " + std::to_string(index) + ": this machine has " +
                        std::to_string(n));
}
}  // namespace

DeviceInfo queryDevice(int index) {
  requireDevice(index);
  cudaDeviceProp p{};
  KWB_CUDA_CHECK(cudaGetDeviceProperties(&p, index));
  DeviceInfo d;
  d.index = index;
  d.name = p.name;
  d.uuid = uuidText(p.uuid);
  char pci[32];
  std::snprintf(pci, sizeof pci, "%04x:%02x:%02x.0", unsigned(p.pciDomainID), unsigned(p.pciBusID),
                unsigned(p.pciDeviceID));
  d.pciBusId = pci;
  d.ccMajor = p.major;
  d.ccMinor = p.minor;
  d.smCount = p.multiProcessorCount;
  d.smClockMhz = attr(cudaDevAttrClockRate, index) / 1000;
  d.memClockMhz = attr(cudaDevAttrMemoryClockRate, index) / 1000;
  d.memBusWidthBits = attr(cudaDevAttrGlobalMemoryBusWidth, index);
  d.totalMemoryBytes = std::int64_t(p.totalGlobalMem);
  d.l2Bytes = attr(cudaDevAttrL2CacheSize, index);
  d.warpSize = p.warpSize;
  d.maxThreadsPerBlock = p.maxThreadsPerBlock;
  for (int i = 0; i < 3; ++i) d.maxBlockDim[i] = p.maxThreadsDim[i];
  d.sharedMemPerBlockOptin = std::int64_t(p.sharedMemPerBlockOptin);
  KWB_CUDA_CHECK(cudaDriverGetVersion(&d.driverVersion));
  KWB_CUDA_CHECK(cudaRuntimeGetVersion(&d.runtimeVersion));
  derivePeaks(d);
  return d;
}

bool contextUsable() {
  (void)cudaGetLastError();  // a launch's error that is not sticky, left by the last case
  if (cudaDeviceSynchronize() == cudaSuccess) return true;
  (void)cudaGetLastError();
  return cudaDeviceSynchronize() == cudaSuccess;  // a sticky error is returned again
}

void startContext(int device) {
  requireDevice(device);
  KWB_CUDA_CHECK(cudaSetDevice(device));
  KWB_CUDA_CHECK(cudaFree(nullptr));  // the primary context, made now
}

void memoryInfo(std::size_t* freeBytes, std::size_t* totalBytes) {
  KWB_CUDA_CHECK(cudaMemGetInfo(freeBytes, totalBytes));
}

}  // namespace kwb::cuda
