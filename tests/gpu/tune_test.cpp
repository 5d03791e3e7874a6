// SPDX-License-Identifier: Apache-2.0
// Every tuning configuration of every tunable kernel passes the verification pipeline on an
// aligned shape, on shapes whose every dimension cuts a tile (ragged but 8-aligned), and on
// unaligned shapes, where it must fall back and say so. And through the built kwb: a sweep
// over two shapes chooses per bucket, and `kwb run --tuning` runs what each case's bucket chose.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>

#include "gpu_fixture.h"
#include "kwb/cuda/gemm_session.h"
#include "kwb/results.h"
#include "kwb/tune_buckets.h"
#include "registry.h"
#include "run_process.h"
#include "tuning_variants.h"

namespace {

constexpr std::uint64_t kSeed = 0x7E57;

kwb::cuda::GemmSession& session() {
  static std::unique_ptr<kwb::cuda::GemmSession> s;
  if (!s) s = std::make_unique<kwb::cuda::GemmSession>(0);
  return *s;
}

// Whether a configuration runs its own code on `s` (the other shapes fall back to the
// registered FP32 stage): the warp-tiled configurations need K and N multiples of 4 for their
// float4 paths; the mma.sync ones every dimension a multiple of 8 (the stage's alignment); the
// wgmma ones every shape, on a compute capability 9.0 device (its code is sm_90a only).
bool ownPath(const std::string& kernel, const kwb::Shape& s) {
  if (kernel == "sgemm.warp_tiled") return s.n % 4 == 0 && s.k % 4 == 0;
  if (kernel == "sgemm.wgmma") {
    int major = 0, minor = 0;
    (void)cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
    (void)cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0);
    return major == 9 && minor == 0;
  }
  return s.multipleOf(8);
}

class Tune : public GpuTest {};

// The lists themselves (host data) are checked by tests/kernels/kernel_list_test.cpp.
TEST_F(Tune, EveryConfigurationVerifies) {
  const kwb::Shape shapes[] = {
      {512, 512, 512},  // whole tiles for every configuration
      {264, 200, 136},  // 8-aligned, and every dimension cuts a tile of every configuration
      {8, 1032, 40},    // one short row panel, a partial K slice
      {129, 65, 33},    // unaligned: the warp-tiled and mma configurations fall back
      {36, 100, 12},    // K, N multiples of 4 only: warp-tiled runs, mma falls back
  };
  for (const auto& id : kwb::kernels::tunableKernels()) {
    const kwb::KernelDescriptor& base = kwb::kernels::registry().find(id);
    for (const auto& v : kwb::kernels::tuneVariants(id)) {
      const kwb::KernelDescriptor k = kwb::kernels::withVariant(base, v);
      for (const auto& s : shapes) {
        SCOPED_TRACE(k.id + " " + kwb::toString(s) + " seed " + std::to_string(kSeed));
        const kwb::CaseResult c = session().verifyCase(k, s, kSeed);
        const bool own = ownPath(id, s);
        EXPECT_EQ(toString(c.status),
                  toString(own ? kwb::CaseStatus::kPass : kwb::CaseStatus::kFallback))
            << c.message;
        EXPECT_EQ(c.fallback, !own);
        if (id == "sgemm.wgmma")  // the kernel's launcher names the tile and the splits that ran
          EXPECT_TRUE(c.ranKernel.starts_with(own ? "sgemm.wgmma" : "sgemm.")) << c.ranKernel;
        else if (own)
          EXPECT_EQ(c.ranKernel, v.config.name);
        else  // the warp-tiled stage, which names the tile it chose after its id
          EXPECT_TRUE(c.ranKernel.starts_with("sgemm.warp_tiled")) << c.ranKernel;
        ASSERT_TRUE(c.verification.has_value()) << c.message;
        EXPECT_EQ(c.verification->unwritten, 0);
        EXPECT_EQ(c.verification->compare.mismatches, 0) << c.message;
        ASSERT_TRUE(c.verification->alphaBeta.has_value());
        EXPECT_EQ(c.verification->alphaBeta->mismatches, 0) << c.message;
        EXPECT_TRUE(c.verification->negativeControlRejected);
      }
    }
  }
}

TEST_F(Tune, RunWithTuningRunsTheChosenConfiguration) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("kwb_tune_gpu_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string tuneJson = (dir / "tune.json").string(), runJson = (dir / "run.json").string();
  const auto t = runKwb({"tune", "--kernel", "sgemm.warp_tiled", "--shapes", "128,512",
                         "--max-time", "0.05", "--json", tuneJson});
  ASSERT_EQ(t.exitCode, 0) << t.out << t.err;
  EXPECT_TRUE(t.out.find("choice by bucket") != std::string::npos) << t.out;
  const kwb::RunDocument tuned = kwb::readDocument(tuneJson);
  ASSERT_TRUE(tuned.tuning);
  // The default and every configuration, on both shapes.
  EXPECT_EQ(tuned.tuning->results.size(),
            2 * (kwb::kernels::tuneVariants("sgemm.warp_tiled").size() + 1));
  ASSERT_EQ(tuned.tuning->choices.size(), 2u);
  for (const auto& c : tuned.tuning->choices) EXPECT_GT(c.gflops, 0.0) << toString(c.shape);

  // 200x136x264 (14.4 MFLOP) was not tuned: it lies in 128³'s bucket (below 33.5 MFLOP).
  const auto r = runKwb({"run", "--kernels", "sgemm.warp_tiled", "--shapes", "128,512,200x136x264",
                         "--samples", "5", "--tuning", tuneJson, "--json", runJson});
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  const kwb::RunDocument doc = kwb::readDocument(runJson);
  ASSERT_EQ(doc.cases.size(), 3u);
  for (const kwb::CaseResult& c : doc.cases) {
    SCOPED_TRACE(toString(c.shape()));
    const kwb::TuneChoice& choice = kwb::choiceFor(tuned.tuning->choices, c.shape());
    const std::string tunedFor = "tuned for " + toString(choice.shape) + ")";
    EXPECT_EQ(c.kernel, "sgemm.warp_tiled");
    EXPECT_EQ(c.ranKernel, choice.config == kwb::kDefaultConfig
                               ? "sgemm.warp_tiled (default, " + tunedFor
                               : "sgemm.warp_tiled[" + choice.config + "] (" + tunedFor);
    EXPECT_EQ(toString(c.status), toString(kwb::CaseStatus::kPass)) << c.message;
    EXPECT_TRUE(c.timed());
  }
  EXPECT_EQ(kwb::choiceFor(tuned.tuning->choices, {200, 136, 264}).shape,
            (kwb::Shape{128, 128, 128}));
  fs::remove_all(dir);
}

// Found on an H100 and an H200: in a sweep over 512³, 1024³ and 4096³ the default
// configuration at 512³ (split-K) was verified, its graph captured, then a larger shape grew
// the split-K workspace, which freed the buffer the graph launched on: its timing hit an
// illegal address and the lost context left every later configuration untimed.
TEST_F(Tune, ACaseTimedAfterTheSplitKWorkspaceGrewStillTimes) {
  const auto t = runKwb(
      {"tune", "--kernel", "sgemm.warp_tiled", "--shapes", "512,1024,4096", "--max-time", "0.05"});
  ASSERT_EQ(t.exitCode, 0) << t.out << t.err;
  EXPECT_EQ(t.out.find("illegal"), std::string::npos) << t.out;
  EXPECT_EQ(t.out.find("context was lost"), std::string::npos) << t.out;
}

}  // namespace
