// SPDX-License-Identifier: Apache-2.0
// `kwb run/verify --family ... --sizes ...` and `kwb list` by family: the command line's side of
// the problem families (docs/FAMILIES.md). Bad input exits 2 naming it, before any device work.
#include <gtest/gtest.h>

#include <string>

#include "kwb/exit_codes.h"
#include "run_process.h"

TEST(FamilyCli, UnknownFamilyExits2NamingIt) {
  for (const char* cmd : {"run", "verify"}) {
    const auto r = runKwb({cmd, "--family", "softmax", "--sizes", "2^20"});
    EXPECT_EQ(r.exitCode, kwb::kExitBadInput) << cmd;
    EXPECT_TRUE(contains(r.err, "unknown family 'softmax'")) << r.err;
    EXPECT_TRUE(contains(r.err, "reduce")) << r.err;  // lists the known ones
  }
}

TEST(FamilyCli, BadSizesExit2NamingTheSize) {
  for (const char* bad : {"2^", "-1", "1e99", "2^40", "x"}) {
    const auto r = runKwb({"run", "--family", "reduce", "--sizes", std::string("2^20,") + bad});
    EXPECT_EQ(r.exitCode, kwb::kExitBadInput) << bad;
    const std::string quoted = std::string(1, '\'').append(bad).append(1, '\'');
    EXPECT_TRUE(contains(r.err, quoted)) << bad << ": " << r.err;
  }
  const auto big = runKwb({"run", "--family", "scan", "--sizes", "2^40"});
  EXPECT_TRUE(contains(big.err, "too large for memory")) << big.err;
}

TEST(FamilyCli, ShapesAndSizesBelongToTheirFamilies) {
  const auto a = runKwb({"run", "--family", "reduce", "--shapes", "64"});
  EXPECT_EQ(a.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(a.err, "--sizes")) << a.err;
  const auto b = runKwb({"run", "--family", "gemm", "--sizes", "2^20"});
  EXPECT_EQ(b.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(b.err, "--shapes")) << b.err;
  const auto c = runKwb({"run", "--suite", "spec-benchmark", "--family", "scan"});
  EXPECT_EQ(c.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(c.err, "gemm family, not scan")) << c.err;
  const auto d = runKwb({"run", "--family", "reduce", "--sizes", "1", "--types", "f64"});
  EXPECT_EQ(d.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(d.err, "'f64'")) << d.err;
  const auto e = runKwb({"run", "--family", "reduce", "--sizes", "1", "--kernels", "sgemm.naive"});
  EXPECT_EQ(e.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(e.err, "sgemm.naive is of the gemm family")) << e.err;
}

TEST(FamilyCli, BadAxesExit2NamingTheAxisOrTheValue) {
  const auto name = runKwb({"run", "--family", "reduce", "--sizes", "2^20", "--axis", "bins=256"});
  EXPECT_EQ(name.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(
      contains(name.err, "unknown axis 'bins' for the reduce family (its axes: count, type)"))
      << name.err;
  const auto value = runKwb({"verify", "--family", "scan", "--sizes", "1", "--axis", "type=f64"});
  EXPECT_EQ(value.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(value.err, "'f64'")) << value.err;
  const auto twice = runKwb({"run", "--family", "scan", "--sizes", "1 i32", "--axis", "type=f32"});
  EXPECT_EQ(twice.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(twice.err, "size '1 i32' names its type")) << twice.err;
  const auto form = runKwb({"run", "--family", "scan", "--sizes", "1", "--axis", "type"});
  EXPECT_EQ(form.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(form.err, "expected NAME=V1,V2")) << form.err;
}

TEST(FamilyCli, ListGroupsByFamily) {
  const auto r = runKwb({"list"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "family gemm: Matrix multiply")) << r.out;
  EXPECT_TRUE(contains(r.out, "sgemm.naive")) << r.out;
  const auto j = runKwb({"list", "--json"});
  EXPECT_TRUE(contains(j.out, "\"problem\": \"gemm\"")) << j.out;
}
