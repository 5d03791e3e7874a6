// SPDX-License-Identifier: Apache-2.0
#pragma once
// Implausible results (docs/VALIDATION.md, "Implausible results"): a case whose median time is
// below the least time its declared work allows on the device, by more than a margin, is
// suspicious, whatever its comparison said. The bound is the larger of
//   compute: FLOPs / the device's peak for the case's precision (FP32 lanes; FP16 or TF32
//            tensor cores for those precisions), and
//   memory:  the family's declared minimum bytes / the peak DRAM bandwidth, counting only the
//            bytes that cannot stay in L2 between launches (all of them with --cold).
#include <string>

#include "kwb/device_info.h"
#include "kwb/family.h"
#include "kwb/run_document.h"

namespace kwb {

// A case may beat its bound by this share before it is suspicious (peaks are leads from the
// clocks and the bus, kwb/device_info.h, not measurements).
inline constexpr double kPlausibilityMargin = 0.05;

struct TimeBound {
  double ms = 0.0;    // the least time the work allows; 0: no bound (no work or no peaks)
  std::string limit;  // which roof sets it: "FP32 peak 66.9 TFLOP/s", "DRAM 3352 GB/s"
};

// The bound of one launch of `w` at `c`'s precision on `d`, with a hot or cold L2.
TimeBound timeBound(const CaseResult& c, const Work& w, const DeviceInfo& d, bool coldL2);

// Why the timed case `c` is implausible on `d`, or empty: its median below the bound of its
// family's declared work by more than kPlausibilityMargin.
std::string implausibility(const CaseResult& c, const DeviceInfo& d);

}  // namespace kwb
