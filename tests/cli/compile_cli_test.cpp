// SPDX-License-Identifier: Apache-2.0
// kwb compile: NVRTC needs no GPU, so these run everywhere CI runs.
#include <gtest/gtest.h>

#include "kwb/error.h"
#include "kwb/exit_codes.h"
#include "run_process.h"

namespace {
const std::string kData = KWB_SOURCE_DIR "/tests/data/byok/";
const std::string kExamples = KWB_SOURCE_DIR "/resources/examples/";
}  // namespace

TEST(CompileCli, SyntaxErrorExits2NamingFileAndLine) {
  const auto r = runKwb({"compile", "--source", kData + "syntax_error.cu"});
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(
      contains(r.err, "syntax_error.cu:5:11: error: identifier \"undeclared_name\" is undefined"))
      << r.err;
  EXPECT_TRUE(contains(r.err, "NVRTC log")) << r.err;
}

TEST(CompileCli, GoodExamplesExit0) {
  for (const char* f : {"sgemm_tiled_user.cu", "hgemm_simple.cu"}) {
    const auto r = runKwb({"compile", "--source", kExamples + f, "--arch", "sm_90a"});
    EXPECT_EQ(r.exitCode, 0) << f << ": " << r.err;
    EXPECT_TRUE(contains(r.out, ": ok: entry")) << r.out;
  }
}

TEST(CompileCli, ContractViolationsExit2) {
  auto r = runKwb({"compile", "--source", kData + "few_params.cu"});
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(r.err, "takes 3 parameters")) << r.err;
  r = runKwb({"compile", "--source", kExamples + "hgemm_simple.cu", "--entry", "nope"});
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(r.err, "the file has: hgemm_simple")) << r.err;
  r = runKwb({"compile", "--source", kData + "does_not_exist.cu"});
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(r.err, "does_not_exist.cu")) << r.err;
  r = runKwb({"compile", "--source", kExamples + "hgemm_simple.cu", "--block", "16by16"});
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(r.err, "--block")) << r.err;
  // A child launch from the device could put work on another stream than the case's.
  r = runKwb({"compile", "--source", kData + "device_launch.cu"});
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(r.err, "launches kernels from the device")) << r.err;
}

// --kernels may name the --source kernel: named alone it runs alone, with no cublas.sgemm
// added (kwb-gui asks a new engine for a user kernel's cases left so). Without a GPU the run
// ends at the device (exit 3); before, the id was an unknown kernel (exit 2).
TEST(CompileCli, RunKernelsMayNameTheSourceKernelAlone) {
  const auto r = runKwb({"run", "--stream", "--source", kExamples + "sgemm_tiled_user.cu",
                         "--kernels", "user.sgemm_tiled_user", "--shapes", "64", "--samples", "3"});
  EXPECT_NE(r.exitCode, kwb::kExitBadInput) << r.err;
  EXPECT_FALSE(contains(r.err, "unknown kernel")) << r.err;
  EXPECT_FALSE(contains(r.out, "\"kernel\":\"cublas.sgemm\"")) << r.out;
  if (r.exitCode != kwb::kExitNoDevice) {
    EXPECT_TRUE(contains(r.out, "\"kernel\":\"user.sgemm_tiled_user\"")) << r.out;
  }
}
