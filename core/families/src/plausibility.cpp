// SPDX-License-Identifier: Apache-2.0
#include "kwb/plausibility.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "kwb/format.h"

namespace kwb {
namespace {

// The compute roof of the case's precision, in GFLOP/s, and its name.
std::pair<double, std::string> computeRoof(const CaseResult& c, const DeviceInfo& d) {
  switch (c.precision) {
    case Precision::kFp16Fp32Acc:
      return {d.peakFp16TensorTflops * 1000.0, "FP16 tensor peak"};
    case Precision::kBf16Fp32Acc:
      return {peakBf16TensorTflops(d) * 1000.0, "BF16 tensor peak"};
    case Precision::kTf32:
      return {d.peakTf32TensorTflops * 1000.0, "TF32 tensor peak"};
    case Precision::kFp32:
      break;
  }
  return {d.peakFp32Tflops * 1000.0, "FP32 peak"};
}

std::string fourDigits(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

}  // namespace

TimeBound timeBound(const CaseResult& c, const Work& w, const DeviceInfo& d, bool coldL2) {
  TimeBound b;
  if (const auto [gflops, name] = computeRoof(c, d); gflops > 0 && w.flops > 0) {
    b.ms = w.flops / (gflops * 1e6);
    b.limit = name + " " + fixed(gflops / 1000.0, 1) + " TFLOP/s";
  }
  // Hot L2: as much as the L2 holds may be served from it on every launch.
  const double dramBytes = coldL2 ? w.bytes : std::max(0.0, w.bytes - double(d.l2Bytes));
  if (d.peakBandwidthGBs > 0 && dramBytes > 0) {
    const double ms = dramBytes / (d.peakBandwidthGBs * 1e6);
    if (ms > b.ms) {
      b.ms = ms;
      b.limit = "DRAM " + fixed(d.peakBandwidthGBs, 0) + " GB/s over " + mib(dramBytes) + " MiB" +
                (coldL2 ? "" : " beyond the L2");
    }
  }
  return b;
}

std::string implausibility(const CaseResult& c, const DeviceInfo& d) {
  const Family* f = tryFindFamily(c.problem());
  const double ms = c.summary.median;
  if (!f || !f->work || ms <= 0) return "";
  const TimeBound b = timeBound(c, f->work(c), d, c.coldL2);
  if (b.ms <= 0 || ms >= b.ms * (1.0 - kPlausibilityMargin)) return "";
  return "median " + fourDigits(ms) + " ms is " + fixed(100.0 * (1.0 - ms / b.ms), 1) +
         "% below the least time the declared work allows on this device (" + fourDigits(b.ms) +
         " ms, " + b.limit + "; margin " + fixed(100.0 * kPlausibilityMargin, 0) + "%)";
}

}  // namespace kwb
