#include "kwb/cuda/measure.h"

#include <cuda_runtime_api.h>
#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>

#include "kwb/cuda/check.h"
#include "kwb/cuda/timer_kernels.h"
#include "kwb/throttle_filter.h"
#include "kwb/stats.h"
#include "sampler.h"

namespace kwb::cuda {
namespace {

using Clock = std::chrono::steady_clock;

// The timed samples sit in an NVTX range, so an outside profiler can be limited to them
// (scripts/ncu-compare.py: ncu --nvtx --nvtx-include "kwb_samples/").
struct NvtxRange {
  explicit NvtxRange(const char* name) { nvtxRangePushA(name); }
  ~NvtxRange() { nvtxRangePop(); }
  NvtxRange(const NvtxRange&) = delete;
  NvtxRange& operator=(const NvtxRange&) = delete;
};
double secondsSince(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Warm-ups go on until three SM clock readings in a row agree within 2%, bounded in time.
// Returns the steady clock and the fastest single launch (the batch decision reads it: one
// launch alone can read long, a short kernel's fastest is close to its length).
struct WarmUp {
  double smClockMhz = 0;
  double fastestMs = 0;
};
WarmUp warmUp(Sampler& sampler, const MeasureOptions& opt) {
  std::vector<double> clocks;
  double fastest = INFINITY;
  const auto begin = Clock::now();
  for (int i = 0;; ++i) {
    // The host timer never holds the stream, so it runs under profilers that serialise
    // launches (a held stream would wait there for its time-out).
    const TimerMode mode = opt.timer == TimerMode::kHost ? TimerMode::kHost : TimerMode::kIsolated;
    const Sample s = sampler.take(mode, 1, false);
    clocks.push_back(s.smClockMhz);
    fastest = std::min(fastest, s.ms);
    if (int(clocks.size()) >= std::max(opt.warmups, 3)) {
      const auto last = clocks.end() - 3;
      const auto [lo, hi] = std::minmax_element(last, clocks.end());
      if (*hi <= *lo * 1.02 || secondsSince(begin) > opt.maxWarmupS) break;
    }
  }
  std::vector<double> last(clocks.end() - 3, clocks.end());
  return {stats::median(last), fastest};
}

int launchesFor(TimerMode mode, const MeasureOptions& opt, double estimateMs) {
  if (opt.coldL2) return 1;  // every launch must find a cold L2
  const double est = std::max(estimateMs, 1e-4);
  if (mode == TimerMode::kBackToBack)
    return std::clamp(int(std::ceil(opt.graphTargetMs / est)), 1, opt.maxGraphLaunches);
  if (estimateMs >= opt.batchBelowMs) return 1;
  const int cap = mode == TimerMode::kHost ? 1000 : opt.maxQueuedLaunches;
  return std::clamp(int(std::ceil(opt.batchTargetMs / est)), 2, std::max(cap, 2));
}

// Per kernel name: instances per launch and median duration.
std::vector<KernelRecord> kernelRecords(const std::vector<KernelActivity>& all, int launches) {
  std::map<std::string, std::vector<double>> byName;
  std::vector<std::string> order;
  for (const auto& k : all) {
    auto& v = byName[k.name];
    if (v.empty()) order.push_back(k.name);
    v.push_back(k.durationMs());
  }
  std::vector<KernelRecord> out;
  for (const auto& name : order) {
    const auto& v = byName[name];
    out.push_back({name, double(v.size()) / std::max(launches, 1), stats::median(v)});
  }
  return out;
}

// A few more samples with CUPTI attached: the kernels one launch runs and their GPU time.
void crossCheckWithCupti(Sampler& sampler, TimerMode mode, int launches, const MeasureOptions& opt,
                         Measurement& m) {
  std::unique_ptr<CuptiTracer> tracer;
  try {
    tracer = std::make_unique<CuptiTracer>();
  } catch (const CuptiUnavailable& e) {
    m.cuptiNote = std::string("CUPTI unavailable: ") + e.what();
    return;
  }
  sampler.attachTracer(tracer.get());
  std::vector<KernelActivity> all;
  std::vector<double> perLaunch;
  try {
    for (int i = 0; i < opt.cuptiCheckSamples; ++i) {
      const Sample s = sampler.take(mode, launches, opt.coldL2);
      perLaunch.push_back(s.kernelMs);
      all.insert(all.end(), s.kernels.begin(), s.kernels.end());
    }
  } catch (const CuptiUnavailable& e) {
    m.cuptiNote = std::string("CUPTI unavailable: ") + e.what();
  }
  sampler.attachTracer(nullptr);
  if (all.empty()) {
    if (m.cuptiNote.empty()) m.cuptiNote = "CUPTI recorded no kernel";
    return;
  }
  m.kernels = kernelRecords(all, launches * int(perLaunch.size()));
  m.cuptiMedianMs = stats::median(perLaunch);
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
  settings.timer = opt.timer;
  settings.cuptiCheck = opt.cuptiCheck;
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
  m.timer = opt.timer;
  // One plain launch first: lazy module loading and cuBLAS's first-call work must not
  // happen behind the blocking kernel (they can wait on the device).
  enqueue();
  KWB_CUDA_CHECK(cudaStreamSynchronize(stream));

  Sampler sampler(enqueue, stream, flusher);
  const WarmUp warm = warmUp(sampler, opt);
  m.warmupSmClockMhz = warm.smClockMhz;
  m.launchesPerSample = launchesFor(m.timer, opt, warm.fastestMs);
  if (m.timer == TimerMode::kBackToBack) {
    if (auto why = sampler.captureGraph(m.launchesPerSample)) {
      m.timerNote = *why + "; timed isolated instead";
      m.timer = TimerMode::kIsolated;
      m.launchesPerSample = launchesFor(m.timer, opt, warm.fastestMs);
    }
  }
  std::unique_ptr<CuptiTracer> tracer;
  if (m.timer == TimerMode::kCupti) {
    tracer = std::make_unique<CuptiTracer>();  // CuptiUnavailable: the caller reports it
    sampler.attachTracer(tracer.get());
  }

  std::vector<KernelActivity> traced;
  const auto begin = Clock::now();
  std::optional<NvtxRange> range(std::in_place, opt.nvtxRange);
  ThrottleFilter throttle(m.warmupSmClockMhz, opt.throttleFraction,
                          std::size_t(std::max(opt.rule.minSamples, 10)));
  for (;;) {
    if (cancelled && cancelled()) break;
    Sample s = sampler.take(m.timer, m.launchesPerSample, opt.coldL2);
    if (throttle.keep(s.smClockMhz, m.samplesMs.size())) {
      m.samplesMs.push_back(s.ms);
      traced.insert(traced.end(), s.kernels.begin(), s.kernels.end());
    }
    m.throttledSamples = throttle.dropped();
    const double elapsed = secondsSince(begin);
    m.reason = shouldStop(opt.rule, m.samplesMs, elapsed);
    // Dropped samples count toward the minimum the time cap waits for, and a GPU that
    // throttles every sample must not keep the case running forever.
    const std::size_t taken = m.samplesMs.size() + std::size_t(m.throttledSamples);
    if (m.reason == StopReason::kContinue && m.throttledSamples > 0 &&
        ((elapsed >= opt.rule.maxTimeS && taken >= std::size_t(std::max(opt.rule.minSamples, 1))) ||
         taken >= std::size_t(2 * opt.rule.maxSamples + 10)))
      m.reason = StopReason::kMaxTime;
    if (m.reason != StopReason::kContinue) break;
  }
  if (throttle.rebased())
    m.timerNote += std::string(m.timerNote.empty() ? "" : "; ") + throttle.note();
  range.reset();
  if (tracer) {
    sampler.attachTracer(nullptr);
    m.kernels = kernelRecords(traced, m.launchesPerSample * int(m.samplesMs.size()));
    if (!m.samplesMs.empty()) m.cuptiMedianMs = stats::median(m.samplesMs);
  } else if (opt.cuptiCheck && !(cancelled && cancelled())) {
    crossCheckWithCupti(sampler, m.timer, m.launchesPerSample, opt, m);
  }
  return m;
}

LaunchOverhead measureLaunchOverhead(CUstream_st* stream) {
  MeasureOptions opt;
  opt.cuptiCheck = false;
  opt.batchBelowMs = 0;  // one empty kernel per sample: the cost of one launch alone
  opt.nvtxRange = "kwb_launch_overhead";
  opt.rule = {
      .minSamples = 50, .maxSamples = 200, .minTimeS = 0, .maxTimeS = 0.2, .maxNoise = 0.01};
  const std::function<void()> empty = [stream] { launchEmptyKernel(stream); };
  LaunchOverhead o;
  opt.timer = TimerMode::kIsolated;
  o.isolatedUs = 1e3 * stats::median(measure(empty, stream, opt, nullptr).samplesMs);
  opt.timer = TimerMode::kBackToBack;
  o.backToBackUs = 1e3 * stats::median(measure(empty, stream, opt, nullptr).samplesMs);
  return o;
}

}  // namespace kwb::cuda
