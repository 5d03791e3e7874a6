// SPDX-License-Identifier: Apache-2.0
#pragma once
// Holds a stream with a spinning kernel while the host queues a sample's launches, so the
// start event is recorded on a stream that is already full: the host's launch path never
// lies between the two events (nvbench's measure_cold method). The kernel is released by a
// flag in host-mapped memory and gives up after a time-out, so a launch that waits on the
// host can never hang the run.
struct CUstream_st;

namespace kwb::cuda {

struct BlockerReport;

class BlockingKernel {
 public:
  // `timeoutS`: how long the kernel waits for release; `minSpinUs`: how long it spins at
  // least, so its SM clock reading spans enough global-timer ticks to be exact.
  explicit BlockingKernel(double timeoutS = 2.0, double minSpinUs = 30.0);
  ~BlockingKernel();
  BlockingKernel(const BlockingKernel&) = delete;
  BlockingKernel& operator=(const BlockingKernel&) = delete;

  // Queues the blocking kernel on `stream`. Throws CudaError.
  void block(CUstream_st* stream);
  // Lets it finish. Call once the sample's work is queued.
  void release();
  // Queues it already released: it spins only its minimum time and reads the SM clock,
  // without holding the stream (the host timer's clock probe; safe under a profiler that
  // serialises launches).
  void probe(CUstream_st* stream);

  // Valid once the stream has synchronised after release().
  bool timedOut() const;
  double smClockMhz() const;  // cycles over nanoseconds of its spin

 private:
  volatile int* m_flag = nullptr;  // host view of the mapped flag
  int* m_flagDevice = nullptr;
  BlockerReport* m_report = nullptr;  // host view
  BlockerReport* m_reportDevice = nullptr;
  unsigned long long m_minNs;
  unsigned long long m_timeoutNs;
};

}  // namespace kwb::cuda
