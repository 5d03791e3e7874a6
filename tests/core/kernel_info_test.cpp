// SPDX-License-Identifier: Apache-2.0
// A results document names its kernels: a kernel no reader has ever seen keeps its name and
// stage, and a document written before the list gets its entries from the compatibility table.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "kwb/error.h"
#include "kwb/results_json.h"
#include "kwb/events.h"
#include "kwb/kernel_info.h"
#include "kwb/results.h"
#include "sample_document.h"

namespace {

kwb::KernelInfo futureStage() {
  return {"sgemm.future_stage",
          "Future stage",
          "sgemm",
          10,
          "fp32",
          false,
          "a stage added after this reader was built",
          true,
          "gemm",
          {{.why = "small shapes", .maxFlops = 1e9},
           {.why = "unaligned", .unalignedOnly = true},
           {.why = "short", .maxCount = 4096}}};
}

kwb::RunDocument documentWithFutureStage() {
  kwb::RunDocument d = makeSampleDocument();
  d.cases.front().kernel = "sgemm.future_stage";
  d.kernels = {futureStage()};
  kwb::listMissingKernels(d);
  return d;
}

TEST(KernelInfo, UnknownKernelKeepsItsNameAndStageThroughTheDocument) {
  const kwb::RunDocument back =
      kwb::parseDocument(kwb::toJsonText(documentWithFutureStage()), "future.json");
  const kwb::KernelInfo* k = back.kernelInfo("sgemm.future_stage");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(*k, futureStage());
  EXPECT_EQ(k->name, "Future stage");
  EXPECT_EQ(k->stage, 10);
  EXPECT_EQ(back.kernels, documentWithFutureStage().kernels);
}

// A violation's explanation is written and read back; a document without one reads as none.
TEST(KernelInfo, ProgressionExplanationsSurviveTheDocument) {
  kwb::RunDocument d = documentWithFutureStage();
  d.progression.checked = true;
  d.progression.violations = {
      {{512, 512, 512},
       "sgemm.tiled",
       "sgemm.future_stage",
       2.0,
       1.0,
       false,
       "512x512x512",
       "small shapes"},
      {{1024, 1024, 1024}, "sgemm.tiled", "sgemm.future_stage", 2.0, 1.0, true, "1024x1024x1024"}};
  const std::string text = kwb::toJsonText(d);
  const kwb::RunDocument back = kwb::parseDocument(text, "explained.json");
  ASSERT_EQ(back.progression.violations.size(), 2u);
  EXPECT_EQ(back.progression.violations[0].explanation, "small shapes");
  EXPECT_EQ(back.progression.violations[1].explanation, "");
  EXPECT_EQ(text.find("\"explanation\": \"\""), std::string::npos);  // absent when empty
}

TEST(KernelInfo, UnknownKernelKeepsItsNameThroughTheEventStream) {
  const kwb::RunDocument doc = documentWithFutureStage();
  kwb::DocumentBuilder b;
  int line = 0;
  for (const auto& e : sampleEvents(doc))
    b.apply(kwb::parseEventLine(kwb::toJsonLine(e), "<test>", ++line));
  const kwb::KernelInfo* k = b.document().kernelInfo("sgemm.future_stage");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->name, "Future stage");
  EXPECT_EQ(k->stage, 10);
}

nlohmann::json withoutKernels(const kwb::RunDocument& d) {
  nlohmann::json j = nlohmann::json::parse(kwb::toJsonText(d));
  j.erase("kernels");
  return j;
}

TEST(KernelInfo, OldDocumentGetsTheCompatibilityEntries) {
  kwb::RunDocument d = makeSampleDocument();  // sgemm.tiled and sgemm.tensor_core
  const kwb::RunDocument back = kwb::parseDocument(withoutKernels(d).dump(), "old.json");
  ASSERT_EQ(back.kernels.size(), 2u);
  const kwb::KernelInfo* tiled = back.kernelInfo("sgemm.tiled");
  ASSERT_NE(tiled, nullptr);
  EXPECT_EQ(tiled->name, "Shared-memory tiled");
  EXPECT_EQ(tiled->stage, 2);
  EXPECT_FALSE(tiled->reference);
  const kwb::KernelInfo* tc = back.kernelInfo("sgemm.tensor_core");
  ASSERT_NE(tc, nullptr);
  EXPECT_EQ(tc->stage, 5);
  EXPECT_EQ(tc->precision, "fp16-fp32acc");
}

TEST(KernelInfo, OldDocumentWithAnUnknownIdGetsADerivedEntry) {
  kwb::RunDocument d = makeSampleDocument();
  d.cases.front().kernel = "hgemm.someday";
  d.cases.front().precision = kwb::Precision::kTf32;
  d.kernels.clear();
  const kwb::RunDocument back = kwb::parseDocument(withoutKernels(d).dump(), "old.json");
  const kwb::KernelInfo* k = back.kernelInfo("hgemm.someday");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->name, "hgemm.someday");
  EXPECT_EQ(k->family, "hgemm");
  EXPECT_EQ(k->stage, 0);
  EXPECT_EQ(k->precision, "tf32");
}

TEST(KernelInfo, ReferencesAndTuningConfigurationsFromTheTable) {
  const kwb::KernelInfo ref = kwb::legacyKernelInfo("cublas.tf32");
  EXPECT_TRUE(ref.reference);
  EXPECT_EQ(ref.family, "cublas");
  const kwb::KernelInfo cfg = kwb::legacyKernelInfo("sgemm.warp_tiled[128x128x16]");
  EXPECT_EQ(cfg.id, "sgemm.warp_tiled[128x128x16]");
  EXPECT_EQ(cfg.stage, 7);
  EXPECT_TRUE(cfg.tunable);
  EXPECT_EQ(kwb::baseKernelId("sgemm.warp_tiled[a]"), "sgemm.warp_tiled");
  EXPECT_EQ(kwb::baseKernelId("sgemm.naive"), "sgemm.naive");
}

TEST(KernelInfo, KernelListParsesAndRefusesMalformedText) {
  const auto list = kwb::parseKernelList(
      R"([{"id":"sgemm.naive","name":"Naive","family":"sgemm","stage":1,"precision":"fp32",)"
      R"("reference":false,"description":"d","tunable":false,"alignment":1}])",
      "kwb list");
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0].name, "Naive");
  EXPECT_EQ(list[0].stage, 1);
  EXPECT_THROW(kwb::parseKernelList("{}", "kwb list"), kwb::InputError);
  EXPECT_THROW(kwb::parseKernelList(R"([{"name":"x"}])", "kwb list"), kwb::InputError);
  EXPECT_THROW(kwb::parseKernelList(R"([{"id":"x","stage":1.5}])", "kwb list"), kwb::InputError);
}

}  // namespace
