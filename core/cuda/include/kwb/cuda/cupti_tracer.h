// SPDX-License-Identifier: Apache-2.0
#pragma once
// The independent clock: CUPTI's activity records of every kernel, memset and memcpy the GPU
// ran, with its GPU start and end. One tracer at a time per process (CUPTI's buffers are
// process-wide).
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

struct CUstream_st;

namespace kwb::cuda {

// The names CUPTI's memset and memcpy records carry (a kernel's name is its own).
inline constexpr const char* kMemsetName = "[memset]";
inline constexpr const char* kMemcpyName = "[memcpy]";

struct KernelActivity {
  std::string name;  // demangled, without the parameter list; kMemsetName, kMemcpyName
  std::uint64_t startNs = 0;
  std::uint64_t endNs = 0;
  // Where it ran: CUPTI's ids, unique in the process (context) and within its context (stream).
  std::uint32_t contextId = 0;
  std::uint32_t streamId = 0;
  double durationMs() const { return double(endNs - startNs) * 1e-6; }
};

// CUPTI could not record (not installed, another profiler holds it, ...): the message says
// why; the run goes on without CUPTI figures.
class CuptiUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class CuptiTracer {
 public:
  CuptiTracer();  // starts recording kernels; throws CuptiUnavailable
  ~CuptiTracer();
  CuptiTracer(const CuptiTracer&) = delete;
  CuptiTracer& operator=(const CuptiTracer&) = delete;

  // Flushes CUPTI's buffers and returns the kernels, memsets and memcpys completed since the
  // last call, in GPU start order, leaving out the timer's own kernels. Synchronise the work
  // first.
  std::vector<KernelActivity> take();
};

// CUPTI's context and stream ids of `stream` (a runtime stream of the current device), to hold
// a launch's records to it; throws CuptiUnavailable when CUPTI cannot say.
struct StreamIdentity {
  std::uint32_t contextId = 0;
  std::uint32_t streamId = 0;
};
StreamIdentity cuptiStreamIdentity(CUstream_st* stream);

// The records that ran somewhere other than `timed` (another stream or context: work the timer
// does not bracket), each as "name (stream S)" or "name (context C)", once per name and place.
std::vector<std::string> recordsOutside(const std::vector<KernelActivity>& records,
                                        StreamIdentity timed);

// "void ns::kernel<int, 4>(float*, int)" -> "ns::kernel<int, 4>"; exposed for tests.
std::string shortKernelName(const std::string& demangled);

}  // namespace kwb::cuda
