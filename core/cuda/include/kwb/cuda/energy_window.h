// SPDX-License-Identifier: Apache-2.0
#pragma once
// A case's energy window on the device (kwb run --energy; docs/MEASUREMENT.md, "Energy per
// launch"): the arithmetic and the procedure are kwb/energy.h's, over NVML's energy counter.
#include <cstdint>
#include <optional>
#include <string>

#include "kwb/energy.h"
#include "kwb/results.h"

namespace kwb::cuda {

class NvmlSampler;
class Timing;

// The board's energy counter through NVML (nvmlDeviceGetTotalEnergyConsumption).
class NvmlEnergyCounter : public energy::EnergyCounter {
 public:
  explicit NvmlEnergyCounter(const NvmlSampler& nvml) : m_nvml(nvml) {}
  std::optional<std::uint64_t> readMj(std::string& why) override;

 private:
  const NvmlSampler& m_nvml;
};

// Case `c`'s energy window, after its timed samples: its launch run alone by `timing` for at
// least `seconds` (the launch count from its median), the counter read before and after and
// polled during it, NVML's power and SM clock sampled by `nvml`, the board's power just before
// and its power limit, and the family's work per joule. Where NVML, the counter or the launch
// is not available the reading says why; a CUDA error of the launches is thrown (CudaError).
EnergyReading measureCaseEnergy(Timing& timing, NvmlSampler& nvml, const CaseResult& c,
                                double seconds);

// The family's work per joule of a measured reading: GFLOP/J for compute-bound families,
// GB/J (of the fewest bytes the problem moves) for memory-bound ones; nothing set where the
// family declares no work.
void setWorkPerJoule(EnergyReading& r, const CaseResult& c);

}  // namespace kwb::cuda
