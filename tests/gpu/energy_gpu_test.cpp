// SPDX-License-Identifier: Apache-2.0
// kwb run --energy on the device, through the built kwb: one case's window finds positive
// joules per launch and an average power within the board's power limit read from NVML.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <unistd.h>

#include "gpu_fixture.h"
#include "kwb/cuda/nvml_sampler.h"
#include "kwb/energy.h"
#include "kwb/results.h"
#include "run_process.h"

namespace fs = std::filesystem;

namespace {

class EnergyGpu : public GpuTest {
 protected:
  // Runs `args` with --energy 0.5 --json and returns its one case's reading; skips where the
  // counter cannot be read here (the reading then says why: the case itself still passed).
  kwb::CaseResult runOne(std::vector<std::string> args) {
    const fs::path json =
        fs::temp_directory_path() / ("kwb_energy_gpu_" + std::to_string(::getpid()) + ".json");
    args.insert(args.end(), {"--energy", "0.5", "--json", json.string()});
    const auto r = runKwb(args);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    const kwb::RunDocument doc = kwb::readDocument(json);
    fs::remove(json);
    EXPECT_EQ(doc.settings.energySeconds, 0.5);
    EXPECT_EQ(doc.cases.size(), 1u);
    return doc.cases.empty() ? kwb::CaseResult{} : doc.cases.front();
  }
};

}  // namespace

TEST_F(EnergyGpu, AGemmCaseHasPositiveJoulesAndPowerWithinTheBoardLimit) {
  const kwb::CaseResult c = runOne({"run", "--kernels", "cublas.sgemm", "--shapes", "2048"});
  ASSERT_TRUE(kwb::isGood(c.status)) << c.message;
  ASSERT_TRUE(c.energy) << "no energy reading in the case";
  const kwb::EnergyReading& e = *c.energy;
  if (!e.measured()) GTEST_SKIP() << "energy counter not available here: " << e.unavailable;
  kwb::cuda::NvmlSampler nvml(0);
  const auto limit = nvml.powerLimitW();
  ASSERT_TRUE(limit) << "NVML reads energy but not the power limit";
  EXPECT_NEAR(e.powerLimitW, *limit, 1.0);
  EXPECT_GT(e.joulesPerLaunch, 0.0);
  EXPECT_GT(e.powerW, 0.0);
  // Averaged over the window the board stays within its limit (5% for the limit's own
  // regulation and the counter's bound).
  EXPECT_LE(e.powerW, 1.05 * *limit);
  EXPECT_GE(e.windowS, 0.5);
  EXPECT_GT(e.launches, 0);
  EXPECT_NEAR(e.joulesPerLaunch * double(e.launches), e.joules, 1e-6 * e.joules);
  // Below 1%, or the window stretched to its cap trying (a counter that moves every 100 ms
  // needs about 10 s; docs/MEASUREMENT.md, "Quantisation").
  EXPECT_TRUE(e.uncertaintyPct <= 1.0 || e.windowS >= 0.99 * kwb::energy::kMaxStretch * 0.5)
      << e.uncertaintyPct << "% from a step of " << e.counterStepJ << " J over " << e.joules
      << " J in " << e.windowS << " s";
  EXPECT_EQ(e.workUnit, "GFLOP/J");
  // 2·2048³ FLOP a launch over its joules.
  EXPECT_NEAR(e.workPerJoule, 2.0 * 2048 * 2048 * 2048 * 1e-9 / e.joulesPerLaunch,
              1e-9 * e.workPerJoule);
  EXPECT_GT(e.smClockMhzMax, 0.0);
}

TEST_F(EnergyGpu, AMemoryBoundCaseReportsGigabytesPerJoule) {
  const kwb::CaseResult c = runOne({"run", "--family", "reduce", "--kernels", "cub.reduce_sum",
                                    "--sizes", "2^26", "--types", "f32"});
  ASSERT_TRUE(kwb::isGood(c.status)) << c.message;
  ASSERT_TRUE(c.energy);
  if (!c.energy->measured()) GTEST_SKIP() << "energy counter: " << c.energy->unavailable;
  EXPECT_EQ(c.energy->workUnit, "GB/J");
  EXPECT_GT(c.energy->workPerJoule, 0.0);
}
