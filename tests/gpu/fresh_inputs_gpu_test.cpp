// SPDX-License-Identifier: Apache-2.0
// Fresh inputs and the timed launches' output of the 1-D families (kwb/cuda/input_sets.h,
// docs/MEASUREMENT.md "Fresh inputs"):
// - every registered reduce, scan, histogram and sort kernel passes with --fresh-inputs 4, its
//   case rotating through 4 input sets whose last timed output is checked, the setting in the
//   document and through its JSON;
// - the timed launches of a sort read set after set (a recording launcher sees 4 input pointers,
//   never the same twice running);
// - with room for fewer sets than asked, the case takes what fits and its timer note says so;
// - the planted faults: a sort correct on its first launch (the verification's) and wrong on
//   every later one fails on its timed output, with or without fresh inputs; a reduction that
//   replays the answer of its first input passes with one set and fails with four.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "gpu_fixture.h"
#include "kwb/cuda/device_buffer.h"
#include "kwb/cuda/family_driver.h"
#include "kwb/cuda/runner.h"
#include "kwb/cuda/stream.h"
#include "kwb/family.h"
#include "kwb/vector_args.h"
#include "kwb/results.h"
#include "registry.h"
#include "sort/sort_args.h"
#include "sort/sort_data.h"
#include "sort/sort_descriptors.h"

namespace {

using kwb::CaseStatus;
using kwb::KernelDescriptor;
namespace sort = kwb::kernels::sort;

kwb::RunDocument run(const kwb::KernelRegistry& registry, const std::vector<kwb::PlannedCase>& plan,
                     int freshInputs) {
  kwb::cuda::RunConfig cfg;
  cfg.measure.rule = {
      .minSamples = 5, .maxSamples = 5, .minTimeS = 0, .maxTimeS = 1, .maxNoise = 1};
  cfg.freshInputs = freshInputs;
  return kwb::cuda::runPlan(registry, plan, cfg, [](const kwb::StreamEvent&) {}, {});
}

kwb::CaseSize sizeOf(const std::string& family, const std::string& text) {
  kwb::kernels::registry();  // registers the families
  return kwb::parseSize(kwb::cuda::familyDriver(family).family(), text);
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

class FreshInputs : public GpuTest {};

TEST_F(FreshInputs, EveryOneDimensionalKernelPassesWithFourSetsAndTheRunRecordsThem) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> sizes = {
      {"reduce", {"1000003 f32", "2^20 i32"}},
      {"scan", {"1000003 f32", "2^20 i32"}},
      {"histogram", {"2^20 u8 256 bins uniform", "1000003 f32 32 bins zipf"}},
      {"sort", {"2^20 u32 keys", "1000003 f32 pairs"}}};
  std::vector<kwb::PlannedCase> plan;
  for (const auto& [family, texts] : sizes)
    for (const auto& k : kwb::kernels::registry().all())
      if (k.problem == family)
        for (const std::string& t : texts) plan.push_back({k.id, sizeOf(family, t)});
  const kwb::RunDocument doc = run(kwb::kernels::registry(), plan, 4);
  ASSERT_EQ(doc.cases.size(), plan.size());
  EXPECT_EQ(doc.settings.freshInputs, 4);
  for (const auto& c : doc.cases) {
    const std::string name = c.kernel + " " + kwb::sizeText(c.size);
    EXPECT_EQ(c.status, CaseStatus::kPass) << name << ": " << c.message;
    EXPECT_TRUE(c.timed()) << name;
    EXPECT_EQ(c.inputSets, 4) << name << " (" << c.timerNote << ")";
    ASSERT_TRUE(c.verification && c.verification->timedOutput) << name;
    EXPECT_TRUE(c.verification->timedOutput->passed()) << name;
  }
  const kwb::RunDocument back = kwb::parseDocument(kwb::toJsonText(doc), "fresh inputs");
  EXPECT_EQ(back.settings.freshInputs, 4);
  ASSERT_EQ(back.cases.size(), doc.cases.size());
  for (const auto& c : back.cases) EXPECT_EQ(c.inputSets, 4) << c.kernel;
}

// A sort that records the input it reads: CUB's sort, its keysIn pointers in call order.
std::vector<const std::uint32_t*>& keysRead() {
  static std::vector<const std::uint32_t*> read;
  return read;
}
const sort::SortLauncher& cub() {
  static const KernelDescriptor k = sort::cubRadixSortRef();
  return *std::any_cast<sort::SortLauncher>(&k.launcher);
}
std::size_t cubScratch(std::int64_t n, sort::KeyType t, bool pairs) {
  return cub().scratchBytes(n, t, pairs);
}
kwb::LaunchInfo recordsItsInput(const sort::SortArgs& a) {
  keysRead().push_back(a.keysIn);
  return cub().launch(a);
}

TEST_F(FreshInputs, TheTimedLaunchesOfASortReadSetAfterSet) {
  keysRead().clear();
  const KernelDescriptor k = sort::sortDescriptor("test.sort_records_input", "records its input",
                                                  false, "", &recordsItsInput, &cubScratch);
  const kwb::KernelRegistry registry({sort::cubRadixSortRef(), k});
  const kwb::CaseSize size = sizeOf("sort", "2^20 u32 pairs");
  const auto doc = run(registry, {{"cub.radix_sort", size}, {k.id, size}}, 4);
  ASSERT_EQ(doc.cases.size(), 2u);
  EXPECT_EQ(doc.cases[1].status, CaseStatus::kPass) << doc.cases[1].message;
  EXPECT_EQ(doc.cases[1].inputSets, 4);
  const auto& read = keysRead();
  ASSERT_GT(read.size(), 8u);
  EXPECT_EQ(std::set<const std::uint32_t*>(read.begin(), read.end()).size(), 4u);
  // The first call is the verification's and the last the check's second launch, each on the
  // set the launch before it read; every timed launch reads another set than the one before.
  for (std::size_t i = 2; i + 1 < read.size(); ++i) EXPECT_NE(read[i], read[i - 1]) << i;
}

TEST_F(FreshInputs, FewerSetsThanAskedWhereTheMemoryHoldsFewerAndTheNoteSaysSo) {
  kwb::kernels::registry();
  kwb::cuda::Stream stream;
  kwb::cuda::RunConfig cfg;
  cfg.freshInputs = 4;
  kwb::cuda::DriverContext ctx;
  ctx.stream = stream.get();
  ctx.seed = 21;
  ctx.run = &cfg;
  const KernelDescriptor& k = kwb::kernels::registry().find("cub.reduce_sum");
  kwb::cuda::FamilyDriver& d = kwb::cuda::familyDriver("reduce");
  auto fc = d.prepare(k, sizeOf("reduce", "2^24 f32"), ctx);
  kwb::CaseResult c = fc->verify(k);
  ASSERT_EQ(c.status, CaseStatus::kPass) << c.message;
  // Leave room for one further set of 64 MiB and a half, above the 64 MiB of headroom.
  std::size_t freeBytes = 0, total = 0;
  ASSERT_EQ(cudaMemGetInfo(&freeBytes, &total), cudaSuccess);
  const std::size_t setBytes = std::size_t(4) << 24,
                    keep = (std::size_t(64) << 20) + setBytes * 3 / 2;
  ASSERT_GT(freeBytes, keep);
  const kwb::cuda::DeviceBuffer<unsigned char> hog(freeBytes - keep);
  const auto launch = fc->timedLaunch(k);
  for (int i = 0; i < 5; ++i) launch();
  fc->checkTimedOutput(k, c);
  EXPECT_EQ(c.inputSets, 2);
  EXPECT_TRUE(has(c.timerNote, "rotated through 2 of 4 input sets")) << c.timerNote;
  ASSERT_TRUE(c.verification && c.verification->timedOutput);
  EXPECT_TRUE(c.verification->timedOutput->passed());
}

// The planted fault: CUB's sort on the first launch, then CUB's sort with two outputs swapped.
int& plantedLaunches() {
  static int n = 0;
  return n;
}
kwb::LaunchInfo rightOnlyTheFirstTime(const sort::SortArgs& a) {
  cub().launch(a);
  if (++plantedLaunches() > 1 && a.count >= 3)
    sort::swapElements(a.keysOut, a.valuesOut, a.count / 3, 2 * a.count / 3, a.stream);
  return {false, "test.sort_right_once"};
}

TEST_F(FreshInputs, ASortRightOnlyOnItsFirstLaunchFailsOnItsTimedOutput) {
  const KernelDescriptor k = sort::sortDescriptor("test.sort_right_once", "right once", false, "",
                                                  &rightOnlyTheFirstTime, &cubScratch);
  const kwb::KernelRegistry registry({sort::cubRadixSortRef(), k});
  for (const int sets : {1, 4})
    for (const char* text : {"1048577 u32 keys", "1048577 f32 pairs"}) {
      plantedLaunches() = 0;
      const kwb::CaseSize size = sizeOf("sort", text);
      const auto doc = run(registry, {{"cub.radix_sort", size}, {k.id, size}}, sets);
      ASSERT_EQ(doc.cases.size(), 2u);
      EXPECT_EQ(doc.cases[0].status, CaseStatus::kPass) << doc.cases[0].message;
      const kwb::CaseResult& c = doc.cases[1];
      const std::string name = std::string(text) + ", " + std::to_string(sets) + " sets";
      EXPECT_EQ(c.status, CaseStatus::kFail) << name;
      EXPECT_TRUE(has(c.message, "the last timed launch's output")) << name << ": " << c.message;
      ASSERT_TRUE(c.verification && c.verification->timedOutput) << name;
      EXPECT_TRUE(c.verification->compare.passed()) << name;  // the verification saw it right
      EXPECT_EQ(c.verification->timedOutput->mismatches, 2) << name;
      EXPECT_EQ(c.inputSets, sets) << name;
      EXPECT_GT(plantedLaunches(), 2) << name;
    }
}

// A reduction that computes its first input's sum (CUB's) and then copies that answer into
// every later output: right for one input, caught only when the inputs change.
struct ReplayCache {
  const KernelDescriptor* cub = nullptr;
  std::uint32_t* answer = nullptr;  // the first sum, on the device
  const void* firstInput = nullptr;
};
ReplayCache& replay() {
  static ReplayCache r;
  return r;
}
kwb::LaunchInfo replaysItsFirstSum(const kwb::VectorArgs& a) {
  ReplayCache& r = replay();
  if (!r.firstInput) r.firstInput = a.in;
  if (a.in == r.firstInput) {
    r.cub->launchVector(a);
    cudaMemcpyAsync(r.answer, a.out, 4, cudaMemcpyDeviceToDevice, a.stream);
  } else {
    cudaMemcpyAsync(a.out, r.answer, 4, cudaMemcpyDeviceToDevice, a.stream);
  }
  return {false, "test.reduce_replays_first"};
}

TEST_F(FreshInputs, AReductionReplayingItsFirstAnswerPassesOneSetAndFailsFour) {
  const kwb::cuda::DeviceBuffer<std::uint32_t> answer(1);
  replay().cub = &kwb::kernels::registry().find("cub.reduce_sum");
  replay().answer = answer.get();
  KernelDescriptor k = *replay().cub;
  k.id = "test.reduce_replays_first";
  k.family = "test";
  k.reference = false;
  k.launchVector = &replaysItsFirstSum;
  const kwb::KernelRegistry registry({*replay().cub, k});
  for (const int sets : {1, 4}) {
    replay().firstInput = nullptr;
    const kwb::CaseSize size = sizeOf("reduce", "2^20 i32");
    const auto doc = run(registry, {{"cub.reduce_sum", size}, {k.id, size}}, sets);
    ASSERT_EQ(doc.cases.size(), 2u);
    const kwb::CaseResult& c = doc.cases[1];
    ASSERT_TRUE(c.verification && c.verification->timedOutput) << sets << ": " << c.message;
    EXPECT_EQ(c.inputSets, sets);
    if (sets == 1) {
      EXPECT_EQ(c.status, CaseStatus::kPass) << c.message;  // one input: the replay is right
    } else {
      EXPECT_EQ(c.status, CaseStatus::kFail);
      EXPECT_TRUE(has(c.message, "the last timed launch's output")) << c.message;
      EXPECT_EQ(c.verification->timedOutput->mismatches, 1);
    }
  }
}

}  // namespace
