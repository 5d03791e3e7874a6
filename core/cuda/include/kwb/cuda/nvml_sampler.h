// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "kwb/results.h"

namespace kwb::cuda {

// Samples SM clock, temperature, power and throttle reasons through NVML while a case runs.
// NVML is loaded at run time (dlopen), so kwb starts on machines with no driver; there
// `available()` is false and samples come back with available = false.
class NvmlSampler {
 public:
  explicit NvmlSampler(int cudaDevice);
  ~NvmlSampler();
  NvmlSampler(const NvmlSampler&) = delete;
  NvmlSampler& operator=(const NvmlSampler&) = delete;

  bool available() const { return m_device != nullptr; }
  const std::string& whyUnavailable() const { return m_why; }
  void start();        // begins sampling every few milliseconds on a background thread
  ClockSample stop();  // ends sampling and summarises what was seen

  // The board's energy counter (nvmlDeviceGetTotalEnergyConsumption, Volta and later):
  // millijoules since the driver loaded, or nothing with the reason in `why` (not supported,
  // no permission, NVML unavailable). Safe beside a running sampler (NVML is thread-safe).
  std::optional<std::uint64_t> energyMj(std::string& why) const;
  // The board's power draw now, and its enforced power limit, in watts; nothing where NVML
  // cannot say.
  std::optional<double> powerW() const;
  std::optional<double> powerLimitW() const;

  // Names of the set bits of an NVML clocks-event (throttle) reason mask.
  static std::vector<std::string> throttleReasonNames(unsigned long long mask);

 private:
  void sampleOnce();
  struct Api;
  std::unique_ptr<Api> m_api;
  void* m_device = nullptr;  // nvmlDevice_t
  std::string m_why;
  std::thread m_thread;
  std::atomic<bool> m_running{false};
  std::mutex m_mutex;
  ClockSample m_acc;
  double m_powerSum = 0;
  int m_powerCount = 0;
  unsigned long long m_reasons = 0;
};

}  // namespace kwb::cuda
