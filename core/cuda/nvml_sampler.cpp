// SPDX-License-Identifier: Apache-2.0
#include "kwb/cuda/nvml_sampler.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <algorithm>
#include <chrono>

namespace kwb::cuda {

// The few NVML entry points used, declared here so no NVML header or library is needed at
// build time. Signatures follow nvml.h (return nvmlReturn_t, 0 = success).
struct NvmlSampler::Api {
  void* lib = nullptr;
  int (*init)() = nullptr;
  int (*shutdown)() = nullptr;
  int (*byPciBusId)(const char*, void**) = nullptr;
  int (*clockInfo)(void*, int, unsigned*) = nullptr;
  int (*temperature)(void*, int, unsigned*) = nullptr;
  int (*power)(void*, unsigned*) = nullptr;
  int (*reasons)(void*, unsigned long long*) = nullptr;
  int (*energy)(void*, unsigned long long*) = nullptr;  // optional: Volta and later
  int (*powerLimit)(void*, unsigned*) = nullptr;        // optional
  const char* (*errorString)(int) = nullptr;            // optional
  ~Api() {
    if (lib) {
      if (shutdown) shutdown();
      dlclose(lib);
    }
  }
};

namespace {
constexpr int kNvmlClockSm = 1;
constexpr int kNvmlTemperatureGpu = 0;

template <class F>
bool load(void* lib, const char* name, F& fn) {
  fn = reinterpret_cast<F>(dlsym(lib, name));
  return fn != nullptr;
}
}  // namespace

NvmlSampler::NvmlSampler(int cudaDevice) : m_api(std::make_unique<Api>()) {
  m_api->lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!m_api->lib) {
    m_why = "libnvidia-ml.so.1 not found";
    return;
  }
  Api& a = *m_api;
  const bool ok = load(a.lib, "nvmlInit_v2", a.init) && load(a.lib, "nvmlShutdown", a.shutdown) &&
                  load(a.lib, "nvmlDeviceGetHandleByPciBusId_v2", a.byPciBusId) &&
                  load(a.lib, "nvmlDeviceGetClockInfo", a.clockInfo) &&
                  load(a.lib, "nvmlDeviceGetTemperature", a.temperature) &&
                  load(a.lib, "nvmlDeviceGetPowerUsage", a.power);
  // Renamed "clocks event reasons" in newer drivers; either name will do.
  if (!load(a.lib, "nvmlDeviceGetCurrentClocksEventReasons", a.reasons))
    load(a.lib, "nvmlDeviceGetCurrentClocksThrottleReasons", a.reasons);
  load(a.lib, "nvmlDeviceGetTotalEnergyConsumption", a.energy);
  load(a.lib, "nvmlDeviceGetEnforcedPowerLimit", a.powerLimit);
  load(a.lib, "nvmlErrorString", a.errorString);
  if (!ok) {
    m_why = "NVML lacks an entry point kwb needs";
    a.shutdown = nullptr;
    return;
  }
  if (a.init() != 0) {
    m_why = "nvmlInit failed";
    a.shutdown = nullptr;
    return;
  }
  // CUDA and NVML may number devices differently; the PCI bus id is common to both.
  char bus[32] = {};
  if (cudaDeviceGetPCIBusId(bus, sizeof bus, cudaDevice) != cudaSuccess ||
      a.byPciBusId(bus, &m_device) != 0) {
    (void)cudaGetLastError();
    m_device = nullptr;
    m_why = "NVML does not know the CUDA device's PCI bus id";
  }
}

NvmlSampler::~NvmlSampler() {
  if (m_running) stop();
}

void NvmlSampler::sampleOnce() {
  const Api& a = *m_api;
  unsigned clock = 0, temp = 0, mw = 0;
  unsigned long long reasons = 0;
  const bool gotClock = a.clockInfo(m_device, kNvmlClockSm, &clock) == 0;
  const bool gotTemp = a.temperature(m_device, kNvmlTemperatureGpu, &temp) == 0;
  const bool gotPower = a.power(m_device, &mw) == 0;
  const bool gotReasons = a.reasons && a.reasons(m_device, &reasons) == 0;
  std::lock_guard lock(m_mutex);
  if (gotClock) {
    if (m_acc.smClockMhzMax == 0 || clock < m_acc.smClockMhzMin) m_acc.smClockMhzMin = clock;
    m_acc.smClockMhzMax = std::max(m_acc.smClockMhzMax, double(clock));
    m_acc.available = true;
  }
  if (gotTemp) m_acc.temperatureCMax = std::max(m_acc.temperatureCMax, double(temp));
  if (gotPower) m_powerSum += mw / 1000.0, ++m_powerCount;
  if (gotReasons) m_reasons |= reasons;
}

std::optional<std::uint64_t> NvmlSampler::energyMj(std::string& why) const {
  if (!available()) {
    why = m_why;
    return std::nullopt;
  }
  if (!m_api->energy) {
    why = "this NVML has no nvmlDeviceGetTotalEnergyConsumption";
    return std::nullopt;
  }
  unsigned long long mj = 0;
  if (const int rc = m_api->energy(m_device, &mj); rc != 0) {
    // NVML_ERROR_NOT_SUPPORTED (3): before Volta, or a board without the counter.
    why = "nvmlDeviceGetTotalEnergyConsumption: " +
          std::string(m_api->errorString ? m_api->errorString(rc) : "error") + " (NVML error " +
          std::to_string(rc) + ")";
    return std::nullopt;
  }
  return std::uint64_t(mj);
}

std::optional<double> NvmlSampler::powerW() const {
  unsigned mw = 0;
  if (!available() || m_api->power(m_device, &mw) != 0) return std::nullopt;
  return mw / 1000.0;
}

std::optional<double> NvmlSampler::powerLimitW() const {
  unsigned mw = 0;
  if (!available() || !m_api->powerLimit || m_api->powerLimit(m_device, &mw) != 0)
    return std::nullopt;
  return mw / 1000.0;
}

void NvmlSampler::start() {
  if (!available() || m_running) return;
  m_acc = ClockSample{};
  m_powerSum = 0;
  m_powerCount = 0;
  m_reasons = 0;
  m_running = true;
  sampleOnce();
  m_thread = std::thread([this] {
    while (m_running) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));  // sampling period, not a wait
      sampleOnce();
    }
  });
}

ClockSample NvmlSampler::stop() {
  if (!m_running) return ClockSample{};
  m_running = false;
  if (m_thread.joinable()) m_thread.join();
  sampleOnce();
  std::lock_guard lock(m_mutex);
  ClockSample out = m_acc;
  out.powerWMean = m_powerCount ? m_powerSum / m_powerCount : 0.0;
  // Idle is set whenever the GPU waits on the host between samples: not a throttle.
  out.throttleReasons = throttleReasonNames(m_reasons & ~1ull);
  return out;
}

std::vector<std::string> NvmlSampler::throttleReasonNames(unsigned long long mask) {
  static const std::pair<unsigned long long, const char*> kNames[] = {
      {0x1, "gpu idle"},
      {0x2, "applications clocks setting"},
      {0x4, "software power cap"},
      {0x8, "hardware slowdown"},
      {0x10, "sync boost"},
      {0x20, "software thermal slowdown"},
      {0x40, "hardware thermal slowdown"},
      {0x80, "hardware power brake"},
      {0x100, "display clock setting"}};
  std::vector<std::string> out;
  for (const auto& [bit, name] : kNames)
    if (mask & bit) out.emplace_back(name);
  return out;
}

}  // namespace kwb::cuda
