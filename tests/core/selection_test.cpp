// SPDX-License-Identifier: Apache-2.0
// What to run (kwb/cuda/selection.h): a suite or preset, a family, kernels and sizes resolved
// over a given kernel list and presets folder, as kwb run, verify and ab resolve their options.
#include "kwb/cuda/selection.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include "kwb/error.h"
#include "test_support.h"

namespace {

namespace fs = std::filesystem;
using kwb::cuda::resolveSelection;
using kwb::cuda::Selection;

const fs::path kPresets = fs::path(KWB_SOURCE_DIR) / "resources" / "presets";

kwb::KernelDescriptor kernel(const std::string& id, const std::string& problem, bool reference) {
  kwb::KernelDescriptor k;
  k.id = id;
  k.family = id.substr(0, id.find('.'));
  k.problem = problem;
  k.reference = reference;
  return k;
}

// A kernel list of three families, references with the ids the families name.
const kwb::KernelRegistry& registry() {
  static const kwb::KernelRegistry r({
      kernel("cublas.sgemm", "gemm", true),
      kernel("sgemm.naive", "gemm", false),
      kernel("sgemm.tiled", "gemm", false),
      kernel("cub.reduce_sum", "reduce", true),
      kernel("reduce.tree", "reduce", false),
      kernel("reduce.warp", "reduce", false),
      kernel("cub.inclusive_sum", "scan", true),
      kernel("scan.naive", "scan", false),
      kernel("histo.ref", "histo", true),
  });
  return r;
}

kwb::cuda::ResolvedSelection resolve(const Selection& sel, const fs::path& presets = kPresets) {
  return resolveSelection(sel, registry(), "quick", presets);
}

std::vector<std::string> ids(const std::vector<const kwb::KernelDescriptor*>& kernels) {
  std::vector<std::string> out;
  out.reserve(kernels.size());
  for (const auto* k : kernels) out.push_back(k->id);
  return out;
}

std::vector<std::string> labels(const std::vector<kwb::CaseSize>& sizes) {
  std::vector<std::string> out;
  out.reserve(sizes.size());
  for (const auto& s : sizes) out.push_back(kwb::sizeLabel(s));
  return out;
}

TEST(Selection, AReduceSuiteWithSizesRunsThoseSizesInTheSuitesTypes) {
  Selection sel;
  sel.suite = "reduce-benchmark";
  sel.sizes = "2^10,1000";
  const auto r = resolve(sel);
  EXPECT_EQ(r.suiteName, "reduce-benchmark");
  EXPECT_EQ(r.family->id, "reduce");
  EXPECT_EQ(ids(r.kernels),
            (std::vector<std::string>{"cub.reduce_sum", "reduce.tree", "reduce.warp"}));
  EXPECT_EQ(labels(r.sizes()),
            (std::vector<std::string>{"2^10 f32", "2^10 i32", "1000 f32", "1000 i32"}));
  const auto plan = kwb::cuda::orderedPlan(r);
  ASSERT_EQ(plan.size(), 12u);
  // Size by size in the given order, the family's reference first in each.
  EXPECT_EQ(plan[0].kernel->id, "cub.reduce_sum");
  EXPECT_EQ(kwb::sizeLabel(plan[0].size), "2^10 f32");
  EXPECT_EQ(plan[2].kernel->id, "reduce.warp");
  EXPECT_EQ(plan[3].kernel->id, "cub.reduce_sum");
  EXPECT_EQ(kwb::sizeLabel(plan[3].size), "2^10 i32");
  EXPECT_EQ(kwb::sizeLabel(plan[11].size), "1000 i32");
}

TEST(Selection, AFamilyAloneRunsItsBenchmarkSuite) {
  Selection sel;
  sel.family = "reduce";
  const auto r = resolve(sel);
  EXPECT_EQ(r.suiteName, "reduce-benchmark");
  EXPECT_EQ(labels(r.sizes()).size(), 8u);  // four counts, two types
}

TEST(Selection, AFamilyWithSizesAndTypesNeedsNoSuite) {
  Selection sel;
  sel.family = "scan";
  sel.sizes = "2^20";
  sel.types = "i32,i32";
  sel.kernels = "stages";
  const auto r = resolve(sel);
  EXPECT_EQ(r.suiteName, "");
  EXPECT_EQ(labels(r.sizes()), (std::vector<std::string>{"2^20 i32"}));
  EXPECT_EQ(ids(r.kernels), (std::vector<std::string>{"scan.naive"}));
}

TEST(Selection, ShapesAloneRunTheGemmKernelsWithoutTheDefaultSuite) {
  Selection sel;
  sel.shapes = "512,256x384x640";
  const auto r = resolve(sel, "/no/presets/here");  // no suite is read
  EXPECT_EQ(r.suiteName, "");
  EXPECT_EQ(r.family->id, "gemm");
  EXPECT_EQ(ids(r.kernels),
            (std::vector<std::string>{"cublas.sgemm", "sgemm.naive", "sgemm.tiled"}));
  EXPECT_EQ(labels(r.sizes()), (std::vector<std::string>{"512x512x512", "256x384x640"}));
}

TEST(Selection, NothingGivenRunsTheDefaultSuiteFromTheGivenFolder) {
  EXPECT_EQ(resolve({}).suiteName, "quick");
  const fs::path dir = fs::temp_directory_path() / ("kwb_selection_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "quick.json")
      << R"({"name": "quick", "shapes": ["64"], "kernels": "stages"})";
  const auto r = resolve({}, dir);
  EXPECT_EQ(labels(r.sizes()), (std::vector<std::string>{"64x64x64"}));
  EXPECT_EQ(ids(r.kernels), (std::vector<std::string>{"sgemm.naive", "sgemm.tiled"}));
  fs::remove_all(dir);
}

TEST(Selection, AKernelOfAnotherFamilyIsRefusedByName) {
  Selection sel;
  sel.suite = "reduce-benchmark";
  sel.sizes = "2^10";
  sel.kernels = "reduce.tree,sgemm.naive";
  EXPECT_EQ(errorOf([&] { resolve(sel); }),
            "kernel sgemm.naive is of the gemm family, not reduce (give --family gemm)");
}

TEST(Selection, MismatchedOptionsAreRefusedNamingWhatFits) {
  Selection shapes;
  shapes.family = "reduce";
  shapes.shapes = "512";
  EXPECT_EQ(errorOf([&] { resolve(shapes); }),
            "--shapes is for the gemm family; the reduce family takes --sizes (count type "
            "f32|i32)");
  Selection sizes;
  sizes.family = "gemm";
  sizes.sizes = "2^20";
  // The families sized by --sizes are named (this test binary registers a "histo" too).
  const std::string sizesError = errorOf([&] { resolve(sizes); });
  EXPECT_EQ(sizesError.rfind("--sizes, --types and --axis are for the families sized by them (", 0),
            0u)
      << sizesError;
  EXPECT_NE(sizesError.find("reduce, scan"), std::string::npos) << sizesError;
  EXPECT_NE(sizesError.find("); gemm takes --shapes"), std::string::npos) << sizesError;
  Selection gemmSuite;
  gemmSuite.suite = "quick";
  gemmSuite.types = "f32";
  EXPECT_NE(errorOf([&] { resolve(gemmSuite); }).find("); suite 'quick' is of the gemm family"),
            std::string::npos);
  Selection gemmAxis;
  gemmAxis.shapes = "64";
  gemmAxis.axes = {"m=64"};
  EXPECT_NE(errorOf([&] { resolve(gemmAxis); }).find("gemm takes --shapes"), std::string::npos);
  Selection otherFamily;
  otherFamily.suite = "quick";
  otherFamily.family = "scan";
  EXPECT_EQ(errorOf([&] { resolve(otherFamily); }),
            "suite 'quick' is of the gemm family, not scan");
}

TEST(Selection, NoKernelOfTheFamilyIsAnError) {
  const kwb::KernelRegistry gemmOnly({kernel("cublas.sgemm", "gemm", true)});
  Selection sel;
  sel.family = "reduce";
  sel.sizes = "2^10";
  EXPECT_EQ(errorOf([&] { resolveSelection(sel, gemmOnly, "quick", kPresets); }),
            "no reduce kernels selected by 'all' (kwb list shows the kernels of each family)");
}

// A family of four axes, as a histogram declares them, in the catalog.
const bool kHisto = (kwb::registerFamily(histogramLikeFamily("histo")), true);

TEST(Selection, AnyFamilysSizesAreItsSizeTextsCrossedWithTheAxesGiven) {
  Selection sel;
  sel.family = "histo";
  sel.sizes = "2^20,2^24 f32";
  sel.axes = {"bins=256,4096", "distribution=zipf"};
  const auto r = resolve(sel, "/no/presets/here");  // sizes given: no suite is read
  EXPECT_EQ(labels(r.sizes()),
            (std::vector<std::string>{"2^20 u8 256 bins zipf", "2^20 u8 2^12 bins zipf",
                                      "2^24 f32 256 bins zipf", "2^24 f32 2^12 bins zipf"}));
  EXPECT_EQ(ids(r.kernels), (std::vector<std::string>{"histo.ref"}));
  // --types is --axis type=.
  sel.sizes = "2^20";
  sel.axes = {"bins=8"};
  sel.types = "f32,u8";
  EXPECT_EQ(labels(resolve(sel, "/no/presets/here").sizes()),
            (std::vector<std::string>{"2^20 f32 8 bins uniform", "2^20 u8 8 bins uniform"}));
  sel.axes = {"bins=8", "type=u8"};
  EXPECT_EQ(errorOf([&] { resolve(sel, "/no/presets/here"); }), "axis 'type' is given twice");
  sel.types.clear();
  sel.axes = {"shade=dark"};
  EXPECT_NE(errorOf([&] { resolve(sel, "/no/presets/here"); }).find("unknown axis 'shade'"),
            std::string::npos);
}

TEST(Selection, ACommandLineAxisReplacesTheSuitesValuesOfIt) {
  const fs::path dir = tempDir("selection_axes");
  std::ofstream(dir / "histo-benchmark.json")
      << R"({"name": "histo-benchmark", "family": "histo", "sizes": ["2^20 u8", 1000003],)"
      << R"( "axes": {"bins": [256, 1024], "distribution": ["uniform", "one-bin"]}})";
  Selection sel;
  sel.family = "histo";
  EXPECT_EQ(labels(resolve(sel, dir).sizes()).size(), 8u);  // 2 sizes x 2 bins x 2 distributions
  sel.axes = {"bins=64"};
  EXPECT_EQ(labels(resolve(sel, dir).sizes()),
            (std::vector<std::string>{"2^20 u8 64 bins uniform", "2^20 u8 64 bins one-bin",
                                      "1000003 u8 64 bins uniform", "1000003 u8 64 bins one-bin"}));
  sel.suite = "histo-benchmark";
  sel.sizes = "7";
  sel.axes.clear();
  EXPECT_EQ(labels(resolve(sel, dir).sizes()),
            (std::vector<std::string>{"7 u8 256 bins uniform", "7 u8 256 bins one-bin",
                                      "7 u8 2^10 bins uniform", "7 u8 2^10 bins one-bin"}));
  fs::remove_all(dir);
}

TEST(Selection, TheOneDimensionalFamiliesTakeTheirTypeAsAnAxis) {
  Selection sel;
  sel.family = "reduce";
  sel.sizes = "2^10,3";
  sel.axes = {"type=i32"};
  EXPECT_EQ(labels(resolve(sel).sizes()), (std::vector<std::string>{"2^10 i32", "3 i32"}));
  sel.axes = {"type=f64"};
  EXPECT_EQ(errorOf([&] { resolve(sel); }),
            "bad --axis type value 'f64' for the reduce family (it takes f32|i32)");
}

TEST(Selection, AnUnknownSuiteOrKernelIsNamed) {
  Selection suite;
  suite.suite = "no-such-suite";
  EXPECT_NE(errorOf([&] { resolve(suite); }).find("no-such-suite"), std::string::npos);
  Selection id;
  id.shapes = "64";
  id.kernels = "sgemm.nope";
  EXPECT_NE(errorOf([&] { resolve(id); }).find("unknown kernel id 'sgemm.nope'"),
            std::string::npos);
}

}  // namespace
