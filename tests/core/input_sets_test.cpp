// SPDX-License-Identifier: Apache-2.0
// The input sets a case's timed launches rotate through (kwb/cuda/input_sets.h, kwb run
// --fresh-inputs): K distinct seeds from the case's, as many sets as the free memory holds,
// the set count the run asks for, a note when fewer fitted, and the launch-by-launch rotation
// the timed-output check follows. Host code, no GPU needed.
#include "kwb/cuda/input_sets.h"

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "kwb/cuda/family_driver.h"
#include "kwb/cuda/runner.h"
#include "kwb/run_document.h"

namespace {

using kwb::cuda::InputRotation;
using kwb::cuda::inputSetSeed;
using kwb::cuda::inputSetsThatFit;

TEST(InputSets, SixtyFourSetsHaveDistinctSeedsAndSetZeroIsTheCases) {
  for (const std::uint64_t seed : {std::uint64_t{0}, std::uint64_t{0x5EED}, ~std::uint64_t{0}}) {
    std::set<std::uint64_t> seeds;
    for (int j = 0; j < 64; ++j) seeds.insert(inputSetSeed(seed, j));
    EXPECT_EQ(seeds.size(), 64u) << seed;
    EXPECT_EQ(inputSetSeed(seed, 0), seed);
  }
  // GEMM's further sets keep the seeds its documents were recorded with.
  EXPECT_EQ(inputSetSeed(0x5EED, 1), 0x5EEDull + 0xD1B54A32D192ED03ull);
}

TEST(InputSets, AsManyFitAsTheFreeMemoryHoldsAboveTheHeadroom) {
  EXPECT_EQ(inputSetsThatFit(4, 100, 1000, 100), 4);   // 9 further sets would fit
  EXPECT_EQ(inputSetsThatFit(4, 400, 1000, 100), 3);   // 900 bytes of room: 2 further sets
  EXPECT_EQ(inputSetsThatFit(4, 450, 1000, 100), 3);   // exactly 2
  EXPECT_EQ(inputSetsThatFit(4, 451, 1000, 100), 2);   // one byte short of the second
  EXPECT_EQ(inputSetsThatFit(4, 1000, 1000, 100), 1);  // none: the case keeps its own
  EXPECT_EQ(inputSetsThatFit(4, 100, 50, 100), 1);     // free memory below the headroom
  EXPECT_EQ(inputSetsThatFit(1, 1, 1e12, 0), 1);
  EXPECT_EQ(inputSetsThatFit(0, 1, 1e12, 0), 1);  // never fewer than the one it has
  EXPECT_EQ(inputSetsThatFit(4, 0, 0, 100), 4);   // empty inputs always fit
}

TEST(InputSets, TheRunAsksForItsFreshInputsAndAVerificationForOne) {
  kwb::cuda::DriverContext ctx;
  EXPECT_EQ(kwb::cuda::inputSetsWanted(ctx), 1);  // outside a run
  kwb::cuda::RunConfig cfg;
  ctx.run = &cfg;
  EXPECT_EQ(kwb::cuda::inputSetsWanted(ctx), 1);
  cfg.freshInputs = 4;
  EXPECT_EQ(kwb::cuda::inputSetsWanted(ctx), 4);
  cfg.verifyOnly = true;  // nothing is timed: no further sets
  EXPECT_EQ(kwb::cuda::inputSetsWanted(ctx), 1);
  cfg.verifyOnly = false;
  cfg.freshInputs = 0;
  EXPECT_EQ(kwb::cuda::inputSetsWanted(ctx), 1);
}

TEST(InputSets, FewerSetsThanAskedAreRecordedAndNoted) {
  kwb::CaseResult c;
  kwb::cuda::recordInputSets(c, 4, 4);
  EXPECT_EQ(c.inputSets, 4);
  EXPECT_TRUE(c.timerNote.empty()) << c.timerNote;
  c.timerNote = "throttled";
  kwb::cuda::recordInputSets(c, 2, 4);
  EXPECT_EQ(c.inputSets, 2);
  EXPECT_EQ(c.timerNote,
            "throttled; rotated through 2 of 4 input sets (--fresh-inputs): the device memory "
            "held no more");
}

TEST(InputSets, TimedLaunchesReadSetAfterSetAndTheCheckKnowsTheLastAndTheNext) {
  std::vector<int> read;
  auto rotation = std::make_shared<InputRotation>(3);
  const std::function<void()> launch = kwb::cuda::rotatedLaunch(
      rotation,
      [&read](int j) -> std::function<void()> { return [&read, j] { read.push_back(j); }; });
  for (int i = 0; i < 7; ++i) launch();
  EXPECT_EQ(read, (std::vector<int>{0, 1, 2, 0, 1, 2, 0}));
  EXPECT_EQ(rotation->last(), 0);
  EXPECT_EQ(rotation->next(), 1);
  for (std::size_t i = 1; i < read.size(); ++i) EXPECT_NE(read[i], read[i - 1]) << i;
}

TEST(InputSets, OneSetIsReadByEveryLaunch) {
  int launches = 0;
  auto rotation = std::make_shared<InputRotation>(1);
  int made = 0;
  const auto launch = kwb::cuda::rotatedLaunch(rotation, [&](int) -> std::function<void()> {
    ++made;
    return [&launches] { ++launches; };
  });
  EXPECT_EQ(made, 1);
  launch();
  launch();
  EXPECT_EQ(launches, 2);
  EXPECT_EQ(rotation->last(), 0);
  EXPECT_EQ(rotation->next(), 0);
  EXPECT_EQ(InputRotation(0).sets(), 1);  // never fewer than one
}

}  // namespace
