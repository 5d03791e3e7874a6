#include "kwb/cuda/measure.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "kwb/cuda/check.h"
#include "kwb/cuda/event.h"

namespace kwb::cuda {
namespace {

struct EventPair {
  Event start, stop;
};

double timeOnce(const std::function<void()>& enqueue, cudaStream_t s, EventPair& ev, int launches) {
  ev.start.record(s);
  for (int i = 0; i < launches; ++i) enqueue();
  ev.stop.record(s);
  ev.stop.synchronize();
  return double(ev.stop.elapsedMsSince(ev.start)) / launches;
}

}  // namespace

void recordMeasureOptions(const MeasureOptions& opt, RunSettings& settings) {
  settings.coldL2 = opt.coldL2;
  settings.warmups = opt.warmups;
  settings.minSamples = opt.rule.minSamples;
  settings.maxSamples = opt.rule.maxSamples;
  settings.minTimeS = opt.rule.minTimeS;
  settings.maxTimeS = opt.rule.maxTimeS;
  settings.maxNoise = opt.rule.maxNoise;
}

L2Flusher::L2Flusher(std::size_t l2Bytes) : m_buf(std::max<std::size_t>(2 * l2Bytes, 1 << 20)) {}

void L2Flusher::flush(CUstream_st* stream) {
  // A write (not a read) evicts dirty and clean lines alike; the value changes each time so
  // no layer can skip it as redundant.
  static int value = 0;
  value = (value + 1) & 0xff;
  KWB_CUDA_CHECK(cudaMemsetAsync(m_buf.get(), value, m_buf.bytes(), stream));
}

Measurement measure(const std::function<void()>& enqueue, CUstream_st* stream,
                    const MeasureOptions& opt, L2Flusher* flusher,
                    const std::function<bool()>& cancelled) {
  Measurement m;
  EventPair ev;
  // Warm-ups: module load, cuBLAS heuristics and clocks settle outside the samples.
  for (int i = 0; i < opt.warmups; ++i) timeOnce(enqueue, stream, ev, 1);
  // The batch decision reads the fastest of a few single launches of a short kernel: one
  // launch timed alone can read several microseconds long (on an H200 a 2 µs kernel once
  // read 10 µs or more, and was not batched). Long kernels need only the one look.
  constexpr int kEstimateLaunches = 5;
  double estimateMs = timeOnce(enqueue, stream, ev, 1);
  for (int i = 1; i < kEstimateLaunches && estimateMs < 10 * opt.batchBelowMs; ++i)
    estimateMs = std::min(estimateMs, timeOnce(enqueue, stream, ev, 1));
  if (!opt.coldL2 && estimateMs < opt.batchBelowMs)
    m.launchesPerSample =
        std::clamp(int(std::ceil(opt.batchTargetMs / std::max(estimateMs, 1e-4))), 2, 1000);

  using Clock = std::chrono::steady_clock;
  const auto begin = Clock::now();
  for (;;) {
    if (cancelled && cancelled()) break;
    if (opt.coldL2 && flusher) flusher->flush(stream);
    m.samplesMs.push_back(timeOnce(enqueue, stream, ev, m.launchesPerSample));
    const double elapsed = std::chrono::duration<double>(Clock::now() - begin).count();
    m.reason = shouldStop(opt.rule, m.samplesMs, elapsed);
    if (m.reason != StopReason::kContinue) break;
  }
  return m;
}

}  // namespace kwb::cuda
