// SPDX-License-Identifier: Apache-2.0
// The copy family through kwb's commands, without a GPU: it is listed with its family, and its
// sizes follow the rules its declaration gives.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "run_process.h"

TEST(CopyFamilyCli, ItsKernelsAreListedUnderItsFamily) {
  const ProcessResult r = runKwb({"list", "--json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto list = nlohmann::json::parse(r.out);
  int copies = 0;
  for (const auto& k : list)
    if (k.at("problem") == "copy") {
      ++copies;
      if (k.at("id") == "copy.vectorized") {
        EXPECT_EQ(k.at("stage"), 2);
      }
      if (k.at("id") == "copy.ref") {
        EXPECT_TRUE(k.at("reference").get<bool>());
      }
    }
  EXPECT_EQ(copies, 3) << r.out;
  EXPECT_TRUE(contains(r.out, "sgemm.naive")) << "the build's own kernels stay";
}

TEST(CopyFamilyCli, ItsSizesAreCheckedByName) {
  const ProcessResult shapes = runKwb({"run", "--family", "copy", "--shapes", "512"});
  EXPECT_EQ(shapes.exitCode, 2);
  EXPECT_TRUE(
      contains(shapes.err, "--shapes is for the gemm family; the copy family takes --sizes"))
      << shapes.err;
  const ProcessResult type =
      runKwb({"run", "--family", "copy", "--sizes", "2^20", "--types", "f64"});
  EXPECT_EQ(type.exitCode, 2);
  EXPECT_TRUE(contains(type.err, "f64")) << type.err;
  const ProcessResult other =
      runKwb({"run", "--family", "copy", "--kernels", "reduce.atomic", "--sizes", "2^20"});
  EXPECT_EQ(other.exitCode, 2);
  EXPECT_TRUE(contains(other.err, "reduce.atomic is of the reduce family, not copy")) << other.err;
}
