// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "kwb/exporters.h"
#include "sample_document.h"

TEST(Exporters, CsvMatchesExpectedText) {
  auto doc = makeSampleDocument();
  doc.cases[1].message = "ran FP32 path, \"fallback\"";
  const std::string expected =
      "kernel,m,n,k,precision,status,ran_kernel,median_ms,min_ms,max_ms,cv,samples,gflops,"
      "pct_of_cublas_fp32,pct_of_cublas_fp16,max_abs_err,max_rel_err,mismatches,unwritten,"
      "negative_control,timer,cupti_median_ms,timer_vs_cupti_pct,throttled_samples,message\n"
      "sgemm.tiled,1024,1024,1024,fp32,fail,sgemm.tiled,1,0,0,0.0000,3,2147.5,12.5,,0,0,2,3,"
      "rejected,back-to-back,,,0,\n"
      "sgemm.tensor_core,17,19,23,fp16-fp32acc,fallback,sgemm.double_buffer,1,0,0,0.0000,3,2147.5,,"
      "40.0,,,,,,back-to-back,,,0,\"ran FP32 path, \"\"fallback\"\"\"\n";
  EXPECT_EQ(kwb::toCsv(doc), expected);
}

TEST(Exporters, ABf16StagesPercentOfCublasBf16IsExported) {
  auto doc = makeSampleDocument();
  EXPECT_EQ(kwb::toCsv(doc).find("pct_of_cublas_bf16"), std::string::npos)
      << "a document without BF16 stages keeps its columns";
  doc.cases[1].kernel = "sgemm.wgmma_bf16";
  doc.cases[1].precision = kwb::Precision::kBf16Fp32Acc;
  doc.cases[1].pctOfFp16Reference.reset();
  doc.cases[1].pctOfBf16Reference = 99.125;
  const std::string csv = kwb::toCsv(doc);
  const std::string header = csv.substr(0, csv.find('\n'));
  EXPECT_EQ(header.substr(header.rfind(',') + 1), "pct_of_cublas_bf16") << header;
  EXPECT_NE(csv.find(",99.1\n"), std::string::npos) << csv;
  const std::string md = kwb::toMarkdown(doc);
  EXPECT_NE(md.find("% cuBLAS FP16/BF16"), std::string::npos) << md;
  EXPECT_NE(md.find("| 99.1 |"), std::string::npos) << md;
}

TEST(Exporters, MarkdownMatchesExpectedText) {
  auto doc = makeSampleDocument();
  doc.cases.pop_back();
  const std::string expected =
      "# Kernel Workbench results\n\n"
      "**Device:** Test GPU (sm_90, 132 SMs, 1980 MHz)  \n"
      "**Recorded:** 2026-11-22T00:00:00Z on testhost, kwb 0.1.0 (abc123)  \n"
      "**Suite:** quick, seed 42, L2 hot  \n"
      "**Timer:** GPU time, back-to-back\n\n"
      "Known-answer test: PASS — cublas.sgemm vs cpu.fp64\n\n"
      "| kernel | shape | status | median ms | min ms | max ms | CV | GFLOP/s | % cuBLAS FP32 | "
      "% cuBLAS FP16 | max rel err | mismatches | unwritten |\n"
      "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
      "| sgemm.tiled | 1024x1024x1024 | **fail** | 1.0000 | 0.0000 | 0.0000 | 0.0% | 2147.5 | 12.5 "
      "|  "
      "| 0.00e+00 | 2 | 3 |\n"
      "\nProgression (GFLOP/s must not drop from one stage to the next): 1 violation(s)\n\n"
      "- 512x512x512: sgemm.bank_free 850.0 GFLOP/s < sgemm.tiled 900.0 GFLOP/s\n";
  EXPECT_EQ(kwb::toMarkdown(doc), expected);
}

TEST(Exporters, MarkdownSaysWhenAViolationIsWithinNoise) {
  auto doc = makeSampleDocument();
  doc.progression.violations[0].withinNoise = true;
  EXPECT_NE(kwb::toMarkdown(doc).find("sgemm.bank_free 850.0 GFLOP/s < sgemm.tiled 900.0 GFLOP/s "
                                      "(within noise: the medians' 95% CIs overlap)"),
            std::string::npos);
}
