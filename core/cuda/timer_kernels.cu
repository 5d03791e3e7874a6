// SPDX-License-Identifier: Apache-2.0
#include "kwb/cuda/check.h"
#include "kwb/cuda/timer_kernels.h"

namespace kwb::cuda {
namespace {

__device__ __forceinline__ unsigned long long globalTimerNs() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Holds the stream while the host queues a sample's launches behind it (nvbench's blocking
// kernel). The time-out turns a deadlock (the host waiting on the stream, e.g. for a lazy
// module load, while this kernel waits on the host) into a failed sample. The cycles it
// counts over its spin give the SM clock of the sample, for the throttling check.
__global__ void blockingKernel(const volatile int* release, BlockerReport* report,
                               unsigned long long minNs, unsigned long long timeoutNs) {
  // The clock window starts and ends on a tick of the global timer (1 us apart on an H100),
  // so it spans whole ticks and the SM clock it gives is exact to the polling delay.
  const unsigned long long first = globalTimerNs();
  unsigned long long t0 = first;
  while (t0 == first) t0 = globalTimerNs();
  const long long c0 = clock64();
  unsigned long long t = t0;
  int timedOut = 0;
  for (;;) {
    t = globalTimerNs();
    if (*release != 0 && t - t0 >= minNs) break;
    if (t - t0 >= timeoutNs) {
      timedOut = 1;
      break;
    }
  }
  const unsigned long long last = t;
  while (t == last) t = globalTimerNs();
  const long long c1 = clock64();
  report->cycles = static_cast<unsigned long long>(c1 - c0);
  report->ns = t - t0;
  report->timedOut = timedOut;
  __threadfence_system();
}

__global__ void spinKernel(unsigned long long ns) {
  const unsigned long long start = globalTimerNs();
  while (globalTimerNs() - start < ns) {
  }
}

__global__ void emptyKernel() {}

}  // namespace

void launchBlockingKernel(CUstream_st* stream, const volatile int* releaseFlag,
                          BlockerReport* report, unsigned long long minNs,
                          unsigned long long timeoutNs) {
  blockingKernel<<<1, 1, 0, stream>>>(releaseFlag, report, minNs, timeoutNs);
  KWB_CHECK_LAUNCH();
}

void launchSpinKernel(CUstream_st* stream, unsigned long long ns) {
  spinKernel<<<1, 1, 0, stream>>>(ns);
  KWB_CHECK_LAUNCH();
}

void launchEmptyKernel(CUstream_st* stream) {
  emptyKernel<<<1, 1, 0, stream>>>();
  KWB_CHECK_LAUNCH();
}

}  // namespace kwb::cuda
