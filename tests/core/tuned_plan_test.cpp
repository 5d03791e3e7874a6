// SPDX-License-Identifier: Apache-2.0
// kwb run --tuning (kwb/cuda/tuned_plan.h): the tuned kernel's cases point at the configuration
// their shape's bucket chose, checked against what the build has before anything runs.
#include "kwb/cuda/tuned_plan.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <functional>
#include <limits>

#include "kwb/error.h"
#include "test_support.h"

namespace {

namespace fs = std::filesystem;
using kwb::cuda::PlanCase;
using kwb::cuda::TuneOption;

kwb::KernelDescriptor kernel(const std::string& id) {
  kwb::KernelDescriptor k;
  k.id = id;
  k.family = "sgemm";
  k.stage = 3;
  k.tunable = true;
  return k;
}

const kwb::KernelDescriptor kNaive = kernel("sgemm.naive");
const kwb::KernelDescriptor kTiled = kernel("sgemm.tiled");

std::vector<PlanCase> plan() {
  std::vector<const kwb::KernelDescriptor*> kernels{&kNaive, &kTiled};
  return kwb::cuda::orderPlan(kernels,
                              std::vector<kwb::Shape>{{256, 256, 256}, {1024, 1024, 1024}});
}

// A `kwb tune` document of sgemm.tiled: 256³ chose cfgA, 1024³ the kernel as registered.
std::string sweepFile(const std::string& name, const std::string& kernelId) {
  kwb::RunDocument doc;
  kwb::TuneGrid grid;
  grid.kernel = kernelId;
  grid.shape = {256, 256, 256};
  const double small = 2.0 * 256 * 256 * 256, large = 2.0 * 1024 * 1024 * 1024;
  const double mid = std::sqrt(small * large);
  grid.choices = {
      {{256, 256, 256}, 0.0, mid, "cfgA", 100.0},
      {{1024, 1024, 1024}, mid, std::numeric_limits<double>::infinity(), "default", 200.0}};
  doc.tuning = grid;
  const fs::path p =
      fs::temp_directory_path() / ("kwb_tuned_" + std::to_string(::getpid()) + "_" + name);
  kwb::writeDocument(doc, p);
  return p.string();
}

// What this build "has": two configurations, each a copy whose id names it.
std::vector<TuneOption> twoConfigs(const kwb::KernelDescriptor& base) {
  std::vector<TuneOption> out;
  for (const std::string name : {"cfgA", "cfgB"}) {
    kwb::KernelDescriptor d = base;
    d.id = base.id + "[" + name + "]";
    d.displayName = name;
    out.push_back({name, d});
  }
  return out;
}

TEST(TunedPlan, EachCaseRunsItsBucketsChoice) {
  const std::string path = sweepFile("ok.json", "sgemm.tiled");
  auto p = plan();
  const kwb::KernelDescriptor* asked = nullptr;
  const auto applied = kwb::cuda::applyTuning(path, p, [&](const kwb::KernelDescriptor& base) {
    asked = &base;
    return twoConfigs(base);
  });
  EXPECT_EQ(asked, &kTiled);
  EXPECT_EQ(applied.kernel, "sgemm.tiled");
  ASSERT_EQ(applied.descriptors.size(), 1u);  // one configuration chosen, made once
  ASSERT_EQ(p.size(), 4u);
  EXPECT_EQ(p[0].kernel, &kNaive);  // another kernel runs as without
  EXPECT_EQ(p[0].ranAs, "");
  EXPECT_EQ(p[1].kernel, &applied.descriptors.front());
  EXPECT_EQ(p[1].kernel->id, "sgemm.tiled");  // the case stays the kernel's
  EXPECT_EQ(p[1].kernel->displayName, "cfgA");
  EXPECT_EQ(p[1].ranAs, "sgemm.tiled[cfgA] (tuned for 256x256x256)");
  EXPECT_EQ(p[3].kernel, &kTiled);  // "default": the kernel as registered
  EXPECT_EQ(p[3].ranAs, "sgemm.tiled (default, tuned for 1024x1024x1024)");
  fs::remove(path);
}

TEST(TunedPlan, AConfigurationTheBuildLacksIsRefusedNamingWhatItHas) {
  const std::string path = sweepFile("lacks.json", "sgemm.tiled");
  auto p = plan();
  const std::string e = errorOf([&] {
    kwb::cuda::applyTuning(path, p, [](const kwb::KernelDescriptor& base) {
      auto options = twoConfigs(base);
      options.erase(options.begin());  // no cfgA here
      return options;
    });
  });
  EXPECT_EQ(e, "--tuning '" + path +
                   "' chooses configuration 'cfgA' for 256x256x256, which sgemm.tiled does not "
                   "have in this build (it has: default, cfgB)");
  fs::remove(path);
}

TEST(TunedPlan, AKernelTheRunDoesNotSelectIsRefused) {
  const std::string path = sweepFile("other.json", "sgemm.other");
  auto p = plan();
  EXPECT_EQ(errorOf([&] { kwb::cuda::applyTuning(path, p, twoConfigs); }),
            "--tuning '" + path +
                "' tunes sgemm.other, which this run does not select (add it to --kernels)");
  fs::remove(path);
}

TEST(TunedPlan, ADocumentWithoutASweepOrNoFileIsRefused) {
  const fs::path path =
      fs::temp_directory_path() / ("kwb_tuned_" + std::to_string(::getpid()) + "_none.json");
  kwb::writeDocument(kwb::RunDocument{}, path);
  auto p = plan();
  EXPECT_EQ(errorOf([&] { kwb::cuda::applyTuning(path.string(), p, twoConfigs); }),
            "--tuning '" + path.string() +
                "' holds no tuning sweep (write one with kwb tune --shapes ... --json)");
  fs::remove(path);
  const std::string missing =
      errorOf([&] { kwb::cuda::applyTuning(path.string(), p, twoConfigs); });
  EXPECT_EQ(missing.rfind("--tuning: ", 0), 0u) << missing;
  EXPECT_NE(missing.find(path.string()), std::string::npos) << missing;
}

TEST(TunedPlan, TheTunedCasesAreListedWithWhatRan) {
  kwb::RunDocument doc;
  kwb::CaseResult tuned, other;
  tuned.kernel = "sgemm.tiled";
  tuned.size = kwb::gemmSize({256, 256, 256});
  tuned.ranKernel = "sgemm.tiled[cfgA]";
  other.kernel = "sgemm.naive";
  other.size = kwb::gemmSize({256, 256, 256});
  doc.cases = {other, tuned};
  kwb::cuda::AppliedTuning applied;
  applied.kernel = "sgemm.tiled";
  EXPECT_EQ(kwb::cuda::tunedCasesText(doc, applied),
            "tuned cases:\n  sgemm.tiled 256x256x256 ran sgemm.tiled[cfgA]\n");
  applied.kernel = "sgemm.absent";
  EXPECT_EQ(kwb::cuda::tunedCasesText(doc, applied), "");
}

}  // namespace
