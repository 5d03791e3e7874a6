#pragma once
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "kwb/cuda/device_buffer.h"
#include "kwb/results.h"
#include "kwb/stopping.h"
#include "kwb/timer.h"

struct CUstream_st;

namespace kwb::cuda {

struct MeasureOptions {
  int warmups = 2;  // at least; warm-ups go on until the SM clock is steady
  StoppingRule rule;
  bool coldL2 = false;
  TimerMode timer = kDefaultTimer;
  bool cuptiCheck = true;  // after sampling, time a few samples with CUPTI too
  // isolated, cupti and host: kernels shorter than this are launched several times per
  // sample, so event resolution does not dominate; a sample then lasts about batchTargetMs.
  double batchBelowMs = 0.010;
  double batchTargetMs = 0.100;
  // isolated and cupti: at most this many launches wait behind the blocking kernel (a full
  // launch queue would block the host that must release it).
  int maxQueuedLaunches = 32;
  // back-to-back: one graph replay lasts about this long, so its own launch is negligible.
  double graphTargetMs = 1.0;
  int maxGraphLaunches = 1000;
  double maxWarmupS = 1.0;         // bound on the clock warm-up
  double throttleFraction = 0.90;  // samples below this share of the warm-up clock are dropped
  int cuptiCheckSamples = 10;
  const char* nvtxRange = "kwb_samples";  // NVTX range around the timed samples
};

struct Measurement {
  std::vector<double> samplesMs;  // per launch
  int launchesPerSample = 1;
  StopReason reason = StopReason::kContinue;
  TimerMode timer = kDefaultTimer;  // what made the samples (a graph may fall back)
  std::string timerNote;
  int throttledSamples = 0;
  double warmupSmClockMhz = 0;
  std::vector<KernelRecord> kernels;    // from CUPTI, where it ran
  std::optional<double> cuptiMedianMs;  // CUPTI's per-launch kernel time
  std::string cuptiNote;                // why CUPTI gave nothing, where it did not
};

// Writes the measurement options into the settings a results document records.
void recordMeasureOptions(const MeasureOptions& opt, RunSettings& settings);

// Flushes L2 between samples by writing a buffer at least twice the L2 size (nvbench,
// CUTLASS profiler). Owns the buffer.
class L2Flusher {
 public:
  explicit L2Flusher(std::size_t l2Bytes);
  void flush(CUstream_st* stream);
  std::size_t bytes() const { return m_buf.bytes(); }

 private:
  DeviceBuffer<unsigned char> m_buf;
};

// Times `enqueue` (which launches work on `stream` and returns at once) with the timer the
// options name (docs/MEASUREMENT.md): one plain launch (module loading), warm-ups until the
// SM clock is steady, then samples until the stopping rule says stop. Samples taken below
// the throttle fraction of the warm-up clock are dropped and counted. Every kept sample is
// returned. `cancelled` is polled between samples. Throws CudaError, also when a launch
// waited on the host while the blocking kernel held the stream.
Measurement measure(const std::function<void()>& enqueue, CUstream_st* stream,
                    const MeasureOptions& opt, L2Flusher* flusher,
                    const std::function<bool()>& cancelled = {});

// The fixed GPU-side cost of a launch: an empty kernel timed alone behind the blocking
// kernel, and back to back in a graph.
LaunchOverhead measureLaunchOverhead(CUstream_st* stream);

}  // namespace kwb::cuda
