// SPDX-License-Identifier: Apache-2.0
// The timer's known-answer test: kernels that spin for a programmed time on the global timer
// must measure as that time, agree with CUPTI, and stay the same when the host is slow.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>

#include "gpu_fixture.h"
#include "kwb/cuda/check.h"
#include "kwb/cuda/cupti_tracer.h"
#include "kwb/cuda/device.h"
#include "kwb/cuda/device_buffer.h"
#include "kwb/cuda/measure.h"
#include "kwb/cuda/stream.h"
#include "kwb/cuda/timer_kernels.h"
#include "kwb/stats.h"

using kwb::TimerMode;
using kwb::cuda::measure;
using kwb::cuda::MeasureOptions;

namespace {

MeasureOptions options(TimerMode mode) {
  MeasureOptions opt;
  opt.timer = mode;
  opt.rule = {.minSamples = 30, .maxSamples = 300, .minTimeS = 0, .maxTimeS = 1, .maxNoise = 0.005};
  return opt;
}

// Busy-waits on the host: the planted host latency inside an enqueue.
void hostDelay(double us) {
  const auto t0 = std::chrono::steady_clock::now();
  while (std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() <
         us) {
  }
}

double tolerance(double us) { return std::max(0.02 * us, 0.2); }

// The spin kernel runs longer than programmed by its own fixed cost: its launch, and up to one
// tick of the global timer it reads (1 us on an H100, where CUPTI reads a 3 us spin as
// 3.8 us). A measurement is right when it lies in [T, T + max(2% of T, 1.5 us)] and that
// excess is the same at every length (the timer's scale is exact).
void expectSpinLength(double measuredUs, double programmedUs) {
  EXPECT_GE(measuredUs, programmedUs) << "programmed " << programmedUs << " us";
  EXPECT_LE(measuredUs - programmedUs, std::max(0.02 * programmedUs, 1.5))
      << "programmed " << programmedUs << " us";
}

}  // namespace

class Timer : public GpuTest {};

// The default timer reads spins of 3, 10, 30, 100 and 300 µs as their programmed length plus
// the spin kernel's own constant excess; differences between lengths are exact within 2% (or
// 0.2 µs); CUPTI's kernel durations agree with it within 2% (or 0.2 µs).
TEST_F(Timer, KnownAnswerSpinKernels) {
  kwb::cuda::Stream stream;
  double firstUs = 0, firstMedian = 0;
  for (const double us : {3.0, 10.0, 30.0, 100.0, 300.0}) {
    const auto ns = (unsigned long long)(us * 1e3);
    const auto m = measure([&] { kwb::cuda::launchSpinKernel(stream.get(), ns); }, stream.get(),
                           options(kwb::kDefaultTimer), nullptr);
    ASSERT_FALSE(m.samplesMs.empty());
    EXPECT_EQ(m.timer, kwb::kDefaultTimer) << m.timerNote;
    const double median = 1e3 * kwb::stats::median(m.samplesMs);
    expectSpinLength(median, us);
    if (firstUs == 0) {
      firstUs = us;
      firstMedian = median;
    } else {
      EXPECT_NEAR(median - firstMedian, us - firstUs, tolerance(us - firstUs))
          << "programmed " << us << " us against " << firstUs << " us";
    }
    ASSERT_TRUE(m.cuptiMedianMs.has_value()) << m.cuptiNote;
    const double cupti = 1e3 * *m.cuptiMedianMs;
    // CUPTI's span of the same replay (first start to last end, per launch) is printed, not
    // held: with CUPTI attached each replay runs about 0.09 us per kernel longer. Back to back
    // reads a 3-10 us spin 0.21 us below CUPTI's durations on an H200 and 0.09 us on an H100,
    // a constant that is gone at 100 us (docs/MEASUREMENT.md): hence 0.3 us at short lengths.
    const double span = 1e3 * m.cuptiSpanMedianMs.value_or(0.0);
    EXPECT_NEAR(median, cupti, std::max(0.02 * cupti, 0.3)) << "programmed " << us << " us";
    RecordProperty("spin_" + std::to_string(int(us)) + "us",
                   std::to_string(median) + " us, CUPTI " + std::to_string(cupti) + " us, span " +
                       std::to_string(span) + " us");
    std::printf(
        "spin %6.1f us: %s %.3f us, CUPTI %.3f us (span %.3f us), %d launches/sample, %zu "
        "samples\n",
        us, std::string(kwb::toString(m.timer)).c_str(), median, cupti, span, m.launchesPerSample,
        m.samplesMs.size());
  }
}

// CUPTI as the timer reads the same spins as their programmed length plus the same excess.
TEST_F(Timer, CuptiTimerReadsSpinKernels) {
  kwb::cuda::Stream stream;
  for (const double us : {3.0, 30.0, 300.0}) {
    const auto ns = (unsigned long long)(us * 1e3);
    const auto m = measure([&] { kwb::cuda::launchSpinKernel(stream.get(), ns); }, stream.get(),
                           options(TimerMode::kCupti), nullptr);
    ASSERT_FALSE(m.samplesMs.empty());
    const double median = 1e3 * kwb::stats::median(m.samplesMs);
    expectSpinLength(median, us);
    ASSERT_EQ(m.kernels.size(), 1u);
    EXPECT_NE(m.kernels[0].name.find("spinKernel"), std::string::npos) << m.kernels[0].name;
    EXPECT_DOUBLE_EQ(m.kernels[0].perLaunch, 1.0);
  }
}

// A 5 µs kernel measures the same with and without 50 µs of host work inside its enqueue in
// every GPU-time mode; the host-inclusive timer sees the delay, which proves the planted
// latency is real.
TEST_F(Timer, HostLatencyDoesNotEnterGpuTime) {
  kwb::cuda::Stream stream;
  const unsigned long long ns = 5000;
  auto medianUs = [&](TimerMode mode, double delayUs) {
    auto opt = options(mode);
    opt.cuptiCheck = false;
    const auto m = measure(
        [&] {
          if (delayUs > 0) hostDelay(delayUs);
          kwb::cuda::launchSpinKernel(stream.get(), ns);
        },
        stream.get(), opt, nullptr);
    EXPECT_EQ(m.timer, mode) << m.timerNote;
    return 1e3 * kwb::stats::median(m.samplesMs);
  };
  for (const TimerMode mode : {TimerMode::kIsolated, TimerMode::kBackToBack, TimerMode::kCupti}) {
    const double quick = medianUs(mode, 0), slow = medianUs(mode, 50);
    EXPECT_NEAR(slow, quick, tolerance(quick)) << kwb::toString(mode);
    std::printf("%s: %.3f us without, %.3f us with 50 us of host delay\n",
                std::string(kwb::toString(mode)).c_str(), quick, slow);
  }
  const double hostQuick = medianUs(TimerMode::kHost, 0), hostSlow = medianUs(TimerMode::kHost, 50);
  EXPECT_GT(hostSlow - hostQuick, 40.0) << "host " << hostQuick << " -> " << hostSlow << " us";
}

// The empty kernel's time is the fixed cost of a launch in each mode: positive, a few µs
// alone behind the blocking kernel, less back to back.
TEST_F(Timer, LaunchOverheadIsMeasured) {
  kwb::cuda::Stream stream;
  const auto o = kwb::cuda::measureLaunchOverhead(stream.get());
  std::printf("empty kernel: %.3f us isolated, %.3f us back-to-back\n", o.isolatedUs,
              o.backToBackUs);
  EXPECT_GT(o.backToBackUs, 0.0);
  EXPECT_GT(o.isolatedUs, o.backToBackUs);
  EXPECT_LT(o.isolatedUs, 20.0);
}

// A planted throttle: when every sample reads below the threshold (twice the warm-up clock),
// every sample is dropped and counted; at the real threshold a steady GPU drops few.
TEST_F(Timer, ThrottledSamplesAreDroppedAndCounted) {
  kwb::cuda::Stream stream;
  auto opt = options(kwb::kDefaultTimer);
  opt.cuptiCheck = false;
  opt.rule = {.minSamples = 20, .maxSamples = 20, .minTimeS = 0, .maxTimeS = 1, .maxNoise = 0};
  const auto launch = [&] { kwb::cuda::launchSpinKernel(stream.get(), 20000); };
  const auto steady = measure(launch, stream.get(), opt, nullptr);
  EXPECT_GT(steady.warmupSmClockMhz, 100.0);
  EXPECT_LE(steady.throttledSamples, 2);
  EXPECT_EQ(steady.samplesMs.size(), 20u);
  opt.throttleFraction = 2.0;
  const auto planted = measure(launch, stream.get(), opt, nullptr);
  EXPECT_TRUE(planted.samplesMs.empty());
  EXPECT_GT(planted.throttledSamples, 0);
}

// A launcher that synchronises with the host cannot be isolated: the blocking kernel gives up
// after its time-out and the measurement fails with a clear error instead of hanging.
TEST_F(Timer, SynchronisingLauncherFailsInsteadOfHanging) {
  kwb::cuda::Stream stream;
  auto opt = options(TimerMode::kIsolated);
  opt.cuptiCheck = false;
  const auto t0 = std::chrono::steady_clock::now();
  try {
    measure(
        [&] {
          kwb::cuda::launchSpinKernel(stream.get(), 1000);
          KWB_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
        },
        stream.get(), opt, nullptr);
    FAIL() << "a synchronising launcher was timed as isolated";
  } catch (const kwb::cuda::CudaError& e) {
    EXPECT_NE(std::string(e.what()).find("--timer host"), std::string::npos) << e.what();
  }
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 10.0);
}

// A launcher that cannot be captured in a graph is timed isolated, and says so.
TEST_F(Timer, UncapturableLauncherFallsBackToIsolated) {
  kwb::cuda::Stream stream;
  auto opt = options(TimerMode::kBackToBack);
  opt.cuptiCheck = false;
  const auto m = measure(
      [&] {
        kwb::cuda::launchSpinKernel(stream.get(), 10000);
        // Legal outside a capture (returns not-ready), forbidden inside one.
        const cudaError_t q = cudaStreamQuery(stream.get());
        if (q != cudaSuccess && q != cudaErrorNotReady)
          throw kwb::cuda::CudaError(cudaGetErrorName(q), int(q), false);
      },
      stream.get(), opt, nullptr);
  EXPECT_EQ(m.timer, TimerMode::kIsolated);
  EXPECT_NE(m.timerNote.find("CUDA graph"), std::string::npos) << m.timerNote;
  EXPECT_FALSE(m.samplesMs.empty());
}

// CUPTI lists every kernel one launch runs: two kernels per enqueue give two records.
TEST_F(Timer, CuptiListsEveryKernelOfALaunch) {
  kwb::cuda::Stream stream;
  auto opt = options(TimerMode::kIsolated);
  opt.rule = {.minSamples = 10, .maxSamples = 10, .minTimeS = 0, .maxTimeS = 1, .maxNoise = 0};
  const auto m = measure(
      [&] {
        kwb::cuda::launchSpinKernel(stream.get(), 20000);
        kwb::cuda::launchEmptyKernel(stream.get());
      },
      stream.get(), opt, nullptr);
  ASSERT_EQ(m.kernels.size(), 2u) << m.cuptiNote;
  EXPECT_NE(m.kernels[0].name.find("spinKernel"), std::string::npos);
  EXPECT_NE(m.kernels[1].name.find("emptyKernel"), std::string::npos);
  for (const auto& k : m.kernels) EXPECT_DOUBLE_EQ(k.perLaunch, 1.0) << k.name;
  ASSERT_TRUE(m.cuptiMedianMs.has_value());
  const double sum = m.kernels[0].medianMs + m.kernels[1].medianMs;
  EXPECT_NEAR(*m.cuptiMedianMs, sum, 0.02 * sum);
  expectSpinLength(1e3 * m.kernels[0].medianMs, 20.0);
}

// A memset a launch enqueues is GPU work of that launch: CUPTI lists it beside the kernel and
// counts it in the case's time, so the default timer agrees with CUPTI. With cold L2 the flush
// (a memset of twice the L2) is outside the sample and never among the records.
TEST_F(Timer, CuptiCountsALaunchsMemsetButNotTheL2Flush) {
  kwb::cuda::Stream stream;
  kwb::cuda::DeviceBuffer<char> buf(64u << 20);  // ~30 us of memset on an H100
  for (const bool cold : {false, true}) {
    SCOPED_TRACE(cold ? "cold L2" : "hot L2");
    kwb::cuda::L2Flusher flusher(std::size_t(kwb::cuda::queryDevice(0).l2Bytes));
    auto opt = options(TimerMode::kIsolated);
    opt.coldL2 = cold;
    opt.rule = {.minSamples = 10, .maxSamples = 10, .minTimeS = 0, .maxTimeS = 1, .maxNoise = 0};
    const auto m = measure(
        [&] {
          KWB_CUDA_CHECK(cudaMemsetAsync(buf.get(), 1, buf.bytes(), stream.get()));
          kwb::cuda::launchSpinKernel(stream.get(), 20000);
        },
        stream.get(), opt, cold ? &flusher : nullptr);
    ASSERT_EQ(m.kernels.size(), 2u) << m.cuptiNote;
    EXPECT_EQ(m.kernels[0].name, kwb::cuda::kMemsetName);
    for (const auto& k : m.kernels) EXPECT_DOUBLE_EQ(k.perLaunch, 1.0) << k.name;
    ASSERT_TRUE(m.cuptiMedianMs.has_value());
    const double sum = m.kernels[0].medianMs + m.kernels[1].medianMs;
    EXPECT_NEAR(*m.cuptiMedianMs, sum, 0.02 * sum);
    // The memset is not free: without it CUPTI would read the spin alone, 20 us.
    EXPECT_GT(1e3 * *m.cuptiMedianMs, 21.0);
  }
}

// Kernel names are shown without their parameter lists, anonymous namespaces kept.
TEST(CuptiNames, ParameterListIsCut) {
  EXPECT_EQ(kwb::cuda::shortKernelName("void ns::(anonymous namespace)::k<int, (bool)1>(float*)"),
            "ns::(anonymous namespace)::k<int, (bool)1>");
  EXPECT_EQ(kwb::cuda::shortKernelName("sm90_xmma_gemm_f32f32"), "sm90_xmma_gemm_f32f32");
}
