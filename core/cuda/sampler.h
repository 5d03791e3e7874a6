// SPDX-License-Identifier: Apache-2.0
#pragma once
// One timing sample in each timer mode; the measurement loop (measure.cpp) decides how many.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "kwb/cuda/blocking_kernel.h"
#include "kwb/cuda/cupti_tracer.h"
#include "kwb/cuda/cuda_event.h"
#include "kwb/timer.h"

struct CUstream_st;
struct CUgraphExec_st;

namespace kwb::cuda {

class L2Flusher;

struct Sample {
  double ms = 0;                        // per launch
  double smClockMhz = 0;                // measured by the blocking kernel just before the launches
  std::vector<KernelActivity> kernels;  // CUPTI's records, when a tracer is attached
  double kernelMs = 0;                  // their durations summed, per launch
  // First start to last end of the records, per launch: back to back, the next launch's start
  // overlaps the previous one's end, which the summed durations count twice.
  double kernelSpanMs = 0;
};

class Sampler {
 public:
  Sampler(const std::function<void()>& enqueue, CUstream_st* stream, L2Flusher* flusher);
  ~Sampler();
  Sampler(const Sampler&) = delete;
  Sampler& operator=(const Sampler&) = delete;

  // Captures `launches` enqueues into a CUDA graph for back-to-back samples. Returns the
  // reason when the launches cannot be captured (the stream is left usable), else nullopt.
  std::optional<std::string> captureGraph(int launches);
  void attachTracer(CuptiTracer* tracer) { m_tracer = tracer; }

  // `mode` is isolated, back-to-back (needs captureGraph first), cupti (needs a tracer) or
  // host. With cold L2 the flush is queued before the sample, outside its events.
  Sample take(TimerMode mode, int launches, bool coldL2);
  // Enqueues at least `launches` back to back, whole graph replays where a graph was captured,
  // with no timing around them, then waits for the stream; returns how many ran.
  std::int64_t runAlone(std::int64_t launches);

 private:
  Sample gpuSample(TimerMode mode, int launches, bool coldL2);
  Sample hostSample(int launches, bool coldL2);
  // With cold L2, queues the flush (outside the sample's events) and keeps its memset out of
  // the attached tracer's records.
  void flushL2(bool coldL2);
  // Takes the attached tracer's records of the sample's `launches` into `s`.
  void takeKernels(Sample& s, int launches);

  const std::function<void()>& m_enqueue;
  CUstream_st* m_stream;
  L2Flusher* m_flusher;
  BlockingKernel m_blocker;
  CudaEvent m_start, m_stop;
  CuptiTracer* m_tracer = nullptr;
  CUgraphExec_st* m_graph = nullptr;
  int m_graphLaunches = 0;
};

}  // namespace kwb::cuda
