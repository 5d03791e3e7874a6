// SPDX-License-Identifier: Apache-2.0
#pragma once
// The independent clock: CUPTI's activity records of every kernel, memset and memcpy the GPU
// ran, with its GPU start and end. One tracer at a time per process (CUPTI's buffers are
// process-wide).
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace kwb::cuda {

// The names CUPTI's memset and memcpy records carry (a kernel's name is its own).
inline constexpr const char* kMemsetName = "[memset]";
inline constexpr const char* kMemcpyName = "[memcpy]";

struct KernelActivity {
  std::string name;  // demangled, without the parameter list; kMemsetName, kMemcpyName
  std::uint64_t startNs = 0;
  std::uint64_t endNs = 0;
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

// "void ns::kernel<int, 4>(float*, int)" -> "ns::kernel<int, 4>"; exposed for tests.
std::string shortKernelName(const std::string& demangled);

}  // namespace kwb::cuda
