// SPDX-License-Identifier: Apache-2.0
#pragma once
// Synthetic 1-D documents (reduce, scan) for the GUI's problem-family tests. SYNTHETIC TEST
// DATA: the figures are invented, plausible for an H100 (3.35 TB/s peak, a 3.01 TB/s copy);
// the device name says so. Real recordings go to resources/samples.
#include <string>
#include <vector>

#include "kwb/results.h"

namespace kwb::gui::test {

struct VectorKernel {
  const char* id;
  const char* name;
  int stage;       // 0: the CUB reference
  double peakGBs;  // at large counts
};

// "reduce" or "scan": its stages and CUB reference at 2^20, 2^24, 2^28 f32 and 1,000,003 and
// 2^28 i32. One case fails: the second stage at 1,000,003 i32, first wrong at `kFirstWrong`
// (0 for a reduce: its output is one element).
RunDocument vectorDocument(const std::string& problem);
inline constexpr std::int64_t kFirstWrong = 4096;
inline constexpr double kCopyGBs = 3010, kPeakGBs = 3350;
// The GB/s the document records for `kernel` at `count` elements of f32.
double recordedGBs(const RunDocument& doc, const std::string& kernel, std::int64_t count);
// `gemm` with the cases and kernels of `more` added: a document of several families.
RunDocument merged(RunDocument gemm, const RunDocument& more);

}  // namespace kwb::gui::test
