// SPDX-License-Identifier: Apache-2.0
// What travels between kwb ab and the other build (core/cuda/peer.h): the measurement options
// one way, a measurement back, unchanged; a measurement whose samples and rounds disagree in
// length is refused.
#include <gtest/gtest.h>

#include "kwb/error.h"
#include "peer.h"

namespace {

using namespace kwb::cuda;

TEST(PeerProtocol, MeasureOptionsTravelUnchanged) {
  MeasureOptions o;
  o.warmups = 5;
  o.rule = {.minSamples = 7,
            .maxSamples = 70,
            .minTimeS = 0.25,
            .maxTimeS = 2.5,
            .maxNoise = 0.003,
            .timeCapsMinSamples = true};
  o.rounds = 13;
  o.seed = 0xFFFFFFFFFFFFFFFFull;
  o.coldL2 = true;
  o.timer = kwb::TimerMode::kIsolated;
  o.cuptiCheck = false;
  const MeasureOptions back = measureOptionsFromJson(measureOptionsToJson(o));
  EXPECT_EQ(back.warmups, 5);
  EXPECT_EQ(back.rule.minSamples, 7);
  EXPECT_EQ(back.rule.maxSamples, 70);
  EXPECT_DOUBLE_EQ(back.rule.minTimeS, 0.25);
  EXPECT_DOUBLE_EQ(back.rule.maxTimeS, 2.5);
  EXPECT_DOUBLE_EQ(back.rule.maxNoise, 0.003);
  EXPECT_TRUE(back.rule.timeCapsMinSamples);
  EXPECT_EQ(back.rounds, 13);
  EXPECT_EQ(back.seed, 0xFFFFFFFFFFFFFFFFull);
  EXPECT_TRUE(back.coldL2);
  EXPECT_EQ(back.timer, kwb::TimerMode::kIsolated);
  EXPECT_FALSE(back.cuptiCheck);
}

TEST(PeerProtocol, AMeasurementComesBackUnchanged) {
  Measurement m;
  m.samplesMs = {0.125, 0.25, 0.5};
  m.rounds = {0, 1, 2};
  m.sweeps = {0, 0, 1};
  m.launchesPerSample = 4;
  m.reason = kwb::StopReason::kMaxTime;
  m.timer = kwb::TimerMode::kBackToBack;
  m.timerNote = "a note";
  m.throttledSamples = 2;
  m.warmupSmClockMhz = 1980;
  m.kernels = {{"sgemm_tiled", 1.0, 0.124}};
  m.cuptiMedianMs = 0.126;
  m.cuptiNote = "";
  const Measurement back = measurementFromJson(measurementToJson(m));
  EXPECT_EQ(back.samplesMs, m.samplesMs);
  EXPECT_EQ(back.rounds, m.rounds);
  EXPECT_EQ(back.sweeps, m.sweeps);
  EXPECT_EQ(back.launchesPerSample, 4);
  EXPECT_EQ(back.reason, kwb::StopReason::kMaxTime);
  EXPECT_EQ(back.timer, kwb::TimerMode::kBackToBack);
  EXPECT_EQ(back.timerNote, "a note");
  EXPECT_EQ(back.throttledSamples, 2);
  EXPECT_DOUBLE_EQ(back.warmupSmClockMhz, 1980);
  ASSERT_EQ(back.kernels.size(), 1u);
  EXPECT_EQ(back.kernels[0].name, "sgemm_tiled");
  EXPECT_DOUBLE_EQ(back.kernels[0].medianMs, 0.124);
  ASSERT_TRUE(back.cuptiMedianMs);
  EXPECT_DOUBLE_EQ(*back.cuptiMedianMs, 0.126);
  EXPECT_FALSE(back.cuptiSpanMedianMs);
}

TEST(PeerProtocol, SamplesWithoutTheirRoundsAreRefused) {
  Measurement m;
  m.samplesMs = {0.1, 0.2};
  m.rounds = {0, 1};
  m.sweeps = {0, 0};
  nlohmann::json j = measurementToJson(m);
  j["rounds"] = {0};
  EXPECT_THROW(measurementFromJson(j), kwb::InputError);
}

}  // namespace
