// SPDX-License-Identifier: Apache-2.0
// The radix sort family (kernels/sort/, docs/FAMILIES.md "Sort"):
// - its declaration: sizes parse and write as "2^28 u32 keys", CUB's f32 order on the host
//   (these run without a GPU);
// - every registered sort kernel, parameterised over the registry so a new stage is covered the
//   day it is registered, through the family's driver at counts 0, 1, 31, 2^20 + 1 and 2^28 in
//   both key types and both payloads: exact against cub::DeviceRadixSort, canary, negative
//   control; its known answers; a second verification on the same buffers;
// - planted faults the verification must catch: a sort that swaps two outputs, one that leaves
//   an element unwritten.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>

#include "gpu_fixture.h"
#include "kwb/cuda/family_driver.h"
#include "kwb/cuda/stream.h"
#include "kwb/error.h"
#include "kwb/family.h"
#include "registry.h"
#include "sgemm_support.h"
#include "sort/sort_args.h"
#include "sort/sort_data.h"
#include "sort/sort_descriptors.h"

namespace {

using kwb::CaseSize;
using kwb::CaseStatus;
using kwb::KernelDescriptor;
namespace sort = kwb::kernels::sort;

kwb::cuda::FamilyDriver& sortDriver() {
  kwb::kernels::registry();  // registers the families
  return kwb::cuda::familyDriver("sort");
}

bool isSort(const KernelDescriptor& k) { return k.problem == "sort"; }

TEST(SortFamily, SizesParseAndWriteWithTheirAxes) {
  const kwb::Family& f = sortDriver().family();
  const CaseSize s = kwb::parseSize(f, "2^28 u32 keys");
  EXPECT_EQ(s.number("count"), std::int64_t{1} << 28);
  EXPECT_EQ(s.word("type"), "u32");
  EXPECT_EQ(s.word("payload"), "keys");
  EXPECT_EQ(kwb::sizeText(s), "2^28 u32 keys");
  const CaseSize d = kwb::parseSize(f, "31");  // the first word of each axis is its default
  EXPECT_EQ(kwb::sizeText(d), "31 u32 keys");
  EXPECT_EQ(kwb::sizeText(kwb::parseSize(f, "1000003 pairs f32")), "1000003 f32 pairs");
  EXPECT_THROW(kwb::parseSize(f, "2^20 i32"), kwb::InputError);
  EXPECT_THROW(kwb::parseSize(f, "2^31 u32"), kwb::InputError);
  EXPECT_EQ(f.reference, "cub.radix_sort");
  EXPECT_TRUE(f.memoryBound());
}

TEST(SortFamily, WorkIsEachKeyAndValueReadAndWrittenOnce) {
  const kwb::Family& f = sortDriver().family();
  kwb::CaseResult c;
  c.size = kwb::parseSize(f, "2^20 f32 pairs");
  EXPECT_EQ(f.work(c).bytes, 16.0 * (1 << 20));
  c.size = kwb::parseSize(f, "2^20 u32 keys");
  EXPECT_EQ(f.work(c).bytes, 8.0 * (1 << 20));
  EXPECT_EQ(f.work(c).flops, double(1 << 20));
}

TEST(SortFamily, FloatKeysFollowCubsOrder) {
  const auto o = [](std::uint32_t bits) { return sort::orderedKey(bits, sort::KeyType::kF32); };
  // -NaN < -inf < -1 < -0 = +0 < 1 < +inf < +NaN
  EXPECT_LT(o(0xffc00000u), o(0xff800000u));
  EXPECT_LT(o(0xff800000u), o(0xbf800000u));
  EXPECT_LT(o(0xbf800000u), o(0x80000000u));
  EXPECT_EQ(o(0x80000000u), o(0x00000000u));
  EXPECT_LT(o(0x00000000u), o(0x3f800000u));
  EXPECT_LT(o(0x3f800000u), o(0x7f800000u));
  EXPECT_LT(o(0x7f800000u), o(0x7fc00000u));
  EXPECT_LT(o(0x00000001u), o(0x00000002u));  // subnormals in order
  EXPECT_EQ(sort::orderedKey(0xffffffffu, sort::KeyType::kU32), 0xffffffffu);
}

class SortKernel : public GpuTest, public testing::WithParamInterface<std::string> {
 protected:
  const KernelDescriptor& kernel() const { return kwb::kernels::registry().find(GetParam()); }
  void SetUp() override {
    GpuTest::SetUp();
    if (!IsSkipped()) m_stream.emplace();
  }
  kwb::cuda::DriverContext context(std::uint64_t seed) const {
    kwb::cuda::DriverContext ctx;
    ctx.stream = m_stream->get();
    ctx.seed = seed;
    return ctx;
  }

 private:
  std::optional<kwb::cuda::Stream> m_stream;
};

TEST_P(SortKernel, MatchesCubExactlyAtEveryBoundaryTypeAndPayload) {
  kwb::cuda::FamilyDriver& d = sortDriver();
  for (const char* count : {"0", "1", "31", "1048577", "2^28"})
    for (const char* type : {"u32", "f32"})
      for (const char* payload : {"keys", "pairs"}) {
        const std::string text = std::string(count) + " " + type + " " + payload;
        auto c = d.prepare(kernel(), kwb::parseSize(d.family(), text), context(0x5EED));
        const kwb::CaseResult r = c->verify(kernel());
        EXPECT_EQ(r.status, CaseStatus::kPass) << kernel().id << " " << text << ": " << r.message;
        ASSERT_TRUE(r.verification);
        EXPECT_EQ(r.verification->unwritten, 0) << text;
        EXPECT_TRUE(r.verification->negativeControlRejected) << text;
        EXPECT_EQ(r.verification->reference, "cub.radix_sort");
      }
}

TEST_P(SortKernel, ASecondVerificationOnTheSameBuffersAgrees) {
  kwb::cuda::FamilyDriver& d = sortDriver();
  auto c = d.prepare(kernel(), kwb::parseSize(d.family(), "1000003 f32 pairs"), context(7));
  const auto first = c->verify(kernel());
  c->timedLaunch(kernel())();  // a timed launch in between: statuses reset by the launch
  const auto second = c->verify(kernel());
  EXPECT_EQ(first.status, CaseStatus::kPass) << first.message;
  EXPECT_EQ(second.status, CaseStatus::kPass) << second.message;
}

TEST_P(SortKernel, PassesTheKnownAnswers) {
  const kwb::KnownAnswer ka = sortDriver().knownAnswer(kernel(), context(0));
  EXPECT_TRUE(ka.ran);
  EXPECT_TRUE(ka.passed) << ka.detail;
}

INSTANTIATE_TEST_SUITE_P(Registry, SortKernel, testing::ValuesIn(kwb::test::kernelIds(isSort)),
                         kwb::test::paramName);

// Planted faults: CUB's sort, then damage. The verification must call each a failure.
const sort::SortLauncher& cub() {
  static const KernelDescriptor k = sort::cubRadixSortRef();
  return *std::any_cast<sort::SortLauncher>(&k.launcher);
}
kwb::LaunchInfo swapsTwo(const sort::SortArgs& a) {
  cub().launch(a);
  if (a.count >= 3)
    sort::swapElements(a.keysOut, a.valuesOut, a.count / 3, 2 * a.count / 3, a.stream);
  return {false, "test.sort_swaps_two"};
}
kwb::LaunchInfo skipsTheLast(const sort::SortArgs& a) {
  sort::SortArgs b = a;
  b.count = a.count - 1;  // sorts all but the last input and never writes the last output
  cub().launch(b);
  return {false, "test.sort_skips_last"};
}
std::size_t cubScratch(std::int64_t n, sort::KeyType t, bool pairs) {
  return cub().scratchBytes(n, t, pairs);
}

class SortPlantedFault : public GpuTest {};

TEST_F(SortPlantedFault, ASortThatSwapsTwoOutputsFails) {
  kwb::cuda::Stream stream;
  kwb::cuda::DriverContext ctx;
  ctx.stream = stream.get();
  ctx.seed = 11;
  const KernelDescriptor k =
      sort::sortDescriptor("test.sort_swaps_two", "swaps two", false, "", &swapsTwo, &cubScratch);
  kwb::cuda::FamilyDriver& d = sortDriver();
  for (const char* text : {"1048577 u32 keys", "1048577 f32 pairs"}) {
    auto c = d.prepare(k, kwb::parseSize(d.family(), text), ctx);
    const kwb::CaseResult r = c->verify(k);
    EXPECT_EQ(r.status, CaseStatus::kFail) << text;
    ASSERT_TRUE(r.verification);
    EXPECT_EQ(r.verification->compare.mismatches, 2) << text;
    EXPECT_NE(r.message.find("out of CUB's order"), std::string::npos) << r.message;
  }
}

TEST_F(SortPlantedFault, ASortThatLeavesAnElementUnwrittenFails) {
  kwb::cuda::Stream stream;
  kwb::cuda::DriverContext ctx;
  ctx.stream = stream.get();
  ctx.seed = 12;
  const KernelDescriptor k = sort::sortDescriptor("test.sort_skips_last", "skips the last", false,
                                                  "", &skipsTheLast, &cubScratch);
  kwb::cuda::FamilyDriver& d = sortDriver();
  auto c = d.prepare(k, kwb::parseSize(d.family(), "4097 u32 pairs"), ctx);
  const kwb::CaseResult r = c->verify(k);
  EXPECT_EQ(r.status, CaseStatus::kFail);
  ASSERT_TRUE(r.verification);
  EXPECT_EQ(r.verification->unwritten, 1);
}

TEST_F(SortPlantedFault, AKernelWithAnotherFamilysLauncherIsRefusedByName) {
  kwb::cuda::Stream stream;
  kwb::cuda::DriverContext ctx;
  ctx.stream = stream.get();
  const KernelDescriptor& reduce = kwb::kernels::registry().find("cub.reduce_sum");
  kwb::cuda::FamilyDriver& d = sortDriver();
  try {
    d.prepare(reduce, kwb::parseSize(d.family(), "31 u32 keys"), ctx);
    FAIL() << "no error";
  } catch (const kwb::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cub.reduce_sum"), std::string::npos) << e.what();
  }
}

}  // namespace
