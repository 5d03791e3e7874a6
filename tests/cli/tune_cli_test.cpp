// SPDX-License-Identifier: Apache-2.0
// `kwb tune --shapes` and `kwb run --tuning` on the command line: bad input exits 2 naming it,
// before any device work (with no GPU, exit 3 means the input was accepted).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "../core/sample_document.h"
#include "kwb/exit_codes.h"
#include "kwb/results.h"
#include "kwb/tune_buckets.h"
#include "run_process.h"

namespace fs = std::filesystem;

namespace {

// A configuration every build of sgemm.warp_tiled has (kernels/tune/tune.cmake).
constexpr const char* kConfig = "128x128x16_w64x64_t8x4x4";

fs::path tempPath(const std::string& name) {
  return fs::temp_directory_path() / ("kwb_tune_cli_" + std::to_string(::getpid()) + "_" + name);
}

std::string writeText(const std::string& name, const std::string& text) {
  const fs::path p = tempPath(name);
  std::ofstream(p) << text;
  return p.string();
}

// A `kwb tune` document for sgemm.warp_tiled: 64³ runs the default, 256³ runs `config`.
std::string tuningFile(const std::string& name, const std::string& config) {
  auto doc = makeSampleDocument();
  kwb::TuneGrid g;
  g.kernel = "sgemm.warp_tiled";
  g.shape = {64, 64, 64};
  const std::vector<kwb::Shape> tuned = {{64, 64, 64}, {256, 256, 256}};
  g.choices = kwb::chooseByBucket({}, tuned);
  g.choices[1].config = config;
  doc.tuning = g;
  return writeText(name, kwb::toJsonText(doc));
}

void expectBadInputNaming(const ProcessResult& r, const std::string& what) {
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput) << r.err;
  EXPECT_TRUE(contains(r.err, what)) << "stderr should name " << what << ": " << r.err;
}

}  // namespace

TEST(TuneCli, ShapesTakesTheRunShapeList) {
  const auto r = runKwb(
      {"tune", "--kernel", "sgemm.warp_tiled", "--shapes", "64,96x128x160", "--max-time", "0.01"});
  if (r.exitCode == kwb::kExitNoDevice) {
    EXPECT_TRUE(contains(r.err, "no CUDA device")) << r.err;
  } else {
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "choice by bucket")) << r.out;
  }
}

TEST(TuneCli, BadShapeInTheListExits2NamingIt) {
  expectBadInputNaming(runKwb({"tune", "--kernel", "sgemm.warp_tiled", "--shapes", "64,abc"}),
                       "'abc'");
  expectBadInputNaming(runKwb({"tune", "--kernel", "sgemm.warp_tiled", "--shapes", ""}),
                       "--shapes");
}

TEST(TuneCli, ShapeAndShapesExcludeEachOtherAndOneIsNeeded) {
  expectBadInputNaming(
      runKwb({"tune", "--kernel", "sgemm.warp_tiled", "--shape", "64", "--shapes", "128"}),
      "--shapes");
  expectBadInputNaming(runKwb({"tune", "--kernel", "sgemm.warp_tiled"}), "--shapes");
}

TEST(TuneCli, ShapesOfOneBucketExit2NamingThem) {
  expectBadInputNaming(
      runKwb({"tune", "--kernel", "sgemm.warp_tiled", "--shapes", "512x1024x1024,1024x512x1024"}),
      "1024x512x1024");
}

TEST(TuneCli, MissingTuningFileExits2NamingIt) {
  const std::string path = tempPath("absent.json").string();
  expectBadInputNaming(
      runKwb({"run", "--kernels", "sgemm.warp_tiled", "--shapes", "64", "--tuning", path}), path);
}

TEST(TuneCli, MalformedTuningFileExits2NamingIt) {
  const std::string path = writeText("malformed.json", "{\"schemaVersion\": 4, ");
  expectBadInputNaming(
      runKwb({"run", "--kernels", "sgemm.warp_tiled", "--shapes", "64", "--tuning", path}), path);
  fs::remove(path);
}

TEST(TuneCli, DocumentWithoutSweepExits2NamingIt) {
  const std::string path = writeText("run.json", kwb::toJsonText(makeSampleDocument()));
  const auto r =
      runKwb({"run", "--kernels", "sgemm.warp_tiled", "--shapes", "64", "--tuning", path});
  expectBadInputNaming(r, path);
  EXPECT_TRUE(contains(r.err, "no tuning sweep")) << r.err;
  fs::remove(path);
}

TEST(TuneCli, TuningOfAnotherKernelExits2NamingFileAndKernel) {
  const std::string path = tuningFile("other.json", kConfig);
  const auto r = runKwb({"run", "--kernels", "sgemm.naive", "--shapes", "64", "--tuning", path});
  expectBadInputNaming(r, path);
  EXPECT_TRUE(contains(r.err, "sgemm.warp_tiled")) << r.err;
  fs::remove(path);
}

TEST(TuneCli, UnknownConfigurationExits2NamingFileAndConfiguration) {
  const std::string path = tuningFile("unknown.json", "999x999x1_nope");
  const auto r =
      runKwb({"run", "--kernels", "sgemm.warp_tiled", "--shapes", "64", "--tuning", path});
  expectBadInputNaming(r, path);
  EXPECT_TRUE(contains(r.err, "'999x999x1_nope'")) << r.err;
  EXPECT_TRUE(contains(r.err, kConfig)) << "lists the known ones: " << r.err;
  fs::remove(path);
}

TEST(TuneCli, InconsistentBucketsExit2NamingTheFile) {
  const std::string path = tuningFile("gap.json", kConfig);
  auto j = nlohmann::json::parse(slurp(path));
  j["tuning"]["choices"][1]["minFlops"] = 1.0;
  writeText("gap.json", j.dump());
  expectBadInputNaming(
      runKwb({"run", "--kernels", "sgemm.warp_tiled", "--shapes", "64", "--tuning", path}), path);
  fs::remove(path);
}

TEST(TuneCli, ValidTuningIsAccepted) {
  const std::string path = tuningFile("good.json", kConfig);
  const auto r = runKwb({"run", "--kernels", "sgemm.warp_tiled,sgemm.naive", "--shapes", "64,256",
                         "--samples", "3", "--tuning", path});
  if (r.exitCode == kwb::kExitNoDevice) {
    EXPECT_TRUE(contains(r.err, "no CUDA device")) << r.err;
  } else {
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(
        contains(r.out, std::string("sgemm.warp_tiled[") + kConfig + "] (tuned for 256x256x256)"))
        << r.out;
  }
  fs::remove(path);
}
