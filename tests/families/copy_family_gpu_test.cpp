// SPDX-License-Identifier: Apache-2.0
// The copy family end to end on a GPU: `kwb run` verifies it against its own reference and
// known answer, times it, derives its figures from its declared work; the document lists the
// family, exports and compares. Skips with the reason where there is no CUDA device.
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "kwb/results.h"
#include "run_process.h"

namespace {
const std::string kDoc = "/tmp/kwb_copy_family_run.json";
const std::string kCsv = "/tmp/kwb_copy_family_run.csv";
}  // namespace

TEST(CopyFamilyGpu, RunsExportsAndComparesThroughKwb) {
  const ProcessResult run =
      runKwb({"run", "--family", "copy", "--sizes", "2^20,1000003,0", "--types", "f32,i32",
              "--min-time", "0.05", "--max-time", "0.5", "--json", kDoc});
  if (run.exitCode == 3) GTEST_SKIP() << "no CUDA device: " << run.err;
  ASSERT_EQ(run.exitCode, 0) << run.out << run.err;
  const kwb::RunDocument doc = kwb::readDocument(kDoc);
  ASSERT_NE(doc.family("copy"), nullptr);
  EXPECT_EQ(doc.family("copy")->headline, kwb::Metric::kGbps);
  EXPECT_TRUE(doc.knownAnswer.passed) << doc.knownAnswer.detail;
  EXPECT_NE(doc.knownAnswer.detail.find("copy.ref copy of 1..1000"), std::string::npos)
      << doc.knownAnswer.detail;
  ASSERT_EQ(doc.cases.size(), 18u) << "3 counts x 2 types x 3 kernels";
  for (const auto& c : doc.cases) {
    SCOPED_TRACE(c.kernel + " " + kwb::sizeLabel(c.size));
    EXPECT_EQ(c.status, kwb::CaseStatus::kPass) << c.message;
    EXPECT_EQ(c.size.family, "copy");
    ASSERT_TRUE(c.verification);
    EXPECT_TRUE(c.verification->negativeControlRejected);
    if (c.size.number("count") == 0) continue;
    EXPECT_EQ(c.verification->compare.elements, c.size.number("count"));
    EXPECT_GT(c.figures.at("gbps"), 0.0);
    if (c.kernel != "copy.ref") {
      EXPECT_TRUE(c.figures.contains("pct_of_reference"));
    }
  }
  const ProcessResult csv = runKwb({"export", kDoc, "--csv", kCsv});
  ASSERT_EQ(csv.exitCode, 0) << csv.err;
  EXPECT_TRUE(contains(slurp(kCsv), "copy.vectorized")) << slurp(kCsv);
  const ProcessResult same = runKwb({"compare", kDoc, kDoc});
  EXPECT_EQ(same.exitCode, 0) << same.out << same.err;
  EXPECT_TRUE(contains(same.out, "copy.vectorized")) << same.out;
  EXPECT_TRUE(contains(same.out, "1000003 i32")) << same.out;
  EXPECT_TRUE(contains(same.out, "0 slower")) << same.out;
  std::remove(kDoc.c_str());
  std::remove(kCsv.c_str());
}
