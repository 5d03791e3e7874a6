// SPDX-License-Identifier: Apache-2.0
#pragma once
// Work outside the timed stream (docs/MEASUREMENT.md, "Work outside the timed stream"): the
// timers bracket the case's stream, so a launch that puts work on another stream or context is
// timed short. One launch of the case, after its verification and before its timing, runs with
// CUPTI recording; every kernel, memset and memcpy it caused must be on the case's stream.
#include <functional>
#include <optional>
#include <string>

struct CUstream_st;

namespace kwb::cuda {

// Runs `enqueue` once on `stream` with CUPTI recording and waits for the device. Returns the
// records found elsewhere, "name (stream S), ..." (empty: none), or nullopt when CUPTI is not
// available (another profiler holds it): nothing was checked.
std::optional<std::string> workOutsideStream(const std::function<void()>& enqueue,
                                             CUstream_st* stream);

}  // namespace kwb::cuda
