// SPDX-License-Identifier: Apache-2.0
// The host pool's pure parts (kwb/host_pool.h): --devices values and the order shards go out;
// the gpu and shard fields of forwarded events. The pool itself: tests/cli/pool_cli_test.cpp.
#include "kwb/host_pool.h"

#include <gtest/gtest.h>

#include "kwb/error.h"
#include "kwb/events.h"

namespace {

TEST(HostPool, DevicesAllIsEveryGpuAndAListIsKeptInOrder) {
  EXPECT_EQ(kwb::parseDevices("all", 3), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(kwb::parseDevices("2,0", 4), (std::vector<int>{2, 0}));
  EXPECT_THROW(kwb::parseDevices("all", 0), kwb::NoDeviceError);
}

TEST(HostPool, BadDevicesAreRefusedNamingTheValue) {
  for (const char* bad : {"3", "0,0", "a", "0,", "-1", "1.5", "9999999"}) {
    try {
      kwb::parseDevices(bad, 3);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const kwb::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("--devices '") + bad + "'"),
                std::string::npos)
          << e.what();
    }
  }
}

TEST(HostPool, ShardsGoOutCostliestFirstTiesByIndex) {
  EXPECT_EQ(kwb::poolOrder({1.0, 5.0, 1.0, 3.0}), (std::vector<int>{2, 4, 1, 3}));
}

TEST(HostPool, ForwardedEventsKeepTheirGpuAndShardAndOthersHaveNone) {
  kwb::StreamEvent e(kwb::EventType::kLog);
  e.gpu = 3;
  e.shard = 2;
  const kwb::StreamEvent back = kwb::parseEventLine(kwb::toJsonLine(e), "t", 1);
  EXPECT_EQ(back.gpu, 3);
  EXPECT_EQ(back.shard, 2);
  const std::string plain = kwb::toJsonLine(kwb::StreamEvent(kwb::EventType::kLog));
  EXPECT_EQ(plain.find("gpu"), std::string::npos) << plain;
  EXPECT_EQ(kwb::parseEventLine(plain, "t", 1).gpu, -1);
}

}  // namespace
