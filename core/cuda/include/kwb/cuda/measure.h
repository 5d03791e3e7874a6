#pragma once
#include <cstddef>
#include <functional>
#include <vector>

#include "kwb/cuda/device_buffer.h"
#include "kwb/results.h"
#include "kwb/stopping.h"

struct CUstream_st;

namespace kwb::cuda {

struct MeasureOptions {
  int warmups = 2;
  StoppingRule rule;
  bool coldL2 = false;
  // Kernels shorter than this are launched several times per event pair, so launch
  // overhead and event resolution do not dominate the sample.
  double batchBelowMs = 0.010;
  double batchTargetMs = 0.100;  // what one batched sample should last
};

struct Measurement {
  std::vector<double> samplesMs;  // per launch
  int launchesPerSample = 1;
  StopReason reason = StopReason::kContinue;
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

// Times `enqueue` (which launches work on `stream` and returns at once) with CUDA events:
// warm-ups, then one event pair per sample until the stopping rule says stop. Every sample
// is kept. `cancelled` is polled between samples. Throws CudaError.
Measurement measure(const std::function<void()>& enqueue, CUstream_st* stream,
                    const MeasureOptions& opt, L2Flusher* flusher,
                    const std::function<bool()>& cancelled = {});

}  // namespace kwb::cuda
