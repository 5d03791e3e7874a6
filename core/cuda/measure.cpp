// SPDX-License-Identifier: Apache-2.0
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
#include "kwb/error.h"
#include "kwb/stats.h"
#include "kwb/throttle_filter.h"
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

// A case's total sample count: at least minSamples and minTimeS, at most maxSamples and maxTimeS
// (minSamples wins over maxTimeS unless timeCapsMinSamples).
int samplesFor(const StoppingRule& r, double sampleMs) {
  const double perSample = std::max(sampleMs, 1e-4) * 1e-3;  // seconds
  int n = std::max(r.minSamples, int(std::ceil(r.minTimeS / perSample)));
  const int byTime = int(std::floor(r.maxTimeS / perSample));
  n = std::min(n, std::max(byTime, r.timeCapsMinSamples ? 1 : r.minSamples));
  return std::clamp(n, 1, std::max(r.maxSamples, 1));
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
  std::vector<double> perLaunch, span;
  try {
    // Bounded like sampling: a slow case stops after two once the time cap has passed.
    const auto begin = Clock::now();
    for (int i = 0; i < opt.cuptiCheckSamples; ++i) {
      if (i >= 2 && secondsSince(begin) >= opt.rule.maxTimeS) break;
      const Sample s = sampler.take(mode, launches, opt.coldL2);
      perLaunch.push_back(s.kernelMs);
      span.push_back(s.kernelSpanMs);
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
  m.cuptiSpanMedianMs = stats::median(span);
}

}  // namespace

std::string adaptToProfiler(Profiler p, bool timerGiven, MeasureOptions& opt) {
  if (p == Profiler::kNone) return "";
  const std::string name(toString(p));
  opt.cuptiCheck = false;
  if (p == Profiler::kNsightSystems)
    return "running under " + name + ": timer " + std::string(toString(opt.timer)) +
           ", no CUPTI check (the profiler owns CUPTI)";
  if (timerGiven && opt.timer != TimerMode::kHost)
    throw InputError("--timer " + std::string(toString(opt.timer)) + " cannot run under " + name +
                     ": it replays each kernel while the blocking kernel holds the stream; use "
                     "--timer host (the default under a profiler)");
  opt.timer = TimerMode::kHost;
  opt.rounds = 1;
  opt.warmups = 1;
  opt.maxWarmupS = 0;
  opt.rule.minSamples = opt.rule.maxSamples = 3;
  opt.rule.minTimeS = 0;
  opt.rule.maxNoise = 0;
  opt.batchBelowMs = 0;  // one launch per sample: each is profiled
  // A window of profiled launches would measure the profiler.
  const std::string noEnergy = opt.energySeconds > 0 ? ", no energy window" : "";
  opt.energySeconds = 0;
  return "running under " + name +
         ": timer host, 3 samples of one launch per case, no CUPTI check" + noEnergy +
         " (the profiler replays every kernel; its own durations are the figures to read)";
}

void recordMeasureOptions(const MeasureOptions& opt, RunSettings& settings) {
  settings.replicates = opt.rounds;
  settings.coldL2 = opt.coldL2;
  settings.warmups = opt.warmups;
  settings.minSamples = opt.rule.minSamples;
  settings.maxSamples = opt.rule.maxSamples;
  settings.minTimeS = opt.rule.minTimeS;
  settings.maxTimeS = opt.rule.maxTimeS;
  settings.maxNoise = opt.rule.maxNoise;
  settings.timer = opt.timer;
  settings.cuptiCheck = opt.cuptiCheck;
  settings.energySeconds = opt.energySeconds;
}

L2Flusher::L2Flusher(std::size_t l2Bytes) : m_buf(std::max<std::size_t>(2 * l2Bytes, 1 << 20)) {}

void L2Flusher::flush(CUstream_st* stream) {
  // A write (not a read) evicts dirty and clean lines alike; the value changes each time so
  // no layer can skip it as redundant.
  static int value = 0;
  value = (value + 1) & 0xff;
  KWB_CUDA_CHECK(cudaMemsetAsync(m_buf.get(), value, m_buf.bytes(), stream));
}

TimedCase::TimedCase(std::function<void()> enqueue, CUstream_st* stream, const MeasureOptions& opt,
                     L2Flusher* flusher)
    : m_enqueue(std::move(enqueue)), m_opt(opt) {
  m_m.timer = opt.timer;
  // One plain launch first: lazy module loading and cuBLAS's first-call work must not
  // happen behind the blocking kernel (they can wait on the device).
  m_enqueue();
  KWB_CUDA_CHECK(cudaStreamSynchronize(stream));

  m_sampler = std::make_unique<Sampler>(m_enqueue, stream, flusher);
  const WarmUp warm = warmUp(*m_sampler, opt);
  m_m.warmupSmClockMhz = warm.smClockMhz;
  m_m.launchesPerSample = launchesFor(m_m.timer, opt, warm.fastestMs);
  if (m_m.timer == TimerMode::kBackToBack) {
    if (auto why = m_sampler->captureGraph(m_m.launchesPerSample)) {
      m_m.timerNote = *why + "; timed isolated instead";
      m_m.timer = TimerMode::kIsolated;
      m_m.launchesPerSample = launchesFor(m_m.timer, opt, warm.fastestMs);
    }
  }
  if (m_m.timer == TimerMode::kCupti) {
    m_tracer = std::make_unique<CuptiTracer>();  // CuptiUnavailable: the caller reports it
    m_sampler->attachTracer(m_tracer.get());
  }
  m_sampleMs = std::max(warm.fastestMs, 1e-4) * m_m.launchesPerSample;
  m_target = samplesFor(opt.rule, m_sampleMs);
  m_throttle = std::make_unique<ThrottleFilter>(m_m.warmupSmClockMhz, opt.throttleFraction,
                                                std::size_t(std::max(opt.rule.minSamples, 10)));
}

TimedCase::~TimedCase() = default;

int Timing::sweepsPerRound(int rounds) const {
  return m_target >= rounds ? (m_target + rounds - 1) / rounds : 1;
}

bool Timing::wantsSample(int round, int sweep, int rounds) const {
  const int n = m_target;
  if (n >= rounds) return sweep < sweepsPerRound(rounds);
  // Fewer samples than rounds: one in each of n rounds spread evenly over the run.
  const int r = round % rounds;
  return sweep == 0 && (r + 1) * n / rounds > r * n / rounds;
}

void TimedCase::take(int round, int sweep) {
  const auto t0 = Clock::now();
  NvtxRange range(m_opt.nvtxRange);
  const Sample s = m_sampler->take(m_m.timer, m_m.launchesPerSample, m_opt.coldL2);
  if (m_throttle->keep(s.smClockMhz, m_m.samplesMs.size())) {
    m_m.samplesMs.push_back(s.ms);
    m_m.rounds.push_back(round);
    m_m.sweeps.push_back(sweep);
    m_traced.insert(m_traced.end(), s.kernels.begin(), s.kernels.end());
  }
  m_m.throttledSamples = m_throttle->dropped();
  m_sampledS += secondsSince(t0);
}

std::optional<std::int64_t> TimedCase::runAlone(std::int64_t launches) {
  NvtxRange range("kwb_energy_window");
  return m_sampler->runAlone(launches);
}

Measurement TimedCase::finish(const std::function<bool()>& cancelled) {
  if (m_throttle->rebased())
    m_m.timerNote += std::string(m_m.timerNote.empty() ? "" : "; ") + m_throttle->note();
  if (m_tracer) {
    m_sampler->attachTracer(nullptr);
    m_m.kernels = kernelRecords(m_traced, m_m.launchesPerSample * int(m_m.samplesMs.size()));
    if (!m_m.samplesMs.empty()) m_m.cuptiMedianMs = stats::median(m_m.samplesMs);
  } else if (m_opt.cuptiCheck && !(cancelled && cancelled())) {
    crossCheckWithCupti(*m_sampler, m_m.timer, m_m.launchesPerSample, m_opt, m_m);
  }
  return m_m;
}

Measurement measure(const std::function<void()>& enqueue, CUstream_st* stream,
                    const MeasureOptions& opt, L2Flusher* flusher,
                    const std::function<bool()>& cancelled) {
  TimedCase t(enqueue, stream, opt, flusher);
  std::vector<RoundCase> one{{&t, 0}};
  runRounds(one, opt, cancelled, {}, [](int, const CudaError& e) { throw e; });
  return t.finish(cancelled);
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
