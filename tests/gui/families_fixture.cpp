// SPDX-License-Identifier: Apache-2.0
#include "families_fixture.h"

#include <algorithm>
#include <cmath>

namespace kwb::gui::test {
namespace {

const VectorKernel kReduce[] = {
    {"reduce.atomic", "Global atomics", 1, 180},
    {"reduce.shared_tree", "Shared-memory tree", 2, 1400},
    {"reduce.warp_shuffle", "Warp shuffle", 3, 2400},
    {"reduce.vectorized", "Vectorised grid-stride", 4, 3120},
    {"reduce.cub_block", "cub::BlockReduce persistent", 5, 3060},
    {"cub.reduce_sum", "CUB DeviceReduce::Sum", 0, 3080},
};
const VectorKernel kScan[] = {
    {"scan.hillis_steele", "Hillis-Steele", 1, 700},
    {"scan.blelloch", "Blelloch", 2, 1100},
    {"scan.reduce_then_scan", "Reduce-then-scan", 3, 1900},
    {"scan.decoupled_lookback", "Decoupled look-back", 4, 2350},
    {"cub.inclusive_sum", "CUB DeviceScan::InclusiveSum", 0, 2460},
};

struct Size {
  std::int64_t count;
  const char* type;
};
const Size kSizes[] = {
    {1 << 20, "f32"}, {1 << 24, "f32"}, {1 << 28, "f32"}, {1000003, "i32"}, {1 << 28, "i32"}};

DeviceInfo h100() {
  DeviceInfo d;
  d.name = "NVIDIA H100 80GB HBM3 (synthetic fixture)";
  d.ccMajor = 9;
  d.smCount = 132;
  d.smClockMhz = 1980;
  d.peakFp32Tflops = 66.9;
  d.peakTf32TensorTflops = 494.7;
  d.peakFp16TensorTflops = 989.4;
  d.peakBandwidthGBs = kPeakGBs;
  d.copyBandwidthGBs = kCopyGBs;
  return d;
}

// Small counts do not fill the GPU: the rate climbs towards the kernel's peak.
double gbsAt(const VectorKernel& k, std::int64_t count) {
  return k.peakGBs * double(count) / (double(count) + double(1 << 21));
}

}  // namespace

RunDocument vectorDocument(const std::string& problem) {
  const bool reduce = problem == "reduce";
  const auto* begin = reduce ? std::begin(kReduce) : std::begin(kScan);
  const auto* end = reduce ? std::end(kReduce) : std::end(kScan);
  RunDocument doc;
  doc.toolVersion = "synthetic";
  doc.timestamp = "2026-11-24T19:00:00Z";
  doc.device = h100();
  doc.settings.suite = problem + "-benchmark";
  const double bytesPerElement = reduce ? 4 : 8;  // reduce reads; scan reads and writes
  const double intensity = 1 / bytesPerElement;   // one add per element
  for (const auto* k = begin; k != end; ++k) {
    KernelInfo info;
    info.id = k->id;
    info.name = k->name;
    info.family = k->stage ? problem : "cub";
    info.stage = k->stage;
    info.precision = "fp32";
    info.reference = k->stage == 0;
    info.description = std::string("synthetic ") + k->name;
    info.problem = problem;
    doc.kernels.push_back(info);
  }
  const VectorKernel& ref = *(end - 1);
  for (const Size& s : kSizes)
    for (const auto* k = begin; k != end; ++k) {
      CaseResult c;
      c.kernel = k->id;
      c.size = vectorSize(problem, s.count, s.type);
      c.status = CaseStatus::kPass;
      const double gbs = gbsAt(*k, s.count);
      const double bytes = bytesPerElement * double(s.count);
      const double ms = bytes / (gbs * 1e9) * 1e3;
      for (int i = 0; i < 12; ++i) c.samplesMs.push_back(ms * (1 + 0.002 * (i % 5 - 2)));
      c.summary.count = c.samplesMs.size();
      c.summary.median = c.summary.mean = ms;
      c.summary.min = c.summary.p5 = ms * 0.996;
      c.summary.max = c.summary.p95 = ms * 1.004;
      c.summary.p25 = ms * 0.998;
      c.summary.p75 = ms * 1.002;
      c.summary.cv = 0.003;
      c.summary.ci95 = {ms * 0.995, ms * 1.005};
      c.launchesPerSample = 10;
      c.bandwidthGBs = gbs;
      c.arithmeticIntensity = intensity;
      c.gflops = gbs * intensity;
      c.figures = {{"gbps", gbs},
                   {"gflops", gbs * intensity},
                   {"pct_of_reference", 100 * gbs / gbsAt(ref, s.count)},
                   {"pct_of_peak", 100 * gbs / kPeakGBs},
                   {"pct_of_roof", 100 * gbs / kCopyGBs}};
      Verification v;
      v.reference = "cpu.fp64";
      v.seed = 42;
      v.compare.elements = reduce ? 1 : s.count;
      v.compare.maxAbsError = std::string(s.type) == "i32" ? 0 : 1e-3;
      v.negativeControlRejected = true;
      if (k->stage == 2 && s.count == 1000003) {
        c.status = CaseStatus::kFail;
        c.samplesMs.clear();
        c.figures.clear();
        const std::int64_t first = reduce ? 0 : kFirstWrong;
        v.compare.mismatches = reduce ? 1 : s.count - kFirstWrong;
        v.compare.maxAbsError = 4096;
        v.compare.firstMismatchIndex = first;
        v.compare.firstMismatch = Mismatch{0, first, 8192, 4096};
        c.message = "synthetic: the block carry is lost past the first block";
      }
      c.verification = v;
      doc.cases.push_back(c);
    }
  return doc;
}

double recordedGBs(const RunDocument& doc, const std::string& kernel, std::int64_t count) {
  for (const auto& c : doc.cases)
    if (c.kernel == kernel && c.size.number("count") == count && c.size.word("type") == "f32")
      return c.figures.at("gbps");
  return 0;
}

RunDocument merged(RunDocument gemm, const RunDocument& more) {
  for (const auto& k : more.kernels) gemm.kernels.push_back(k);
  for (const auto& c : more.cases) gemm.cases.push_back(c);
  gemm.progression = {};
  if (gemm.device && more.device) gemm.device->copyBandwidthGBs = more.device->copyBandwidthGBs;
  return gemm;
}

}  // namespace kwb::gui::test
