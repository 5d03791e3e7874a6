// SPDX-License-Identifier: Apache-2.0
// A crashing kernel costs one case, not the run (docs/RELIABILITY.md), through the built kwb: a
// user kernel that faults at an odd M loses the CUDA context; the cases after it, cuBLAS's
// included, run in a fresh engine and land in the same document and the same event stream.
// And the bound: a kernel that faults at every shape stops after --max-restarts engines.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "gpu_fixture.h"
#include "kwb/exit_codes.h"
#include "run_process.h"

namespace {

const std::string kFixture = KWB_SOURCE_DIR "/tests/data/byok/fault_odd_m.cu";

class FreshEngineRun : public GpuTest {};

std::vector<nlohmann::json> events(const std::string& out) {
  std::vector<nlohmann::json> v;
  std::istringstream lines(out);
  std::string line;
  while (std::getline(lines, line))
    if (!line.empty()) v.push_back(nlohmann::json::parse(line));
  return v;
}

std::string key(const nlohmann::json& c) {
  return c["kernel"].get<std::string>() + " " + c["size"].dump();
}

TEST_F(FreshEngineRun, AKernelThatFaultsAtOneShapeCostsThatCaseAndTheRestRunInOneDocument) {
  const std::string json = ::testing::TempDir() + "fresh_engine.json";
  const auto r = runKwb({"run", "--source", kFixture, "--shapes", "64,63x64x64,128", "--rounds",
                         "2", "--max-time", "0.05", "--stream", "--json", json});
  EXPECT_EQ(r.exitCode, kwb::kExitCaseFailed) << r.err;

  const auto doc = nlohmann::json::parse(slurp(json));
  ASSERT_EQ(doc["cases"].size(), 6u) << doc.dump(1);
  std::map<std::string, int> seen;
  int errors = 0;
  for (const auto& c : doc["cases"]) {
    ++seen[key(c)];
    const std::string message = c.value("message", "");
    if (c["status"] == "error") {
      ++errors;
      EXPECT_EQ(c["kernel"], "user.fault_odd_m");
      EXPECT_NE(message.find("fault_odd_m.cu"), std::string::npos) << message;
      EXPECT_NE(message.find("cudaErrorIllegalAddress"), std::string::npos) << message;
      EXPECT_EQ(message.find("/core/"), std::string::npos) << "a build path: " << message;
    } else {
      EXPECT_EQ(c["status"], "pass") << key(c) << ": " << message;
      EXPECT_FALSE(c["samplesMs"].empty()) << key(c) << " was not timed";
    }
  }
  EXPECT_EQ(errors, 1);
  for (const auto& [k, n] : seen) EXPECT_EQ(n, 1) << k;

  // One stream: one hello, one plan, one done (the last line), each case started and ended once.
  const auto ev = events(r.out);
  std::map<std::string, int> kinds;
  std::map<int, int> started, ended;
  bool toldFresh = false;
  for (const auto& e : ev) {
    const std::string type = e["event"];
    ++kinds[type];
    if (type == "case_started") ++started[e["index"].get<int>()];
    if (type == "case_finished" || type == "case_failed") ++ended[e["index"].get<int>()];
    if (type == "log" && e["message"].get<std::string>().find("fresh engine") != std::string::npos)
      toldFresh = true;
  }
  EXPECT_EQ(kinds["hello"], 1);
  EXPECT_EQ(kinds["plan"], 1);
  EXPECT_EQ(kinds["done"], 1);
  EXPECT_TRUE(toldFresh) << r.out;
  ASSERT_FALSE(ev.empty());
  EXPECT_EQ(ev.back()["event"], "done");
  EXPECT_EQ(ev.back()["exitCode"], kwb::kExitCaseFailed);
  EXPECT_EQ(started.size(), 6u);
  EXPECT_EQ(ended.size(), 6u);
  for (const auto& [i, n] : started) EXPECT_EQ(n, 1) << "case " << i << " started twice";
  for (const auto& [i, n] : ended) EXPECT_EQ(n, 1) << "case " << i << " ended twice";
}

TEST_F(FreshEngineRun, AKernelThatFaultsAtEveryShapeStopsAfterMaxRestarts) {
  const std::string json = ::testing::TempDir() + "fresh_engine_bound.json";
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = runKwb({"run", "--source", kFixture, "--shapes", "63,65,67", "--rounds", "2",
                         "--max-time", "0.05", "--max-restarts", "1", "--json", json});
  const double wallS = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.exitCode, kwb::kExitCaseFailed) << r.err;
  EXPECT_LT(wallS, 120.0);
  const auto doc = nlohmann::json::parse(slurp(json));
  ASSERT_EQ(doc["cases"].size(), 6u) << doc.dump(1);
  int errors = 0, skippedForTheBound = 0;
  for (const auto& c : doc["cases"]) {
    errors += c["status"] == "error";
    if (c["status"] == "skipped" &&
        c.value("message", "").find("--max-restarts") != std::string::npos)
      ++skippedForTheBound;
  }
  EXPECT_EQ(errors, 2) << doc.dump(1);              // 63 in this engine, 65 in the one fresh engine
  EXPECT_GE(skippedForTheBound, 1) << doc.dump(1);  // 67: no engine left
}

}  // namespace
