// SPDX-License-Identifier: Apache-2.0
// The host pool's pure parts (kwb/host_pool.h): --devices values and the order shards go out;
// the gpu and shard fields of forwarded events. The pool itself: tests/cli/pool_cli_test.cpp.
#include "kwb/host_pool.h"

#include <gtest/gtest.h>

#include "kwb/error.h"
#include "kwb/events.h"
#include "kwb/pool_protocol.h"
#include "kwb/visible_devices.h"
#include "test_support.h"

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

TEST(VisibleDevices, CountedFromTheDriverAndCudaVisibleDevicesWithoutCuda) {
  EXPECT_EQ(kwb::visibleDeviceEntries("2,3"), (std::vector<std::string>{"2", "3"}));
  EXPECT_EQ(kwb::visibleDeviceEntries(" GPU-ab , 1"), (std::vector<std::string>{"GPU-ab", "1"}));
  EXPECT_EQ(kwb::visibleDeviceEntries("0,,1"), (std::vector<std::string>{"0"}));  // as CUDA does
  EXPECT_TRUE(kwb::visibleDeviceEntries("").empty());
  const std::filesystem::path gpus = tempDir("visible_devices");
  EXPECT_EQ(kwb::visibleGpuCount(nullptr, gpus), -1) << "no driver folder: ask CUDA";
  EXPECT_EQ(kwb::visibleGpuCount(nullptr, gpus / "absent"), -1);
  for (const char* bus : {"0000:00:06.0", "0000:00:07.0", "0000:00:08.0", "0000:00:09.0"})
    std::filesystem::create_directory(gpus / bus);
  EXPECT_EQ(kwb::visibleGpuCount(nullptr, gpus), 4);
  EXPECT_EQ(kwb::visibleGpuCount("1,3", gpus), 2);
  EXPECT_EQ(kwb::visibleGpuCount("0,1,2,3,4,5", gpus), 4) << "no more than the driver has";
  EXPECT_EQ(kwb::visibleGpuCount("", gpus), 0) << "an empty list hides every GPU";
}

TEST(HostPool, ShardsGoOutCostliestFirstTiesByIndex) {
  EXPECT_EQ(kwb::poolOrder({1.0, 5.0, 1.0, 3.0}), (std::vector<int>{2, 4, 1, 3}));
}

TEST(HostPool, TheTimelineSaysPerGpuWhichShardsRanWhenAndHowLongItWasBusy) {
  const std::vector<kwb::ShardSpan> spans{
      {3, 1, 0.0, 2.1, true}, {6, 1, 2.1, 3.4, true}, {2, 0, 0.0, 4.0, false}};
  const std::vector<double> costs{0.5, 3.0, 1.9, 0.1, 0.1, 1.2};
  const std::vector<std::string> lines = kwb::poolTimeline(spans, {0, 1, 2}, 4.2, costs);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "GPU 0: 1 shard, busy 4.00 of 4.20 s (shard 2 0.00-4.00 est 3.00 failed)");
  EXPECT_EQ(
      lines[1],
      "GPU 1: 2 shards, busy 3.40 of 4.20 s (shard 3 0.00-2.10 est 1.90, shard 6 2.10-3.40 est "
      "1.20)");
  EXPECT_EQ(lines[2], "GPU 2: 0 shards");
  // Each GPU's slowest worker exit (input closed to process gone) ends its line.
  const std::vector<kwb::WorkerExit> exits{{1, 3.4, 3.5}, {1, 1.0, 1.3}, {0, 4.0, 4.05}};
  const std::vector<std::string> withExits = kwb::poolTimeline(spans, {0, 1, 2}, 4.2, costs, exits);
  EXPECT_EQ(
      withExits[0],
      "GPU 0: 1 shard, busy 4.00 of 4.20 s (shard 2 0.00-4.00 est 3.00 failed), worker's exit "
      "0.05 s");
  EXPECT_NE(withExits[1].find("est 1.20), worker's exit 0.30 s"), std::string::npos)
      << withExits[1];
  EXPECT_EQ(withExits[2], "GPU 2: 0 shards");
  // Each GPU's first worker: when it started and how long its CUDA start took (none: it never
  // said; a GPU's later worker, a replacement, is not the one named).
  const std::vector<kwb::WorkerStart> starts{{1, 0.0, 0.31}, {0, 0.31, -1.0}, {1, 3.5, 3.9}};
  const std::vector<std::string> withStarts =
      kwb::poolTimeline(spans, {0, 1, 2}, 4.2, costs, exits, starts);
  EXPECT_NE(withStarts[0].find("worker's exit 0.05 s, started at 0.31 s"), std::string::npos)
      << withStarts[0];
  EXPECT_EQ(withStarts[0].find("CUDA up"), std::string::npos) << withStarts[0];
  EXPECT_NE(withStarts[1].find(", started at 0.00 s, CUDA up 0.31 s later"), std::string::npos)
      << withStarts[1];
  EXPECT_EQ(withStarts[2], "GPU 2: 0 shards");
  std::vector<kwb::ShardSpan> many;
  for (int i = 0; i < 10; ++i) many.push_back({i + 1, 0, double(i), double(i + 1), true});
  const std::string line = kwb::poolTimeline(many, {0}, 10.0, {}).at(0);
  EXPECT_NE(line.find("busy 10.00 of 10.00 s"), std::string::npos) << line;
  EXPECT_NE(line.find("shard 8 7.00-8.00, 2 more)"), std::string::npos)
      << line << " (no costs: no est)";
  EXPECT_EQ(line.find("shard 9 "), std::string::npos) << line;
  // The shards' runs (their documents' wall times): the rest of busy is outside the engine's runs.
  std::vector<kwb::ShardSpan> timed = spans;
  timed[0].runS = 1.5;
  timed[1].runS = 1.0;
  const std::vector<std::string> withRuns = kwb::poolTimeline(timed, {0, 1, 2}, 4.2, costs);
  EXPECT_EQ(withRuns[0], lines[0]) << "no document, no runs figure";
  EXPECT_NE(withRuns[1].find("busy 3.40 of 4.20 s, 2.50 s in their runs (shard 3"),
            std::string::npos)
      << withRuns[1];
  // The workers' own seconds (their end lines): busy less these is the pool's and the pipes'.
  timed[0].workerS = 1.75;
  timed[1].workerS = 1.25;
  const std::vector<std::string> withWorkers = kwb::poolTimeline(timed, {0, 1, 2}, 4.2, costs);
  EXPECT_NE(withWorkers[1].find("busy 3.40 of 4.20 s, 3.00 s in the worker, 2.50 s in their runs"),
            std::string::npos)
      << withWorkers[1];
  EXPECT_EQ(withWorkers[0], lines[0]) << "no end line's seconds, no worker figure";
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

TEST(HostPool, APoolsStreamListsEachGpuOnceAndEachCaseNamesItsGpu) {
  kwb::DocumentBuilder b;
  const auto device = [](int gpu, const char* name) {
    kwb::StreamEvent e(kwb::EventType::kDevice);
    e.gpu = gpu;
    e.shard = gpu + 1;
    e.device = kwb::DeviceInfo{};
    e.device->name = name;  // each worker's own device 0
    return e;
  };
  const auto finished = [](int gpu, const char* kernel) {
    kwb::StreamEvent e(kwb::EventType::kCaseFinished);
    e.gpu = gpu;
    e.result = kwb::CaseResult{};
    e.result->kernel = kernel;
    e.result->status = kwb::CaseStatus::kPass;
    return e;  // device 0: the worker's only one
  };
  b.apply(device(2, "GPU two"));
  b.apply(device(0, "GPU zero"));
  b.apply(finished(0, "a"));
  b.apply(device(2, "GPU two"));  // the worker of GPU 2's next shard
  b.apply(finished(2, "b"));
  const kwb::RunDocument& d = b.document();
  ASSERT_EQ(d.devices.size(), 2u);
  EXPECT_EQ(d.devices[0].index, 2);
  EXPECT_EQ(d.devices[1].index, 0);
  ASSERT_EQ(d.cases.size(), 2u);
  EXPECT_EQ(d.deviceModel(d.cases[0]), "GPU zero");
  EXPECT_EQ(d.deviceModel(d.cases[1]), "GPU two");
}

TEST(PoolProtocol, ARequestRoundTripsAndABadOneIsRefusedNamingItsLine) {
  const kwb::ShardRequest r{{3, 7}, "/tmp/x/shard-3.json"};
  const kwb::ShardRequest back = kwb::parseShardRequest(kwb::shardRequestLine(r), 1);
  EXPECT_EQ(back.shard, r.shard);
  EXPECT_EQ(back.json, r.json);
  for (const char* bad :
       {"nonsense", "[1]", R"({"op":"shard","json":"a"})",
        R"({"op":"stop","shard":"1/2","json":"a"})", R"({"op":"shard","shard":"3/2","json":"a"})",
        R"({"op":"shard","shard":"1/2","json":""})"}) {
    try {
      kwb::parseShardRequest(bad, 4);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const kwb::InputError& e) {
      EXPECT_NE(std::string(e.what()).find("line 4"), std::string::npos) << e.what();
    }
  }
}

TEST(PoolProtocol, TheShardEndMarkerIsToldApartFromEventsThatMentionIt) {
  const auto end = kwb::parseShardEnd(kwb::shardEndLine({5, 130}));
  ASSERT_TRUE(end);
  EXPECT_EQ(end->shard, 5);
  EXPECT_EQ(end->exitCode, 130);
  EXPECT_FALSE(end->workerEnds);
  EXPECT_EQ(kwb::shardEndLine({5, 0}).find("workerEnds"), std::string::npos);
  // A worker that ends after the shard says so on the line; the pool reads it back.
  const auto last = kwb::parseShardEnd(kwb::shardEndLine({2, 1, true}));
  ASSERT_TRUE(last);
  EXPECT_TRUE(last->workerEnds);
  EXPECT_EQ(last->exitCode, 1);
  EXPECT_FALSE(
      kwb::parseShardEnd(R"({"event":"shard_end","shard":2,"exitCode":0,"workerEnds":"yes"})")
          ->workerEnds);
  kwb::StreamEvent log(kwb::EventType::kLog);
  log.message = R"(a case named "shard_end")";
  EXPECT_FALSE(kwb::parseShardEnd(kwb::toJsonLine(log)));
  EXPECT_FALSE(kwb::parseShardEnd(R"({"event":"shard_end","shard":"x","exitCode":0})"));
  EXPECT_FALSE(kwb::parseShardEnd("[gpu 0] shard_end"));
}

// The worker's seconds on a shard travel on its end line (to 0.1 ms); a line without them, or with
// a value that is no duration, reads as not said (-1).
TEST(PoolProtocol, TheWorkersSecondsOnAShardTravelOnItsEndLine) {
  const auto end = kwb::parseShardEnd(kwb::shardEndLine({3, 0, false, 1.23456}));
  ASSERT_TRUE(end);
  EXPECT_NEAR(end->workerS, 1.2346, 1e-9);
  EXPECT_EQ(kwb::shardEndLine({3, 0}).find("workerS"), std::string::npos);
  EXPECT_EQ(kwb::parseShardEnd(kwb::shardEndLine({3, 0}))->workerS, -1.0);
  EXPECT_EQ(kwb::parseShardEnd(R"({"event":"shard_end","shard":3,"exitCode":0,"workerS":"1.2"})")
                ->workerS,
            -1.0);
  EXPECT_EQ(
      kwb::parseShardEnd(R"({"event":"shard_end","shard":3,"exitCode":0,"workerS":-2})")->workerS,
      -1.0);
}

TEST(PoolProtocol, TheReadyLineIsToldApartFromEventsThatMentionIt) {
  EXPECT_TRUE(kwb::isWorkerReadyLine(kwb::workerReadyLine()));
  EXPECT_FALSE(kwb::isWorkerReadyLine(kwb::shardEndLine({1, 0})));
  kwb::StreamEvent log(kwb::EventType::kLog);
  log.message = R"(a case named "worker_ready")";
  EXPECT_FALSE(kwb::isWorkerReadyLine(kwb::toJsonLine(log)));
  EXPECT_FALSE(kwb::isWorkerReadyLine("[gpu 0] \"worker_ready\""));
}

}  // namespace
