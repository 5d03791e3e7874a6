// SPDX-License-Identifier: Apache-2.0
// conformance.subgroup on the device: the SYCL sub-group plan (docs/CONFORMANCE.md) on CUDA tiles.
#include <gtest/gtest.h>

#include <sstream>

#include "conformance_subgroup.h"
#include "gpu_fixture.h"
#include "kwb/conformance.h"
#include "kwb/cuda/device.h"

namespace {

class SubgroupConformance : public GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped()) return;
    m_device = kwb::cuda::queryDevice(0);
    m_launch = kwb::conformanceLaunch(
        {m_device.maxBlockDim[0], m_device.maxBlockDim[1], m_device.maxBlockDim[2]},
        m_device.maxThreadsPerBlock);
  }

  kwb::DeviceInfo m_device;
  kwb::SubgroupLaunch m_launch;
};

std::string describe(const kwb::ConformanceCheck& c) {
  std::ostringstream os;
  os << c.id << ": " << c.failures << " failures";
  for (const auto& o : c.offenders) os << "\n  " << o;
  return os.str();
}

}  // namespace

TEST_F(SubgroupConformance, EveryCheckPassesForEachTileSize) {
  const std::int64_t threads = m_launch.threadsPerBlock();
  ASSERT_NE(threads % m_device.warpSize, 0) << "the block must end in an incomplete warp";
  for (int tile : kwb::kConformanceTileSizes) {
    SCOPED_TRACE("tile size " + std::to_string(tile) + ", block " +
                 std::to_string(m_launch.block[0]) + "x" + std::to_string(m_launch.block[1]) + "x" +
                 std::to_string(m_launch.block[2]));
    const auto records = kwb::kernels::runSubgroupProbe(m_launch, tile);
    const auto run = kwb::checkSubgroupRecords(records, m_launch, tile, m_device.warpSize);
    ASSERT_EQ(run.checks.size(), 11u);
    for (const auto& c : run.checks) EXPECT_TRUE(c.passed) << describe(c);
    for (const auto& c : run.checks) EXPECT_EQ(c.notJudged, 0) << c.id;
    EXPECT_TRUE(run.passed());
    EXPECT_GT(run.incompleteTiles, 0);
    // The block's thread count is odd, so exactly its last tile is incomplete.
    EXPECT_EQ(run.incompleteTiles, m_launch.blocks());
    EXPECT_EQ(run.tiles, m_launch.blocks() * ((threads + tile - 1) / tile));
  }
}

// The live-lane count is measured on the device; here it is compared with the count the
// block shape implies, so an incomplete tile is known to be reported at its true size.
TEST_F(SubgroupConformance, IncompleteTileReportsTheThreadsThatExist) {
  const auto threads = std::int32_t(m_launch.threadsPerBlock());
  for (int tile : kwb::kConformanceTileSizes) {
    SCOPED_TRACE("tile size " + std::to_string(tile));
    const auto records = kwb::kernels::runSubgroupProbe(m_launch, tile);
    std::int64_t wrong = 0;
    for (const auto& r : records) {
      const std::int32_t expected = std::min(tile, threads - (r.threadLinearId / tile) * tile);
      if (r.localRange != expected || r.maxLocalRange != tile) ++wrong;
    }
    EXPECT_EQ(wrong, 0);
    EXPECT_EQ(records.back().localRange, threads % tile);  // the last thread's tile
  }
}

// Negative control: the checker must reject the device's list once it is damaged.
TEST_F(SubgroupConformance, CheckerRejectsADamagedDeviceList) {
  auto records = kwb::kernels::runSubgroupProbe(m_launch, 32);
  records[records.size() / 2] = kwb::SubgroupRecord{};
  records[7].localId = records[7].localLinearId = records[8].localId;
  const auto run = kwb::checkSubgroupRecords(records, m_launch, 32, m_device.warpSize);
  EXPECT_FALSE(kwb::findCheck(run, "all_written")->passed);
  EXPECT_FALSE(kwb::findCheck(run, "local_ids_once")->passed);
  EXPECT_FALSE(run.passed());
}
