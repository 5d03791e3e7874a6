// SPDX-License-Identifier: Apache-2.0
// kwb run --devices (docs/SCALE_OUT.md, "Every GPU of a host") without a GPU: KWB_POOL_WORKER
// runs tests/data/pool/fake_worker.sh in place of kwb, KWB_POOL_FAKE_DEVICES stands in for the
// host's GPUs. The fake logs when each shard starts and ends on which GPU; the GPU commands of
// docs/VALIDATION.md run the real engines.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "kwb/events.h"
#include "kwb/pool_protocol.h"
#include "run_process.h"
#include "shard_docs.h"

namespace fs = std::filesystem;

namespace {

struct LogLine {
  std::string what;  // spawn (a worker process started), start, end, term
  int gpu = -1;
  int shard = 0;
  long long ns = 0;
};

std::vector<LogLine> readLog(const fs::path& dir) {
  std::vector<LogLine> out;
  std::istringstream in(slurp((dir / "log").string()));
  std::string what, gpu, shard;
  while (in >> what >> gpu >> shard) {
    LogLine l{what, std::stoi(gpu.substr(4)), std::stoi(shard.substr(6))};
    if (what != "term") in >> l.ns;
    out.push_back(l);
  }
  return out;
}

// Four prepared shard documents and the environment that makes kwb run the fake on `gpus` GPUs.
class PoolCli : public ::testing::Test {
 protected:
  void prepare(const std::string& name, const std::string& mode, int gpus) {
    m_dir = tempDir(name);
    for (int i = 1; i <= 4; ++i) writeShard(m_dir / ("prepared-" + std::to_string(i) + ".json"), i);
    ::setenv("KWB_POOL_WORKER", KWB_SOURCE_DIR "/tests/data/pool/fake_worker.sh", 1);
    ::setenv("KWB_POOL_FAKE_DEVICES", std::to_string(gpus).c_str(), 1);
    ::setenv("FAKE_POOL_DIR", m_dir.c_str(), 1);
    ::setenv("FAKE_POOL_MODE", mode.c_str(), 1);
  }
  void TearDown() override {
    for (const char* v :
         {"KWB_POOL_WORKER", "KWB_POOL_FAKE_DEVICES", "FAKE_POOL_DIR", "FAKE_POOL_MODE",
          "CUDA_VISIBLE_DEVICES", "FAKE_POOL_READY_DELAY", "FAKE_POOL_READY"})
      ::unsetenv(v);
  }
  std::vector<std::string> args(const std::string& devices) const {
    return {"run",       "--shapes", "64,128,256,512",
            "--devices", devices,    "--pool-shards",
            "4",         "--json",   (m_dir / "all.json").string()};
  }
  fs::path m_dir;
};

TEST_F(PoolCli, EveryShardRunsOnceAndNeverTwoAtOnceOnOneGpu) {
  prepare("pool_once", "ok", 3);
  const auto r = runKwb(args("0,2"));
  EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
  const auto log = readLog(m_dir);
  std::map<int, int> starts;
  std::map<int, std::vector<std::pair<long long, long long>>> spans;  // per GPU
  std::map<int, long long> open;
  for (const LogLine& l : log) {
    EXPECT_TRUE(l.gpu == 0 || l.gpu == 2) << "a worker ran on GPU " << l.gpu;
    if (l.what == "start") ++starts[l.shard], open[l.shard] = l.ns;
    if (l.what == "end") spans[l.gpu].push_back({open[l.shard], l.ns});
  }
  for (int s = 1; s <= 4; ++s) EXPECT_EQ(starts[s], 1) << "shard " << s;
  for (auto& [gpu, list] : spans) {
    std::sort(list.begin(), list.end());
    for (std::size_t i = 1; i < list.size(); ++i)
      EXPECT_LE(list[i - 1].second, list[i].first) << "two workers at once on GPU " << gpu;
  }
  const kwb::RunDocument all = kwb::readDocument(m_dir / "all.json");
  EXPECT_EQ(all.cases.size(), 4u);
  EXPECT_TRUE(all.merged && all.merged->complete());
  // Every planned case of the four sizes, cut into the four shards asked for (the count of cases
  // is the build's kernels times four).
  EXPECT_TRUE(contains(r.err, " case(s) in 4 shard(s) on 2 GPU(s)")) << r.err;
  // The timeline names each GPU's shards: four in all, between the two GPUs.
  int listed = 0;
  for (const int gpu : {0, 2}) {
    const std::string head = "kwb: GPU " + std::to_string(gpu) + ": ";
    const std::size_t at = r.err.find(head);
    ASSERT_NE(at, std::string::npos) << r.err;
    listed += std::stoi(r.err.substr(at + head.size()));
  }
  EXPECT_EQ(listed, 4) << r.err;
  // Each GPU's worker ended once its input was closed, and the line says how long that took.
  for (const int gpu : {0, 2}) {
    const std::size_t at = r.err.find("kwb: GPU " + std::to_string(gpu) + ": ");
    const std::string line = r.err.substr(at, r.err.find('\n', at) - at);
    EXPECT_TRUE(contains(line, ", worker's exit ")) << line;
  }
}

// Every worker says when its CUDA context is up (the fake takes 0.3 s); the timeline says when
// each GPU's worker started and how long that took. A worker that never says so (hung in its
// start) is not waited for: its shards run, and its line has no such figure.
TEST_F(PoolCli, TheTimelineTimesEachWorkersCudaStartFromItsReadyLine) {
  prepare("pool_ready", "ok", 2);
  ::setenv("FAKE_POOL_READY_DELAY", "0.3", 1);
  const auto r = runKwb(args("all"));
  EXPECT_EQ(r.exitCode, 0) << r.err;
  for (const int gpu : {0, 1}) {
    const std::size_t at = r.err.find("kwb: GPU " + std::to_string(gpu) + ": ");
    ASSERT_NE(at, std::string::npos) << r.err;
    const std::string line = r.err.substr(at, r.err.find('\n', at) - at);
    EXPECT_TRUE(contains(line, ", started at 0.")) << line;
    EXPECT_TRUE(contains(line, ", CUDA up 0.3")) << line;
  }
  prepare("pool_never_ready", "ok", 2);
  ::setenv("FAKE_POOL_READY", "never", 1);
  const auto never = runKwb(args("all"));
  EXPECT_EQ(never.exitCode, 0) << never.err;
  EXPECT_TRUE(contains(never.err, ", started at ")) << never.err;
  EXPECT_FALSE(contains(never.err, "CUDA up")) << never.err;
  const kwb::RunDocument all = kwb::readDocument(m_dir / "all.json");
  EXPECT_TRUE(all.merged && all.merged->complete());
}

// A worker that ends on its own after a shard (kwb's, once its CUDA context was lost) has
// answered that shard: the pool keeps its document, says so, and a new worker on the same GPU
// takes the shards left; none runs twice.
TEST_F(PoolCli, AWorkerThatEndsAfterItsShardIsReplacedAndNothingRunsTwice) {
  prepare("pool_end_once", "end-once", 1);
  const auto r = runKwb(args("0"));
  EXPECT_EQ(r.exitCode, 0) << r.err;
  int spawns = 0;
  std::map<int, int> starts;
  for (const LogLine& l : readLog(m_dir)) {
    if (l.what == "spawn") ++spawns;
    if (l.what == "start") ++starts[l.shard];
  }
  EXPECT_EQ(spawns, 2) << "a second worker after the first ended";
  EXPECT_FALSE(contains(r.err, "died")) << "the pool sent the ending worker a shard: " << r.err;
  for (int s = 1; s <= 4; ++s) EXPECT_EQ(starts[s], 1) << "shard " << s;
  EXPECT_TRUE(contains(r.err,
                       "the worker on GPU 0 ended after its shard (exit 0: kwb: this pool "
                       "worker's CUDA context was lost in shard "))
      << r.err;
  const kwb::RunDocument all = kwb::readDocument(m_dir / "all.json");
  EXPECT_TRUE(all.merged && all.merged->complete());
}

TEST_F(PoolCli, AWorkerIsPinnedToTheGpuThePoolItselfSeesAtThatIndex) {
  // Under CUDA_VISIBLE_DEVICES=5,7 the pool's GPU 0 is the host's GPU 5: the worker must be
  // started with CUDA_VISIBLE_DEVICES=5, not 0.
  prepare("pool_visible", "ok", 2);
  ::setenv("CUDA_VISIBLE_DEVICES", "5, 7", 1);
  const auto r = runKwb(args("all"));
  EXPECT_EQ(r.exitCode, 0) << r.err;
  std::set<int> gpus;
  for (const LogLine& l : readLog(m_dir)) gpus.insert(l.gpu);
  EXPECT_EQ(gpus, (std::set<int>{5, 7})) << r.err;
}

TEST_F(PoolCli, StreamedEventsCarryTheirGpuAndShardAndOneDoneEndsThem) {
  prepare("pool_stream", "ok", 1);
  auto a = args("all");
  a.push_back("--stream");
  const auto r = runKwb(a);
  EXPECT_EQ(r.exitCode, 0) << r.err;
  for (int s = 1; s <= 4; ++s)
    EXPECT_TRUE(contains(r.out, "{\"gpu\":0,\"shard\":" + std::to_string(s) + ",\"event\":\"log\""))
        << r.out;
  EXPECT_EQ(r.out.find("\"event\":\"done\""), r.out.rfind("\"event\":\"done\"")) << r.out;
  // The whole run's plan comes first, untagged: every case the run reports.
  const std::string first = r.out.substr(0, r.out.find('\n'));
  const kwb::StreamEvent plan = kwb::parseEventLine(first, "out", 1);
  EXPECT_EQ(plan.type, kwb::EventType::kPlan) << first;
  EXPECT_EQ(plan.gpu, -1) << first;
  std::set<std::string> sizes;
  for (const kwb::PlannedCase& c : plan.plan) sizes.insert(kwb::sizeKey(c.size));
  EXPECT_EQ(sizes.size(), 4u) << first;
  EXPECT_TRUE(contains(r.out, "\"event\":\"done\"")) << r.out;
}

TEST_F(PoolCli, ACaseReportedByEveryShardIsForwardedOnceFromTheShardThatOwnsIt) {
  // A size cut into pieces times its references in each piece; only the owner's copy is the
  // run's. Here every shard reports cuBLAS at 512³: exactly one report must come through.
  prepare("pool_copies", "ok", 2);
  std::ifstream sample(KWB_SOURCE_DIR "/tests/data/gui-sample-spec-benchmark.jsonl");
  std::string line, event;
  while (std::getline(sample, line))
    if (contains(line, "\"case_finished\"") && contains(line, "\"kernel\":\"cublas.sgemm\"") &&
        contains(line, "\"m\":512,") && contains(line, "\"n\":512"))
      event = line;
  ASSERT_FALSE(event.empty());
  std::ofstream(m_dir / "events.jsonl") << event << '\n';
  auto a = args("all");
  a.push_back("--stream");
  const auto r = runKwb(a);
  EXPECT_EQ(r.exitCode, 0) << r.err;
  int forwarded = 0;
  std::istringstream out(r.out);
  while (std::getline(out, line)) forwarded += contains(line, "\"case_finished\"");
  EXPECT_EQ(forwarded, 1) << r.out.substr(0, 2000);
}

TEST_F(PoolCli, AWorkerKilledOnceIsReportedWithItsGpuAndItsShardRunsAgainElsewhere) {
  prepare("pool_die_once", "die-once:3", 2);
  const auto r = runKwb(args("all"));
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "the worker of shard 3/4 on GPU ")) << r.err;
  EXPECT_TRUE(contains(r.err, "killed by signal 9")) << r.err;
  EXPECT_TRUE(contains(r.err, "runs again on another GPU")) << r.err;
  EXPECT_TRUE(contains(r.err, "fake worker: shard 3 crashes")) << r.err;
  std::vector<int> gpusOf3;
  for (const LogLine& l : readLog(m_dir))
    if (l.what == "start" && l.shard == 3) gpusOf3.push_back(l.gpu);
  ASSERT_EQ(gpusOf3.size(), 2u);
  EXPECT_NE(gpusOf3[0], gpusOf3[1]) << "the second run was on the GPU the first died on";
  EXPECT_EQ(kwb::readDocument(m_dir / "all.json").cases.size(), 4u);
}

TEST_F(PoolCli, AWorkerThatAlwaysDiesLeavesAHoleAndExitOne) {
  prepare("pool_die_always", "die-always:2", 2);
  const auto r = runKwb(args("all"));
  EXPECT_EQ(r.exitCode, 1) << r.err;
  EXPECT_TRUE(contains(r.err, "its cases stay not run")) << r.err;
  const kwb::RunDocument all = kwb::readDocument(m_dir / "all.json");
  ASSERT_EQ(all.cases.size(), 4u);
  EXPECT_EQ(all.cases[1].status, kwb::CaseStatus::kSkipped);
  EXPECT_TRUE(contains(all.cases[1].message, "shard 2/4 failed: killed by signal 9"))
      << all.cases[1].message;
  EXPECT_EQ(all.cases[0].status, kwb::CaseStatus::kPass);
}

TEST_F(PoolCli, CtrlCStopsEveryWorkerAndKeepsWhatTheyWrote) {
  prepare("pool_interrupt", "wait", 2);
  const std::string out = (m_dir / "out").string(), err = (m_dir / "err").string();
  const pid_t pid = ::fork();
  if (pid == 0) {
    std::vector<std::string> a = args("all");
    a.insert(a.begin(), KWB_EXE);
    std::vector<char*> argv;
    for (auto& s : a) argv.push_back(s.data());
    argv.push_back(nullptr);
    if (!std::freopen(out.c_str(), "w", stdout) || !std::freopen(err.c_str(), "w", stderr))
      ::_exit(127);
    ::execv(KWB_EXE, argv.data());
    ::_exit(127);
  }
  // Both GPUs busy: the two costliest shards started, the two others still queued.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  const auto started = [&] {
    int n = 0;
    for (const LogLine& l : readLog(m_dir)) n += l.what == "start";
    return n;
  };
  while (started() < 2 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_EQ(started(), 2) << slurp(err);
  ::kill(pid, SIGINT);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status)) << slurp(err);
  EXPECT_EQ(WEXITSTATUS(status), 130) << slurp(err);
  int terms = 0, starts = 0;
  for (const LogLine& l : readLog(m_dir)) terms += l.what == "term", starts += l.what == "start";
  EXPECT_EQ(terms, 2) << "every running worker is stopped";
  EXPECT_EQ(starts, 2) << "no shard starts after Ctrl-C";
  const kwb::RunDocument all = kwb::readDocument(m_dir / "all.json");
  int kept = 0;
  for (const auto& c : all.cases) kept += c.status == kwb::CaseStatus::kPass;
  EXPECT_EQ(kept, 2);
  EXPECT_EQ(all.cases.size(), 4u);
}

TEST_F(PoolCli, EachGpuHasOneLongLivedWorkerThatTakesShardAfterShard) {
  prepare("pool_long_lived", "ok", 2);
  const auto r = runKwb(args("all"));
  EXPECT_EQ(r.exitCode, 0) << r.err;
  std::map<int, int> spawns, starts;  // per GPU
  for (const LogLine& l : readLog(m_dir)) {
    if (l.what == "spawn") ++spawns[l.gpu];
    if (l.what == "start") ++starts[l.gpu];
  }
  EXPECT_EQ(spawns, (std::map<int, int>{{0, 1}, {1, 1}})) << "one worker process per GPU";
  EXPECT_EQ(starts[0] + starts[1], 4);
  EXPECT_GE(std::max(starts[0], starts[1]), 2) << "a worker ran more than one shard";
  EXPECT_EQ(kwb::readDocument(m_dir / "all.json").cases.size(), 4u);
}

TEST_F(PoolCli, AShardThatEndsItsWorkerWithAnErrorRunsOnceMoreThenIsAHole) {
  prepare("pool_fail", "fail:2", 2);
  const auto r = runKwb(args("all"));
  EXPECT_EQ(r.exitCode, 1) << r.err;
  EXPECT_TRUE(contains(r.err, "the worker of shard 2/4 on GPU ")) << r.err;
  EXPECT_TRUE(contains(r.err, "kwb: no CUDA device: fake")) << r.err;
  std::vector<int> gpusOf2;
  for (const LogLine& l : readLog(m_dir))
    if (l.what == "start" && l.shard == 2) gpusOf2.push_back(l.gpu);
  ASSERT_EQ(gpusOf2.size(), 2u);
  EXPECT_NE(gpusOf2[0], gpusOf2[1]);
  const kwb::RunDocument all = kwb::readDocument(m_dir / "all.json");
  ASSERT_EQ(all.cases.size(), 4u);
  EXPECT_TRUE(contains(all.cases[1].message, "shard 2/4 failed: exit 3")) << all.cases[1].message;
  EXPECT_EQ(all.cases[3].status, kwb::CaseStatus::kPass);
}

TEST(PoolServeCli, AWorkerEndsAtTheEndOfItsInputAndRefusesABadRequestNamingItsLine) {
  const fs::path dir = tempDir("pool_serve");
  const std::string empty = (dir / "empty").string(), bad = (dir / "bad").string();
  std::ofstream(empty).close();
  std::ofstream(bad) << "\n{\"op\":\"shard\",\"shard\":\"9/4\",\"json\":\"x.json\"}\n";
  const auto idle = runKwb({"run", "--shapes", "64", "--pool-serve", "--stream"}, empty);
  EXPECT_EQ(idle.exitCode, 0) << idle.err;
  // Its one line: that it started (here without a GPU: the first shard would say so, exit 3).
  EXPECT_EQ(idle.out, kwb::workerReadyLine() + "\n");
  const auto r = runKwb({"run", "--shapes", "64", "--pool-serve", "--stream"}, bad);
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "pool request line 2")) << r.err;
  EXPECT_TRUE(contains(r.err, "9/4")) << r.err;
  const auto both = runKwb({"run", "--shapes", "64", "--pool-serve", "--devices", "all"});
  EXPECT_EQ(both.exitCode, 2) << both.err;
}

TEST(PoolServeCli, ThePoolsGpuCountGoesWithAWorkerOrAShardAndIsRefusedAlone) {
  // A worker's fresh engine (after a lost context) gets --shard I/N and --pool-gpus, not
  // --pool-serve: that must parse and cut its part (here it goes on to find no GPU, exit 3).
  const auto alone = runKwb({"run", "--shapes", "64", "--pool-gpus", "2"});
  EXPECT_EQ(alone.exitCode, 2) << alone.err;
  EXPECT_TRUE(contains(alone.err, "--pool-gpus 2")) << alone.err;
  for (const char* cmd : {"run", "tune"}) {
    std::vector<std::string> a{cmd, "--shapes", "64,128", "--pool-gpus", "2", "--shard", "1/2"};
    if (std::string(cmd) == "tune") a.insert(a.begin() + 1, {"--kernel", "sgemm.warp_tiled"});
    const auto withShard = runKwb(a);
    EXPECT_NE(withShard.exitCode, 2) << cmd << ": " << withShard.err;
    EXPECT_FALSE(contains(withShard.err, "--pool-gpus")) << withShard.err;
  }
}

TEST(PoolServeCli, CostHintsAreReadBeforeAnyWorkAndABadDocumentIsRefusedNamingIt) {
  const fs::path dir = tempDir("cost_hints");
  std::ofstream(dir / "torn.json") << "{\"schemaVersion\": 7, \"cases\": [";
  const std::string good = KWB_SOURCE_DIR "/resources/samples/h200/scaling-h200.json";
  for (const char* cmd : {"run", "tune"}) {
    for (const std::string& hints :
         {(dir / "torn.json").string(), (dir / "absent.json").string()}) {
      std::vector<std::string> a{cmd,   "--shapes",     "64,128", "--shard",
                                 "1/2", "--cost-hints", hints};
      if (std::string(cmd) == "tune") a.insert(a.begin() + 1, {"--kernel", "sgemm.warp_tiled"});
      const auto r = runKwb(a);
      EXPECT_EQ(r.exitCode, 2) << cmd << " " << hints << ": " << r.err;
      EXPECT_TRUE(contains(r.err, "--cost-hints '" + hints + "'")) << r.err;
    }
    std::vector<std::string> a{cmd, "--shapes", "64,128", "--shard", "1/2", "--cost-hints", good};
    if (std::string(cmd) == "tune") a.insert(a.begin() + 1, {"--kernel", "sgemm.warp_tiled"});
    const auto ok = runKwb(a);  // read, then no GPU here: exit 3, not a refused option
    EXPECT_NE(ok.exitCode, 2) << cmd << ": " << ok.err;
  }
}

TEST(PoolDevicesCli, BadDevicesAreRefusedNamingTheInput) {
  ::setenv("KWB_POOL_FAKE_DEVICES", "2", 1);
  for (const char* bad : {"5", "0,2", "0,0", "x", "1,", "1,-1"}) {
    const auto r = runKwb({"run", "--shapes", "64", "--devices", bad});
    EXPECT_EQ(r.exitCode, 2) << bad << ": " << r.err;
    EXPECT_TRUE(contains(r.err, std::string("--devices '") + bad + "'")) << r.err;
  }
  const auto e = runKwb({"run", "--shapes", "64", "--devices", ""});
  EXPECT_EQ(e.exitCode, 2) << e.err;
  EXPECT_TRUE(contains(e.err, "--devices")) << e.err;
  const auto t = runKwb({"run", "--shapes", "64", "--devices", "all", "--shard", "1/2"});
  EXPECT_EQ(t.exitCode, 2) << t.err;
  ::unsetenv("KWB_POOL_FAKE_DEVICES");
}

}  // namespace
