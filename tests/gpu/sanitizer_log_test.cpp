// SPDX-License-Identifier: Apache-2.0
// The sanitizer tests' own logic, without a GPU (label cpu): reading a compute-sanitizer log,
// the verdict of expectClean, and the process plumbing through a stand-in for the tool.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "sanitizer_support.h"

using kwb::test::SanitizerRun;

namespace {

// The shape of a memcheck log with --show-backtrace device (CUDA 12/13).
const char* const kMemcheckLog =
    "========= COMPUTE-SANITIZER\n"
    "========= Invalid __global__ read of size 4 bytes\n"
    "=========     at kwb::test::<unnamed>::plantedOobReadSgemm(int, int, int, float, const "
    "float *, const float *, float, float *)+0x2f0\n"
    "=========     by thread (1,0,0) in block (4,8,0)\n"
    "=========     Address 0x7f3a1e000a14 is out of bounds\n"
    "=========     and is 1 bytes after the nearest allocation at 0x7f3a1e000000 of size 17028 "
    "bytes\n"
    "=========\n"
    "========= Invalid __global__ read of size 4 bytes\n"
    "=========     at kwb::test::<unnamed>::plantedOobReadSgemm(int, int, int, float, const "
    "float *, const float *, float, float *)+0x2f0\n"
    "=========\n"
    "========= Program hit cudaErrorLaunchFailure (error 719) due to \"unspecified launch "
    "failure\" on CUDA API call to cudaStreamSynchronize.\n"
    "=========\n"
    "========= ERROR SUMMARY: 37 errors\n";

// As CUDA 13's racecheck writes it: no ERROR SUMMARY line.
const char* const kRacecheckCleanLog =
    "========= COMPUTE-SANITIZER\n"
    "========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n";

const char* const kRacecheckHazardLog =
    "========= COMPUTE-SANITIZER\n"
    "========= Error: Race reported between Write access at k()+0x10\n"
    "=========     and Read access at k()+0x20 [4 hazards]\n"
    "=========\n"
    "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n";

SanitizerRun fakeRun(const char* log, int exitCode, const std::string& out) {
  static SanitizerRun r;
  r = SanitizerRun{};
  r.tool = "memcheck";
  r.commandLine = "compute-sanitizer --tool memcheck kwb verify";
  r.log = log;
  r.out = out;
  r.process.exitCode = exitCode;
  kwb::test::parseLog(r);
  return r;
}

}  // namespace

TEST(SanitizerLog, FirstReportIsTheFirstErrorBlockAndTheSummaryIsRead) {
  const SanitizerRun r = fakeRun(kMemcheckLog, kwb::test::kSanitizerErrorExitCode, "");
  ASSERT_TRUE(r.errors.has_value());
  EXPECT_EQ(*r.errors, 37);
  EXPECT_EQ(r.firstReport.rfind("========= Invalid __global__ read of size 4 bytes\n", 0), 0u)
      << r.firstReport;
  EXPECT_NE(r.firstReport.find("plantedOobReadSgemm"), std::string::npos) << r.firstReport;
  EXPECT_NE(r.firstReport.find("1 bytes after the nearest allocation"), std::string::npos);
  // The block ends at the separator: neither the second report nor the API error.
  EXPECT_EQ(r.firstReport.find("Program hit"), std::string::npos) << r.firstReport;
  EXPECT_EQ(r.firstReport.find("Invalid", 11), std::string::npos) << r.firstReport;
}

TEST(SanitizerLog, ErrorsFailWithTheFirstReportInTheMessage) {
  static SanitizerRun r;
  r = fakeRun(kMemcheckLog, kwb::test::kSanitizerErrorExitCode, "");
  EXPECT_NONFATAL_FAILURE(kwb::test::expectClean(r), "reported 37 error(s)");
  EXPECT_NONFATAL_FAILURE(kwb::test::expectClean(r),
                          "first report:\n========= Invalid __global__ read of size 4 bytes");
}

TEST(SanitizerLog, SummaryLinesAreNotReportsAndZeroErrorsIsClean) {
  const SanitizerRun r = fakeRun(kRacecheckCleanLog, 0, "12 of 12 cases pass (seed 24301)\n");
  ASSERT_TRUE(r.errors.has_value());
  EXPECT_EQ(*r.errors, 0);
  EXPECT_TRUE(r.firstReport.empty()) << r.firstReport;
  kwb::test::expectClean(r);  // no failure
}

TEST(SanitizerLog, RacecheckHazardsAreErrors) {
  static SanitizerRun r;
  r = fakeRun(kRacecheckHazardLog, 0, "12 of 12 cases pass (seed 24301)\n");
  ASSERT_TRUE(r.errors.has_value());
  EXPECT_EQ(*r.errors, 1);
  EXPECT_NONFATAL_FAILURE(kwb::test::expectClean(r), "Race reported");
}

TEST(SanitizerLog, ALogWithoutSummaryFails) {
  static SanitizerRun r;
  r = fakeRun("========= COMPUTE-SANITIZER\n", 1, "");
  EXPECT_FALSE(r.errors.has_value());
  EXPECT_NONFATAL_FAILURE(kwb::test::expectClean(r), "no ERROR SUMMARY");
}

TEST(SanitizerLog, AFailedVerifyFailsEvenWithoutSanitizerErrors) {
  static SanitizerRun r;
  r = fakeRun(kRacecheckCleanLog, 1,
              "not passed:\n  sgemm.naive 17x31x47: fail: 3 mismatches\n\n"
              "11 of 12 cases pass (seed 24301)\n");
  EXPECT_NONFATAL_FAILURE(kwb::test::expectClean(r), "sgemm.naive 17x31x47: fail");
}

// The plumbing end to end through a stand-in for compute-sanitizer: the arguments reach it,
// the log comes back from --log-file, stdout is kwb's, the exit code is the tool's.
TEST(SanitizerLog, RunSanitizerPassesTheLogFileAndReadsItBack) {
  const std::string dir = std::string(KWB_SANITIZER_LOG_DIR) + "/selftest";
  std::filesystem::create_directories(dir);
  const std::string fake = dir + "/fake-compute-sanitizer";
  {
    std::ofstream f(fake);
    f << "#!/bin/sh\n"
         "while [ $# -gt 0 ]; do\n"
         "  case \"$1\" in --log-file) log=$2; shift;; --tool) tool=$2; shift;;\n"
         "    --shapes) shapes=$2; shift;; esac\n"
         "  shift\n"
         "done\n"
         "printf '========= COMPUTE-SANITIZER\\n========= Invalid __global__ read of size 4 "
         "bytes\\n=========     at k()+0x10\\n=========\\n========= ERROR SUMMARY: 1 "
         "error\\n' > \"$log\"\n"
         "echo \"$tool on $shapes\"\n"
         "echo '1 of 1 cases pass'\n"
         "exit 86\n";
  }
  ASSERT_EQ(::chmod(fake.c_str(), 0755), 0);
  const SanitizerRun r = kwb::test::runSanitizer(
      fake, "initcheck", "/bin/true", kwb::test::gemmSelection("all", "1x1x1"), dir, "fake");
  EXPECT_FALSE(r.process.timedOut);
  EXPECT_EQ(r.process.exitCode, kwb::test::kSanitizerErrorExitCode);
  ASSERT_TRUE(r.errors.has_value()) << r.log;
  EXPECT_EQ(*r.errors, 1);
  EXPECT_NE(r.firstReport.find("at k()+0x10"), std::string::npos) << r.firstReport;
  EXPECT_NE(r.out.find("initcheck on 1x1x1"), std::string::npos) << r.out;
  EXPECT_NE(r.commandLine.find("--log-file " + dir +
                               "/fake.log /bin/true verify --kernels all "
                               "--shapes 1x1x1"),
            std::string::npos)
      << r.commandLine;
}

TEST(SanitizerLog, AHangIsKilledAtTheDeadline) {
  const std::string dir = std::string(KWB_SANITIZER_LOG_DIR) + "/selftest";
  std::filesystem::create_directories(dir);
  const auto p = kwb::test::runProcess({"/bin/sleep", "30"}, dir + "/sleep.out", dir + "/sleep.err",
                                       /*deadlineSeconds=*/1);
  EXPECT_TRUE(p.timedOut);
  EXPECT_LT(p.seconds, 10);
}
