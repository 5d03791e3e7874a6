// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "kwb/cuda/check.h"
#include "kwb/cuda/cupti_tracer.h"
#include "kwb/cuda/device_buffer.h"
#include "kwb/profiler_env.h"
#include "kwb/results.h"
#include "kwb/stopping.h"
#include "kwb/throttle_filter.h"
#include "kwb/timer.h"

struct CUstream_st;

namespace kwb::cuda {

struct MeasureOptions {
  int warmups = 2;  // at least; warm-ups go on until the SM clock is steady
  // How many samples a case takes (its total over the run): at least minSamples and minTimeS,
  // at most maxSamples and maxTimeS (minSamples wins unless timeCapsMinSamples). maxNoise:
  // a case whose CI is still wider than ±maxNoise after the rounds gets up to as many rounds
  // again (with the cases it is paired with) while within maxTimeS.
  StoppingRule rule;
  // The samples of every case are spread over this many rounds, round-robin across the
  // cases timed together (docs/MEASUREMENT.md, "Rounds"); the CI comes from between rounds.
  int rounds = 20;
  // The run-level deviation a repeat interval adds (kwb/replicates.h, kRunToRunPct); 0: none.
  double runToRunPct = stats::kRunToRunPct;
  std::uint64_t seed = 0x5EED;  // orders the cases within each sweep (seeded shuffle)
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
  // kwb run --energy: after its samples, each case runs alone for at least this many seconds
  // between two readings of the energy counter (kwb/cuda/energy_window.h); 0: no window.
  double energySeconds = 0;
};

struct Measurement {
  std::vector<double> samplesMs;  // per launch
  std::vector<int> rounds;        // the round of each sample
  std::vector<int> sweeps;        // the sweep within its round: (round, sweep) pairs samples
  int launchesPerSample = 1;
  StopReason reason = StopReason::kContinue;
  TimerMode timer = kDefaultTimer;  // what made the samples (a graph may fall back)
  std::string timerNote;
  int throttledSamples = 0;
  double warmupSmClockMhz = 0;
  std::vector<KernelRecord> kernels;        // from CUPTI, where it ran
  std::optional<double> cuptiMedianMs;      // CUPTI's per-launch kernel time
  std::optional<double> cuptiSpanMedianMs;  // CUPTI's first start to last end, per launch
  std::string cuptiNote;                    // why CUPTI gave nothing, where it did not
};

// Under an outside profiler (kwb/profiler_env.h): Nsight Compute gets the host timer (its
// kernel replay would wait on a held stream), one round of a few samples and no CUPTI check;
// Nsight Systems keeps the timer without the CUPTI check (CUPTI has one subscriber). Returns
// the sentence the run logs, empty with no profiler. A timer the user chose that cannot work
// there (`timerGiven`) is an InputError naming --timer.
std::string adaptToProfiler(Profiler p, bool timerGiven, MeasureOptions& opt);

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

class Sampler;

// What the rounds (runRounds) need of a case being timed: how many samples it wants in each
// sweep of each round, one more sample, and in the end everything measured. TimedCase times
// a launch in this process; kwb ab's other build is timed in its own process (peer.h).
class Timing {
 public:
  virtual ~Timing() = default;
  // The case's total sample count (kwb/stopping.h's bounds) and how it spreads over `rounds`.
  int targetSamples() const { return m_target; }
  bool wantsSample(int round, int sweep, int rounds) const;
  int sweepsPerRound(int rounds) const;
  virtual void take(int round, int sweep) = 0;
  virtual double sampledSeconds() const = 0;
  // The CUPTI check (unless off or `cancelled`), then everything measured.
  virtual Measurement finish(const std::function<bool()>& cancelled) = 0;
  virtual const Measurement& soFar() const = 0;
  // Launches the case `launches` times back to back on its own (whole graph replays where it
  // has a graph, so possibly a few more) and waits for them; returns how many ran. Nothing
  // where the case is not launched by this process (kwb ab's other build).
  virtual std::optional<std::int64_t> runAlone(std::int64_t launches) {
    (void)launches;
    return std::nullopt;
  }

 protected:
  int m_target = 1;  // total samples, from the stopping rule's bounds and the sample's length
};

// One case being timed: `enqueue` (which launches work on `stream` and returns at once) with
// the timer the options name (docs/MEASUREMENT.md). Construction makes one plain launch
// (module loading), warms up until the SM clock is steady, sizes a sample and captures the
// graph; take() adds one sample of a round. Samples taken below the throttle fraction of the
// warm-up clock are dropped and counted. What `enqueue` reads must outlive the TimedCase.
// Throws CudaError (also when a launch waited on the host while the blocking kernel held the
// stream) and CuptiUnavailable (timer cupti without CUPTI).
class TimedCase : public Timing {
 public:
  TimedCase(std::function<void()> enqueue, CUstream_st* stream, const MeasureOptions& opt,
            L2Flusher* flusher);
  ~TimedCase() override;
  TimedCase(const TimedCase&) = delete;
  TimedCase& operator=(const TimedCase&) = delete;

  double sampleMs() const { return m_sampleMs; }  // expected length of one sample
  void take(int round, int sweep) override;
  double sampledSeconds() const override { return m_sampledS; }
  Measurement finish(const std::function<bool()>& cancelled) override;
  const Measurement& soFar() const override { return m_m; }
  std::optional<std::int64_t> runAlone(std::int64_t launches) override;

 private:
  std::function<void()> m_enqueue;
  MeasureOptions m_opt;
  std::unique_ptr<Sampler> m_sampler;
  std::unique_ptr<CuptiTracer> m_tracer;  // timer cupti
  std::unique_ptr<ThrottleFilter> m_throttle;
  std::vector<KernelActivity> m_traced;
  Measurement m_m;
  double m_sampleMs = 0;
  double m_sampledS = 0;
};

// Times several cases together: `rounds` rounds, each a pass over the groups in order; within
// a group (cases compared with each other: one size), sweeps of one sample per case in a
// seeded shuffled order, so the samples of a sweep are milliseconds apart and pair up.
// Cases whose CI is wider than rule.maxNoise afterwards get extra rounds with their group.
// `heartbeat(i)` is called before each sample of cases[i]; `failed(i, error)` when one throws
// a CudaError, after which that case takes no more samples (a sticky error rethrows).
struct RoundCase {
  Timing* timing = nullptr;
  int group = 0;
};
void runRounds(std::vector<RoundCase>& cases, const MeasureOptions& opt,
               const std::function<bool()>& cancelled, const std::function<void(int)>& heartbeat,
               const std::function<void(int, const CudaError&)>& failed);

// Times one case on its own (its rounds back to back): the launch overhead, the copy roof,
// tests. `cancelled` is polled between samples.
Measurement measure(const std::function<void()>& enqueue, CUstream_st* stream,
                    const MeasureOptions& opt, L2Flusher* flusher,
                    const std::function<bool()>& cancelled = {});

// The fixed GPU-side cost of a launch: an empty kernel timed alone behind the blocking
// kernel, and back to back in a graph.
LaunchOverhead measureLaunchOverhead(CUstream_st* stream);

}  // namespace kwb::cuda
