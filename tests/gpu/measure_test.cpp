// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "gpu_fixture.h"
#include "kwb/cuda/device.h"
#include "kwb/cuda/device_buffer.h"
#include "kwb/cuda/measure.h"
#include "kwb/cuda/stream.h"
#include "kwb/stats.h"
#include "measure_kernels.h"

using kwb::cuda::measure;
using kwb::cuda::MeasureOptions;

class Measure : public GpuTest {};

// A kernel of known length (2 ms of global-timer spinning) is measured within 5%.
TEST_F(Measure, SpinKernelOfKnownLengthWithinFivePercent) {
  kwb::cuda::Stream stream;
  MeasureOptions opt;
  opt.rule = {.minSamples = 20, .maxSamples = 200, .minTimeS = 0, .maxTimeS = 2, .maxNoise = 0.01};
  const auto m = measure([&] { launchSpin(2.0, stream.get()); }, stream.get(), opt, nullptr);
  const double median = kwb::stats::median(m.samplesMs);
  EXPECT_EQ(m.launchesPerSample, 1);
  EXPECT_GE(m.samplesMs.size(), 20u);
  EXPECT_NEAR(median, 2.0, 0.1) << "median " << median << " ms";
}

// Short kernels are batched per event pair, and the per-launch time stays right.
TEST_F(Measure, ShortKernelIsBatched) {
  kwb::cuda::Stream stream;
  MeasureOptions opt;
  opt.rule = {.minSamples = 10, .maxSamples = 50, .minTimeS = 0, .maxTimeS = 2, .maxNoise = 0.02};
  const auto m = measure([&] { launchSpin(0.002, stream.get()); }, stream.get(), opt, nullptr);
  EXPECT_GT(m.launchesPerSample, 1);
  const double median = kwb::stats::median(m.samplesMs);
  EXPECT_GT(median, 0.0015);
  EXPECT_LT(median, 0.02);  // 2 µs of spinning plus launch overhead, never a batch's total
}

// A bandwidth-bound read of a buffer that fits in L2 is slower when L2 is flushed first.
TEST_F(Measure, ColdL2IsSlowerThanHotOnBandwidthBoundRead) {
  const auto dev = kwb::cuda::queryDevice(0);
  const std::size_t floats = std::size_t(dev.l2Bytes) / 2 / sizeof(float) / 4 * 4;  // half of L2
  kwb::cuda::DeviceBuffer<float> in(floats), out(1);
  KWB_CUDA_CHECK(cudaMemset(in.get(), 0, in.bytes()));
  kwb::cuda::Stream stream;
  kwb::cuda::L2Flusher flusher(std::size_t(dev.l2Bytes));
  EXPECT_GE(flusher.bytes(), 2 * std::size_t(dev.l2Bytes));
  MeasureOptions opt;
  opt.rule = {.minSamples = 30, .maxSamples = 100, .minTimeS = 0, .maxTimeS = 2, .maxNoise = 0.02};
  auto run = [&](bool cold) {
    opt.coldL2 = cold;
    const auto m = measure([&] { launchRead(in.get(), floats, out.get(), stream.get()); },
                           stream.get(), opt, &flusher);
    return kwb::stats::median(m.samplesMs);
  };
  const double hot = run(false), cold = run(true);
  EXPECT_GT(cold, hot * 1.2) << "hot " << hot << " ms, cold " << cold << " ms";
}

TEST_F(Measure, CancelStopsSampling) {
  kwb::cuda::Stream stream;
  MeasureOptions opt;
  opt.rule = {
      .minSamples = 1000, .maxSamples = 1000, .minTimeS = 0, .maxTimeS = 100, .maxNoise = 0};
  int polls = 0;
  const auto m = measure([&] { launchSpin(0.05, stream.get()); }, stream.get(), opt, nullptr,
                         [&] { return ++polls > 5; });
  EXPECT_EQ(m.samplesMs.size(), 5u);
}
