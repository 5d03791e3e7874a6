// SPDX-License-Identifier: Apache-2.0
// --case-timeout through the real engine: a user kernel that never returns ends its case as an
// error within the limit, the case before it is kept, the rest are not run, and the stream
// ends without `done` (so the GUI starts a new engine for the cases left, as after a crash).
#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "gpu_fixture.h"
#include "kwb/exit_codes.h"
#include "run_process.h"

namespace {

class CaseTimeoutRun : public GpuTest {};

TEST_F(CaseTimeoutRun, AnEndlessKernelEndsItsCaseAndTheFinishedOnesAreKept) {
  const std::string json = ::testing::TempDir() + "case_timeout.json";
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = runKwb({"run", "--source", KWB_SOURCE_DIR "/tests/data/byok/endless_loop.cu",
                         "--kernels", "sgemm.naive", "--shapes", "64,96", "--case-timeout", "3",
                         "--no-cupti-check", "--stream", "--json", json});
  const double wallS = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.exitCode, kwb::kExitCaseFailed) << r.err;
  EXPECT_LT(wallS, 20.0) << "the run did not end near its --case-timeout of 3 s";

  const auto doc = nlohmann::json::parse(slurp(json));
  ASSERT_EQ(doc["cases"].size(), 4u) << doc.dump(1);
  EXPECT_EQ(doc["cases"][0]["kernel"], "sgemm.naive");
  EXPECT_EQ(doc["cases"][0]["status"], "pass");
  EXPECT_EQ(doc["cases"][1]["kernel"], "user.endless_loop");
  EXPECT_EQ(doc["cases"][1]["status"], "error");
  EXPECT_NE(doc["cases"][1]["message"].get<std::string>().find("--case-timeout 3.0 s"),
            std::string::npos)
      << doc["cases"][1]["message"];
  for (int i : {2, 3}) {
    EXPECT_EQ(doc["cases"][i]["status"], "skipped");
    EXPECT_NE(doc["cases"][i]["message"].get<std::string>().find("user.endless_loop"),
              std::string::npos);
  }

  // The stream: the timed-out case failed, and no `done` (the engine did not finish the plan).
  std::istringstream lines(r.out);
  std::string line, last;
  while (std::getline(lines, line))
    if (!line.empty()) last = line;
  const auto e = nlohmann::json::parse(last);
  EXPECT_EQ(e["event"], "case_failed") << last;
  EXPECT_EQ(e["result"]["kernel"], "user.endless_loop");
}

}  // namespace
