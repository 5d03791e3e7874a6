// SPDX-License-Identifier: Apache-2.0
// A crashing kernel costs one case in `kwb verify` and one configuration in `kwb tune`, as in
// `kwb run` (docs/RELIABILITY.md): through kwb_fault, kwb's commands with planted kernels that
// lose the CUDA context (fault_command_registry.cpp). The cases after the fault are verified
// (and, for tune, timed) by a fresh engine, in the same document; with --max-restarts 0 they are
// skipped as before, which shows it is the fresh engine that ran them.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "gpu_fixture.h"
#include "kwb/exit_codes.h"
#include "kwb/family.h"
#include "kwb/results.h"
#include "run_process.h"

namespace {

class FreshEngineCommands : public GpuTest {};

std::string key(const kwb::CaseResult& c) { return c.kernel + " " + sizeLabel(c); }

kwb::RunDocument verifyWithAFaultAt63(const std::string& json, const std::string& restarts,
                                      ProcessResult* r) {
  *r = runKwb({"verify", "--kernels", "test.fault_odd_m,cublas.sgemm", "--shapes",
               "64,63x64x64,128", "--max-restarts", restarts, "--json", json});
  return kwb::readDocument(json);
}

TEST_F(FreshEngineCommands, VerifyRunsTheCasesAfterAFaultInAFreshEngine) {
  const std::string json = ::testing::TempDir() + "fresh_verify.json";
  ProcessResult r;
  const kwb::RunDocument doc = verifyWithAFaultAt63(json, "3", &r);
  EXPECT_EQ(r.exitCode, kwb::kExitCaseFailed) << r.err;
  EXPECT_NE(r.err.find("fresh engine"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("5 of 6 cases pass"), std::string::npos) << r.out;
  ASSERT_EQ(doc.cases.size(), 6u);
  std::map<std::string, int> seen;
  for (const auto& c : doc.cases) {
    ++seen[key(c)];
    if (c.kernel == "test.fault_odd_m" && c.size.number("m") == 63) {
      EXPECT_EQ(c.status, kwb::CaseStatus::kError) << key(c);
      EXPECT_NE(c.message.find("cudaErrorIllegalAddress"), std::string::npos) << c.message;
    } else {
      EXPECT_EQ(c.status, kwb::CaseStatus::kPass) << key(c) << ": " << c.message;
      EXPECT_TRUE(c.verification) << key(c) << " was not verified";
    }
  }
  EXPECT_EQ(seen.size(), 6u);
  for (const auto& [k, n] : seen) EXPECT_EQ(n, 1) << k;
}

TEST_F(FreshEngineCommands, VerifyWithoutRestartsSkipsTheCasesAfterAFault) {
  const std::string json = ::testing::TempDir() + "fresh_verify_none.json";
  ProcessResult r;
  const kwb::RunDocument doc = verifyWithAFaultAt63(json, "0", &r);
  EXPECT_EQ(r.exitCode, kwb::kExitCaseFailed) << r.err;
  ASSERT_EQ(doc.cases.size(), 6u);
  int skipped = 0;
  for (const auto& c : doc.cases) skipped += c.status == kwb::CaseStatus::kSkipped;
  EXPECT_EQ(skipped, 3) << "cublas.sgemm at 63, both at 128";
}

// test.fault_tune: default, ok_a, faults, ok_b on each shape; `faults` loses the context at
// every shape, so the sweep needs two fresh engines, and every other configuration is timed.
TEST_F(FreshEngineCommands, TuneTimesTheConfigurationsAfterAFaultInAFreshEngine) {
  const std::string json = ::testing::TempDir() + "fresh_tune.json";
  const auto r = runKwb({"tune", "--kernel", "test.fault_tune", "--shapes", "64,128", "--max-time",
                         "0.05", "--json", json});
  EXPECT_EQ(r.exitCode, kwb::kExitCaseFailed) << r.err;
  EXPECT_NE(r.err.find("fresh engine"), std::string::npos) << r.err;
  const kwb::RunDocument doc = kwb::readDocument(json);
  ASSERT_TRUE(doc.tuning);
  const auto& results = doc.tuning->results;
  ASSERT_EQ(results.size(), 8u);
  const char* order[] = {"default", "ok_a", "faults", "ok_b"};
  for (std::size_t i = 0; i < results.size(); ++i) {
    const kwb::CaseResult& c = results[i];
    ASSERT_TRUE(c.config) << key(c);
    EXPECT_EQ(c.config->name, order[i % 4]) << "in plan order, at " << i;
    EXPECT_EQ(c.size.number("m"), i < 4 ? 64 : 128) << key(c);
    if (c.config->name == "faults") {
      EXPECT_EQ(c.status, kwb::CaseStatus::kError) << key(c);
      EXPECT_NE(c.message.find("cudaErrorIllegalAddress"), std::string::npos) << c.message;
    } else {
      EXPECT_EQ(c.status, kwb::CaseStatus::kPass) << key(c) << ": " << c.message;
      EXPECT_TRUE(c.timed()) << key(c) << " was not timed";
    }
  }
  ASSERT_EQ(doc.tuning->choices.size(), 2u);
  for (const auto& c : doc.tuning->choices) {
    EXPECT_GT(c.gflops, 0.0) << toString(c.shape);
    EXPECT_NE(c.config, "faults");
  }
}

// In a host pool, a worker whose CUDA context was lost answers its shard (the cases after the
// fault in a fresh engine), says with that shard's end that it takes no more, and ends; a new
// worker takes the shards left. Every case is in the merged document once.
TEST_F(FreshEngineCommands, APoolWorkerThatLostItsContextEndsAndANewOneTakesTheRest) {
  const std::string json = ::testing::TempDir() + "fresh_pool.json";
  const auto r =
      runKwb({"run", "--kernels", "test.fault_odd_m,cublas.sgemm", "--shapes", "63x64x64,64,128",
              "--devices", "0", "--pool-shards", "3", "--json", json});
  EXPECT_EQ(r.exitCode, kwb::kExitCaseFailed) << r.err;
  EXPECT_NE(r.err.find("the worker on GPU 0 ended after its shard"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("died"), std::string::npos) << r.err;
  const kwb::RunDocument doc = kwb::readDocument(json);
  ASSERT_EQ(doc.cases.size(), 6u);
  std::map<std::string, int> seen;
  for (const auto& c : doc.cases) {
    ++seen[key(c)];
    const bool faults = c.kernel == "test.fault_odd_m" && c.size.number("m") == 63;
    EXPECT_EQ(c.status, faults ? kwb::CaseStatus::kError : kwb::CaseStatus::kPass)
        << key(c) << ": " << c.message;
  }
  EXPECT_EQ(seen.size(), 6u);
}

}  // namespace
