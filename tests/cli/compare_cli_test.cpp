// SPDX-License-Identifier: Apache-2.0
// kwb compare: verdicts per case and the regression gate, on the bundled H100 sample and a
// copy of it with one case planted slower.
#include <gtest/gtest.h>

#include <filesystem>

#include "kwb/error.h"
#include "kwb/results.h"
#include "kwb/stats.h"
#include "run_process.h"

namespace fs = std::filesystem;

namespace {

const fs::path kSample =
    fs::path(KWB_SOURCE_DIR) / "resources" / "samples" / "spec-benchmark-h100.json";

fs::path temp(const std::string& name) {
  return fs::temp_directory_path() / ("kwb_compare_cli_" + std::to_string(::getpid()) + "_" + name);
}

// The sample with every sample of `kernel` at 1024³ multiplied by `factor`.
std::string scaledCopy(const std::string& kernel, double factor) {
  kwb::RunDocument doc = kwb::readDocument(kSample);
  bool found = false;
  for (auto& c : doc.cases)
    if (c.kernel == kernel && c.shape() == kwb::Shape{1024, 1024, 1024}) {
      for (double& s : c.samplesMs) s *= factor;
      c.summary = kwb::stats::summarize(c.samplesMs);
      c.gflops /= factor;
      found = true;
    }
  EXPECT_TRUE(found) << kernel;
  const auto p = temp(kernel + ".json");
  kwb::writeDocument(doc, p);
  return p.string();
}

}  // namespace

TEST(CompareCli, SampleAgainstItselfHasNoFasterOrSlowerCase) {
  const auto r = runKwb({"compare", kSample.string(), kSample.string(), "--fail-on-slower", "3%"});
  EXPECT_EQ(r.exitCode, kwb::kExitOk) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "\n0 faster, 0 slower")) << r.out;
  EXPECT_TRUE(contains(r.out, "GPU time, back-to-back")) << r.out;
}

TEST(CompareCli, PlantedSlowdownFailsTheGateAndIsNamed) {
  const std::string slower = scaledCopy("sgemm.warp_tiled", 1.10);
  const auto gated = runKwb({"compare", kSample.string(), slower, "--fail-on-slower", "3%"});
  EXPECT_EQ(gated.exitCode, kwb::kExitCaseFailed) << gated.out << gated.err;
  EXPECT_TRUE(contains(gated.out, "REGRESSION: sgemm.warp_tiled 1024x1024x1024")) << gated.out;
  EXPECT_TRUE(contains(gated.out, "1 slower")) << gated.out;
  // The same change under a looser gate, or without one, reports and passes.
  EXPECT_EQ(runKwb({"compare", kSample.string(), slower, "--fail-on-slower", "15"}).exitCode,
            kwb::kExitOk);
  const auto plain = runKwb({"compare", kSample.string(), slower});
  EXPECT_EQ(plain.exitCode, kwb::kExitOk);
  EXPECT_TRUE(contains(plain.out, "SLOWER")) << plain.out;
  // The change is in time, positive = slower, with the speedup as a factor: the convention of
  // the GUI's Baseline tab and the report too.
  EXPECT_TRUE(contains(plain.out, "+10.0%")) << plain.out;
  EXPECT_TRUE(contains(plain.out, "1.10× slower")) << plain.out;
}

TEST(CompareCli, SchemaOneBaselineIsUncertainNotFaster) {
  const fs::path old =
      fs::path(KWB_SOURCE_DIR) / "tests" / "data" / "gui-baseline-spec-benchmark.json";
  const auto r = runKwb({"compare", old.string(), kSample.string(), "--fail-on-slower", "3%"});
  EXPECT_EQ(r.exitCode, kwb::kExitOk) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "different timers")) << r.out;
  EXPECT_TRUE(contains(r.out, "\n0 faster, 0 slower")) << r.out;
}

TEST(CompareCli, BadThresholdAndMissingFileExitTwo) {
  const auto bad =
      runKwb({"compare", kSample.string(), kSample.string(), "--fail-on-slower", "abc"});
  EXPECT_EQ(bad.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(bad.err, "--fail-on-slower 'abc'")) << bad.err;
  const auto nanRule =
      runKwb({"compare", kSample.string(), kSample.string(), "--same-within", "nan"});
  EXPECT_EQ(nanRule.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(nanRule.err, "--same-within")) << nanRule.err;
  const auto missing = runKwb({"compare", kSample.string(), "/nonexistent/new.json"});
  EXPECT_EQ(missing.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(missing.err, "/nonexistent/new.json")) << missing.err;
}

// An H100 run against an H200 baseline says so before the table.
TEST(CompareCli, AnotherGpuModelIsACrossDeviceComparison) {
  const fs::path h200 =
      fs::path(KWB_SOURCE_DIR) / "resources" / "samples" / "h200" / "spec-benchmark-h200.json";
  const auto r = runKwb({"compare", h200.string(), kSample.string()});
  EXPECT_EQ(r.exitCode, kwb::kExitOk) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "warning: cross-device comparison: base NVIDIA H200")) << r.out;
  EXPECT_FALSE(
      contains(runKwb({"compare", kSample.string(), kSample.string()}).out, "cross-device"));
}

// kwb ab: bad input is exit 2 naming what is wrong, before any device is needed.
TEST(AbCli, BadInputNamesItAndExitsTwo) {
  const auto none = runKwb({"ab"});
  EXPECT_EQ(none.exitCode, kwb::kExitBadInput) << none.out << none.err;
  EXPECT_TRUE(contains(none.err, "two kernel ids")) << none.err;
  const auto unknown = runKwb({"ab", "sgemm.tiled", "sgemm.nope", "--shapes", "512"});
  EXPECT_EQ(unknown.exitCode, kwb::kExitBadInput) << unknown.err;
  EXPECT_TRUE(contains(unknown.err, "sgemm.nope")) << unknown.err;
  const auto half = runKwb({"ab", "--against", "old.cu"});
  EXPECT_EQ(half.exitCode, kwb::kExitBadInput) << half.err;
  EXPECT_TRUE(contains(half.err, "--source and --against go together")) << half.err;
  const auto margin = runKwb({"ab", "sgemm.tiled", "sgemm.tiled", "--same-within", "x"});
  EXPECT_EQ(margin.exitCode, kwb::kExitBadInput) << margin.err;
  EXPECT_TRUE(contains(margin.err, "--same-within 'x'")) << margin.err;
  const auto families = runKwb({"ab", "sgemm.tiled", "cub.reduce_sum"});
  EXPECT_EQ(families.exitCode, kwb::kExitBadInput) << families.err;
  // Pairs of processes only across builds, and never more pairs than rounds.
  const auto oneBuild =
      runKwb({"ab", "sgemm.tiled", "sgemm.bank_free", "--process-pairs", "2", "--shapes", "64"});
  EXPECT_EQ(oneBuild.exitCode, kwb::kExitBadInput) << oneBuild.err;
  EXPECT_TRUE(contains(oneBuild.err, "--process-pairs goes with --against-kwb")) << oneBuild.err;
  const auto tooMany = runKwb({"ab", "sgemm.tiled", "--against-kwb", KWB_EXE, "--process-pairs",
                               "4", "--rounds", "3", "--shapes", "64"});
  EXPECT_EQ(tooMany.exitCode, kwb::kExitBadInput) << tooMany.err;
  EXPECT_TRUE(contains(tooMany.err, "--process-pairs 4 must be at least 1 and at most the rounds"))
      << tooMany.err;
}
