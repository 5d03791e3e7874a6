// SPDX-License-Identifier: Apache-2.0
#pragma once
// Kernels the timer itself launches: the blocking kernel that holds a stream while a sample's
// launches are queued, a kernel that spins for a programmed time (the timer's known-answer
// test), and an empty kernel (the fixed cost of a launch).
struct CUstream_st;

namespace kwb::cuda {

// What the blocking kernel saw, written to host-mapped memory before it exits.
struct BlockerReport {
  unsigned long long cycles;  // SM clock cycles spent spinning (clock64)
  unsigned long long ns;      // nanoseconds spent spinning (%globaltimer)
  int timedOut;               // 1 when it gave up waiting for the release flag
};

// One thread spins until `*releaseFlag` is non-zero and at least `minNs` have passed, or
// until `timeoutNs` have passed. `releaseFlag` and `report` are device pointers to
// host-mapped memory. Throws CudaError when the launch fails.
void launchBlockingKernel(CUstream_st* stream, const volatile int* releaseFlag,
                          BlockerReport* report, unsigned long long minNs,
                          unsigned long long timeoutNs);

// One thread spins for `ns` nanoseconds of the global timer, whatever the SM clock does.
void launchSpinKernel(CUstream_st* stream, unsigned long long ns);

// A kernel that does nothing: what remains of its time is the cost of a launch.
void launchEmptyKernel(CUstream_st* stream);

}  // namespace kwb::cuda
