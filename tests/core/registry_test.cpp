// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "kwb/error.h"
#include "kwb/kernel_descriptor.h"

namespace {
kwb::KernelRegistry makeRegistry() {
  std::vector<kwb::KernelDescriptor> v(3);
  v[0].id = "sgemm.naive";
  v[0].stage = 1;
  v[1].id = "sgemm.tiled";
  v[1].stage = 2;
  v[2].id = "cublas.sgemm";
  v[2].reference = true;
  return kwb::KernelRegistry(v);
}
}  // namespace

TEST(Registry, FindsKnownId) { EXPECT_EQ(makeRegistry().find("sgemm.tiled").stage, 2); }

TEST(Registry, UnknownIdListsKnownIds) {
  const auto r = makeRegistry();
  try {
    r.find("sgemm.fast");
    FAIL();
  } catch (const kwb::InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("'sgemm.fast'"), std::string::npos) << m;
    EXPECT_NE(m.find("sgemm.naive, sgemm.tiled, cublas.sgemm"), std::string::npos) << m;
  }
}

TEST(Registry, SelectGroupsAndLists) {
  const auto r = makeRegistry();
  EXPECT_EQ(r.select("all").size(), 3u);
  EXPECT_EQ(r.select("stages").size(), 2u);
  ASSERT_EQ(r.select("references").size(), 1u);
  const auto sel = r.select("cublas.sgemm,sgemm.naive,sgemm.naive");
  ASSERT_EQ(sel.size(), 2u);
  EXPECT_EQ(sel[0]->id, "cublas.sgemm");
  EXPECT_THROW(r.select("sgemm.naive,nope"), kwb::InputError);
  EXPECT_THROW(r.select("sgemm.naive,"), kwb::InputError);
}

TEST(Registry, DuplicateIdIsRefused) {
  std::vector<kwb::KernelDescriptor> v(2);
  v[0].id = v[1].id = "sgemm.naive";
  EXPECT_THROW(kwb::KernelRegistry{v}, std::logic_error);
}

TEST(Registry, SpecTolerancesByPrecision) {
  kwb::KernelDescriptor k;
  EXPECT_EQ(k.rtol(), 1e-3);
  EXPECT_EQ(k.atol(), 1e-4);
  k.precision = kwb::Precision::kFp16Fp32Acc;
  EXPECT_EQ(k.rtol(), 5e-2);
  EXPECT_EQ(k.atol(), 1e-2);
}
