// SPDX-License-Identifier: Apache-2.0
// kwb run --energy's arithmetic and window (kwb/energy.h) over fake energy counters: one that
// moves finely, one that steps coarsely, one that never moves, one that goes backwards or
// wraps, one that cannot be read. A simulated clock stands for the GPU: no sleeps, no device.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "kwb/energy.h"
#include "kwb/error.h"
#include "kwb/events.h"
#include "kwb/results.h"
#include "sample_document.h"

namespace {

using kwb::EnergyReading;
using kwb::energy::CounterTrace;
using kwb::energy::WindowRun;
using kwb::energy::WindowSpec;

// A board drawing `watts` that counts energy in steps of `stepMj` from `startMj`; `t` is the
// simulated time in seconds. A reading after `breakAtS` subtracts `dropMj` (a driver reload).
struct FakeCounter : kwb::energy::EnergyCounter {
  double watts = 500;
  std::uint64_t stepMj = 1;
  std::uint64_t startMj = 1'000'000;
  double t = 0;
  double breakAtS = INFINITY;
  std::uint64_t dropMj = 0;
  bool moves = true;
  std::string failure;  // non-empty: every read fails with it
  int reads = 0;

  std::optional<std::uint64_t> readMj(std::string& why) override {
    ++reads;
    if (!failure.empty()) {
      why = failure;
      return std::nullopt;
    }
    const auto mj = moves ? std::uint64_t(watts * t * 1e3) / stepMj * stepMj : 0;
    const std::uint64_t v = startMj + mj;  // unsigned: wraps past 2^64 like a real counter
    return t >= breakAtS ? v - dropMj : v;
  }

  // Launches of `medianMs` each, the counter polled every millisecond of simulated time.
  kwb::energy::RunLaunches runner(double medianMs) {
    return [this, medianMs](std::int64_t launches, CounterTrace& trace) {
      const double seconds = double(launches) * medianMs * 1e-3;
      const double end = t + seconds;
      std::string why;
      while (t < end) {
        t = std::min(end, t + 1e-3);
        if (const auto v = readMj(why)) trace.add(*v);
      }
      return WindowRun{launches, seconds};
    };
  }
};

EnergyReading window(FakeCounter& c, double seconds, double medianMs, double maxSeconds = 0) {
  return kwb::energy::measureWindow(c, WindowSpec{seconds, medianMs, maxSeconds},
                                    c.runner(medianMs));
}

}  // namespace

TEST(Energy, LaunchesFillTheWindowFromTheMedian) {
  EXPECT_EQ(kwb::energy::launchesFor(1.0, 0.5), 2000);
  EXPECT_EQ(kwb::energy::launchesFor(1.0, 0.3), 3334);  // rounded up: at least the window
  EXPECT_EQ(kwb::energy::launchesFor(1e-9, 5.0), 1);
  EXPECT_EQ(kwb::energy::launchesFor(1.0, 0.0), 0);
  EXPECT_EQ(kwb::energy::launchesFor(1.0, std::nan("")), 0);
  EXPECT_EQ(kwb::energy::launchesFor(1.0, INFINITY), 0);
}

TEST(Energy, QuantisationBoundIsOneStepOverTheEnergy) {
  EXPECT_DOUBLE_EQ(kwb::energy::quantisationPct(1.0, 200.0), 0.5);
  EXPECT_DOUBLE_EQ(kwb::energy::quantisationPct(50.0, 500.0), 10.0);
  EXPECT_DOUBLE_EQ(kwb::energy::quantisationPct(1.0, 0.0), 100.0);
  // 50 J steps at 500 W: 1% needs 5000 J, 10 s.
  EXPECT_DOUBLE_EQ(kwb::energy::secondsForBound(50.0, 500.0), 10.0);
  EXPECT_DOUBLE_EQ(kwb::energy::secondsForBound(50.0, 0.0), 0.0);
}

TEST(Energy, TraceCountsStepsAndTheirMeanIncrease) {
  CounterTrace t;
  for (std::uint64_t v : {100u, 100u, 150u, 150u, 150u, 200u, 200u}) t.add(v);
  EXPECT_EQ(t.readings(), 7);
  EXPECT_EQ(t.steps(), 2);
  EXPECT_DOUBLE_EQ(t.stepJ(), 0.05);
  EXPECT_TRUE(t.backwards().empty());
  t.add(90);
  EXPECT_EQ(t.backwards(), "from 200 mJ to 90 mJ");
  EXPECT_EQ(CounterTrace().stepJ(), 0.0);
}

TEST(Energy, AFineCounterGivesJoulesPerLaunchAndPowerWithinTheBound) {
  FakeCounter c;  // 500 W, 1 mJ steps
  const EnergyReading r = window(c, 1.0, 0.25);
  ASSERT_TRUE(r.measured()) << r.unavailable;
  EXPECT_EQ(r.launches, 4000);
  EXPECT_NEAR(r.windowS, 1.0, 1e-9);
  EXPECT_NEAR(r.joules, 500.0, 0.002);
  EXPECT_NEAR(r.joulesPerLaunch, 500.0 * 0.25e-3, 1e-6);
  EXPECT_NEAR(r.powerW, 500.0, 0.01);
  // Polled every simulated millisecond: the observed step is a millisecond's energy, 0.5 J.
  EXPECT_NEAR(r.counterStepJ, 0.5, 0.01);
  EXPECT_NEAR(r.uncertaintyPct, 0.1, 0.002);
  EXPECT_NEAR(c.t, 1.0, 1e-9);  // not extended: the bound was met
}

TEST(Energy, ACoarseCounterStretchesTheWindowUntilTheBoundIsMet) {
  FakeCounter c;
  c.stepMj = 50'000;  // 50 J steps: every 100 ms at 500 W
  const EnergyReading r = window(c, 1.0, 0.25, 30.0);
  ASSERT_TRUE(r.measured()) << r.unavailable;
  EXPECT_NEAR(r.counterStepJ, 50.0, 1e-9);
  EXPECT_LE(r.uncertaintyPct, kwb::energy::kTargetBoundPct);
  EXPECT_GE(r.windowS, 9.9);  // 1% of 50 J steps needs 5000 J
  EXPECT_LE(r.windowS, 30.0);
  // The true energy is within the reported bound of the counter's figure.
  EXPECT_NEAR(r.joules, 500.0 * r.windowS, r.joules * r.uncertaintyPct / 100);
}

TEST(Energy, AWindowCappedBeforeTheBoundReportsItsLargerBound) {
  FakeCounter c;
  c.stepMj = 50'000;
  const EnergyReading r = window(c, 1.0, 0.25, 2.0);
  ASSERT_TRUE(r.measured()) << r.unavailable;
  EXPECT_LE(r.windowS, 2.0 + 1e-9);
  EXPECT_GT(r.uncertaintyPct, 4.0);  // about 50 J over 1000 J
}

TEST(Energy, ACounterThatNeverMovesIsReportedNotMeasured) {
  FakeCounter c;
  c.moves = false;
  const EnergyReading r = window(c, 1.0, 0.25);
  EXPECT_FALSE(r.measured());
  EXPECT_NE(r.unavailable.find("did not move in 1.0 s"), std::string::npos) << r.unavailable;
  EXPECT_EQ(r.joules, 0.0);
}

TEST(Energy, ACounterThatGoesBackwardsIsReportedNotMeasured) {
  FakeCounter c;
  c.breakAtS = 0.5;
  c.dropMj = 400'000;
  const EnergyReading r = window(c, 1.0, 0.25);
  EXPECT_FALSE(r.measured());
  // Read at about 0.5 s: 1 250 000 mJ, then 400 000 mJ less.
  EXPECT_NE(r.unavailable.find("went backwards from 12"), std::string::npos) << r.unavailable;
  EXPECT_NE(r.unavailable.find(" mJ to 85"), std::string::npos) << r.unavailable;
}

TEST(Energy, ACounterThatWrapsIsReportedNotACrash) {
  FakeCounter c;
  c.startMj = std::numeric_limits<std::uint64_t>::max() - 100'000;  // wraps after 0.2 s
  const EnergyReading r = window(c, 1.0, 0.25);
  EXPECT_FALSE(r.measured());
  EXPECT_NE(r.unavailable.find("went backwards"), std::string::npos) << r.unavailable;
}

TEST(Energy, AnUnreadableCounterSaysWhyAndLaunchesNothing) {
  FakeCounter c;
  c.failure = "Not Supported";
  const EnergyReading r = window(c, 1.0, 0.25);
  EXPECT_FALSE(r.measured());
  EXPECT_EQ(r.unavailable, "energy counter unreadable: Not Supported");
  EXPECT_EQ(c.t, 0.0);
  EXPECT_EQ(r.requestedS, 1.0);
}

TEST(Energy, NoMedianMeansNoWindow) {
  FakeCounter c;
  const EnergyReading r = window(c, 1.0, 0.0);
  EXPECT_FALSE(r.measured());
  EXPECT_NE(r.unavailable.find("no median"), std::string::npos);
  EXPECT_EQ(c.t, 0.0);
}

TEST(Energy, TheDocumentKeepsEveryFieldOfTheWindow) {
  kwb::RunDocument d = makeSampleDocument();
  d.settings.energySeconds = 2.5;
  EnergyReading e;
  e.requestedS = 2.5;
  e.windowS = 2.61;
  e.launches = 12345;
  e.joules = 1700.25;
  e.joulesPerLaunch = 1700.25 / 12345;
  e.powerW = 651.4;
  e.sampledPowerW = 648.0;
  e.idlePowerW = 112.5;
  e.powerLimitW = 700;
  e.counterStepJ = 0.65;
  e.uncertaintyPct = 0.038;
  e.smClockMhzMin = 1755;
  e.smClockMhzMax = 1980;
  e.workPerJoule = 812.5;
  e.workUnit = "GFLOP/J";
  d.cases[0].energy = e;
  EnergyReading none;
  none.requestedS = 2.5;
  none.unavailable = "energy counter unreadable: Not Supported";
  d.cases[1].energy = none;
  const kwb::RunDocument back = kwb::parseDocument(kwb::toJsonText(d), "r.json");
  EXPECT_EQ(back.settings.energySeconds, 2.5);
  ASSERT_TRUE(back.cases[0].energy);
  const EnergyReading& b = *back.cases[0].energy;
  EXPECT_EQ(b.launches, 12345);
  EXPECT_DOUBLE_EQ(b.joules, e.joules);
  EXPECT_DOUBLE_EQ(b.joulesPerLaunch, e.joulesPerLaunch);
  EXPECT_DOUBLE_EQ(b.powerW, e.powerW);
  EXPECT_DOUBLE_EQ(b.sampledPowerW, e.sampledPowerW);
  EXPECT_DOUBLE_EQ(b.idlePowerW, e.idlePowerW);
  EXPECT_DOUBLE_EQ(b.powerLimitW, e.powerLimitW);
  EXPECT_DOUBLE_EQ(b.counterStepJ, e.counterStepJ);
  EXPECT_DOUBLE_EQ(b.uncertaintyPct, e.uncertaintyPct);
  EXPECT_DOUBLE_EQ(b.smClockMhzMin, e.smClockMhzMin);
  EXPECT_DOUBLE_EQ(b.smClockMhzMax, e.smClockMhzMax);
  EXPECT_DOUBLE_EQ(b.workPerJoule, e.workPerJoule);
  EXPECT_EQ(b.workUnit, "GFLOP/J");
  EXPECT_TRUE(b.measured());
  ASSERT_TRUE(back.cases[1].energy);
  EXPECT_EQ(back.cases[1].energy->unavailable, none.unavailable);
  EXPECT_FALSE(back.cases[1].energy->measured());
}

TEST(Energy, ADocumentWithoutEnergyReadsAsNoneAndWritesNone) {
  const kwb::RunDocument d = makeSampleDocument();
  const std::string text = kwb::toJsonText(d);
  EXPECT_EQ(text.find("energy"), std::string::npos);  // older readers see the schema they know
  const kwb::RunDocument back = kwb::parseDocument(text, "r.json");
  EXPECT_EQ(back.settings.energySeconds, 0.0);
  for (const auto& c : back.cases) EXPECT_FALSE(c.energy);
}

TEST(Energy, ABadEnergyFieldIsNamed) {
  kwb::RunDocument d = makeSampleDocument();
  d.cases[0].energy = EnergyReading{};
  std::string text = kwb::toJsonText(d);
  const auto at = text.find("\"joules\": 0.0");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 13, "\"joules\": \"lots\"");
  try {
    kwb::parseDocument(text, "r.json");
    FAIL() << "a string for joules was accepted";
  } catch (const kwb::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("joules"), std::string::npos) << e.what();
  }
}

// The GUI builds its document from the stream: the plan carries the setting, case_finished
// the window.
TEST(Energy, TheStreamCarriesTheSettingAndEachCasesWindow) {
  kwb::RunDocument d = makeSampleDocument();
  kwb::StreamEvent plan(kwb::EventType::kPlan);
  plan.settings = d.settings;
  plan.settings.energySeconds = 1.5;
  kwb::StreamEvent fin(kwb::EventType::kCaseFinished);
  fin.index = 0;
  fin.result = d.cases[0];
  fin.result->energy = EnergyReading{};
  fin.result->energy->joules = 42.5;
  fin.result->energy->workUnit = "GB/J";
  const auto planBack = kwb::parseEventLine(kwb::toJsonLine(plan), "stream", 1);
  EXPECT_EQ(planBack.settings.energySeconds, 1.5);
  const auto finBack = kwb::parseEventLine(kwb::toJsonLine(fin), "stream", 2);
  ASSERT_TRUE(finBack.result && finBack.result->energy);
  EXPECT_EQ(finBack.result->energy->joules, 42.5);
  EXPECT_EQ(finBack.result->energy->workUnit, "GB/J");
}
