// SPDX-License-Identifier: Apache-2.0
#pragma once
// Is kwb running under an outside profiler (docs/MEASUREMENT.md, "Under a profiler")? Nsight
// Compute serialises and replays every kernel, so a stream held by the blocking kernel waits
// for its time-out there; Nsight Systems and Nsight Compute both own CUPTI, so kwb's own CUPTI
// check cannot subscribe. Both inject themselves through CUDA_INJECTION64_PATH, which names
// their library; KWB_PROFILER=ncu|nsys|none overrides what is found.
#include <functional>
#include <string>
#include <string_view>

namespace kwb {

enum class Profiler { kNone, kNsightCompute, kNsightSystems };
std::string_view toString(Profiler p);  // "", "Nsight Compute", "Nsight Systems"

// `env(name)` returns a variable's value or null (std::getenv by default).
Profiler detectProfiler(const std::function<const char*(const char*)>& env = {});

}  // namespace kwb
