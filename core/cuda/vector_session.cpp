// SPDX-License-Identifier: Apache-2.0
#include "kwb/cuda/vector_session.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <vector>

#include "kwb/cuda/check.h"
#include "kwb/cuda/input_sets.h"
#include "kwb/cuda/verdict.h"
#include "kwb/error.h"
#include "kwb/format.h"
#include "kwb/seeded.h"

namespace kwb::cuda {
namespace {

constexpr double kHeadroomBytes = 64.0 * (1 << 20);  // CUDA context and launcher growth
constexpr std::int64_t kNegativeControlElements = std::int64_t{1} << 20;

// One element against its reference: int32 exact (modulo 2^32), float within `tol`.
struct ElementRule {
  bool isInt = false;
  Tolerance tol;
  bool matches(std::uint32_t gotBits, double expected) const {
    if (isInt) return gotBits == std::uint32_t(std::int64_t(expected));
    const double got = value(gotBits);
    if (!std::isfinite(got) || !std::isfinite(expected)) return false;
    return std::abs(got - expected) <= tol.atol + tol.rtol * std::abs(expected);
  }
  double value(std::uint32_t bits) const {
    return vectorValue(bits, isInt ? ElementType::kInt32 : ElementType::kFloat32);
  }
  // The negative control's damage, far beyond the tolerance.
  double mangled(double v) const { return isInt ? v + 1 : v + 1 + std::abs(v) + 4 * tol.atol; }
  std::uint32_t bitsOf(double v) const {
    if (isInt) return std::uint32_t(std::int64_t(v));
    const float f = float(v);
    std::uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
  }
};

// Accumulates the comparison element by element, in index order.
struct Accumulator {
  CompareReport r;
  std::int64_t unwritten = 0;
  void add(const ElementRule& rule, std::int64_t i, std::uint32_t gotBits, double expected) {
    ++r.elements;
    if (rule.matches(gotBits, expected)) {
      const double got = rule.value(gotBits);
      const double err = std::abs(got - expected);
      r.maxAbsError = std::max(r.maxAbsError, err);
      if (expected != 0) r.maxRelError = std::max(r.maxRelError, err / std::abs(expected));
      return;
    }
    ++r.mismatches;
    if (gotBits == kCanaryBits) ++unwritten;
    const double got = rule.value(gotBits);
    if (!rule.isInt && !std::isfinite(got)) ++r.nonFinite;
    if (r.firstMismatches.size() < kReportedMismatches)
      r.firstMismatches.push_back({0, i, got, expected});
    if (!r.firstMismatchIndex) {
      r.firstMismatchIndex = i;
      r.firstMismatch = Mismatch{0, i, got, expected};
    }
  }
};

void setGrid(CompareReport& r, std::int64_t extent, const std::vector<std::int64_t>& indices) {
  r.grid.rows = extent > 0 ? 1 : 0;
  r.grid.cols = extent > 0 ? int(std::min<std::int64_t>(kErrorGridCells, extent)) : 0;
  r.grid.maxAbs.assign(std::size_t(r.grid.cols), 0.0);
  r.grid.mismatches.assign(std::size_t(r.grid.cols), 0);
  for (const std::int64_t i : indices) {
    const auto cell = std::size_t(ErrorGrid::cellOf(i, extent, r.grid.cols));
    ++r.grid.mismatches[cell];
  }
}

void copyBack(std::vector<std::uint32_t>& host, const std::uint32_t* dev, std::int64_t n) {
  host.resize(std::size_t(n));
  if (n > 0)
    KWB_CUDA_CHECK(cudaMemcpy(host.data(), dev, std::size_t(n) * 4, cudaMemcpyDeviceToHost));
}

// Negative control: the comparator must reject a mangled copy of the reference (every 7th
// element and the last damaged). Vacuous for an empty output.
bool negativeControlRejected(const ElementRule& rule, const std::vector<double>& expected) {
  bool rejected = expected.empty();
  for (std::size_t i = 0; i < expected.size() && !rejected; ++i)
    if (i % 7 == 0 || i + 1 == expected.size())
      rejected = !rule.matches(rule.bitsOf(rule.mangled(expected[i])), expected[i]);
  return rejected;
}

// The case's record before verification: kernel, family, size and precision.
CaseResult vectorCaseHeader(const VectorFamily& f, const KernelDescriptor& k, const VectorSize& s) {
  CaseResult c;
  c.kernel = k.id;
  c.size = vectorSize(f.family().id, s.count, std::string(toString(s.type)));
  c.precision = k.precision;
  c.ranKernel = k.id;
  return c;
}

}  // namespace

VectorArgs VectorCase::args(int set) const {
  VectorArgs a;
  a.count = m_size.count;
  a.type = m_size.type;
  a.in = set == 0 ? m_in.get() : m_moreIn.at(std::size_t(set - 1)).get();
  a.out = m_out.get();
  a.scratch = m_scratch.empty() ? nullptr : m_scratch.get();
  a.scratchBytes = m_scratch.bytes();
  a.stream = m_stream;
  return a;
}

std::size_t VectorCase::deviceBytes() const {
  std::size_t bytes = m_in.bytes() + m_out.bytes() + m_scratch.bytes();
  for (const auto& in : m_moreIn) bytes += in.bytes();
  return bytes;
}

std::unique_ptr<VectorCase> VectorSession::prepare(const VectorFamily& f, const KernelDescriptor& k,
                                                   const VectorSize& s, std::uint64_t seed,
                                                   VectorPattern pattern) {
  const std::int64_t outCount = f.outputCount(s.count);
  const std::size_t scratch = k.scratchBytes ? k.scratchBytes(s.count, s.type) : 0;
  const double need =
      double(s.count) * 4 + double(std::max<std::int64_t>(outCount, 1)) * 4 + double(scratch);
  std::size_t freeBytes = 0, total = 0;
  KWB_CUDA_CHECK(cudaMemGetInfo(&freeBytes, &total));
  if (need + kHeadroomBytes > double(freeBytes))
    throw InputError(countText(s.count) + " " + std::string(toString(s.type)) + " needs " +
                     mib(need) + " MiB of device memory, " + mib(double(freeBytes)) + " MiB free");
  auto c = std::make_unique<VectorCase>();
  c->m_size = s;
  c->m_outCount = outCount;
  c->m_seed = seed;
  c->m_stream = m_stream;
  c->m_in = DeviceBuffer<std::uint32_t>(std::size_t(s.count));
  c->m_out = DeviceBuffer<std::uint32_t>(std::size_t(std::max<std::int64_t>(outCount, 1)));
  c->m_scratch = DeviceBuffer<unsigned char>(scratch);
  launchFillVector(c->m_in.get(), s.count, s.type == ElementType::kInt32, pattern,
                   seededBase(seed, SeedStream::kA), m_stream);
  KWB_CUDA_CHECK(cudaStreamSynchronize(m_stream));
  return c;
}

namespace {

// Compares the device's output with the family's reference as the reference streams out of the
// input, chunk by chunk: the mismatches, the unwritten elements, the grid and the first
// expected values (the negative control's).
struct StreamedCompare {
  const ElementRule& rule;
  const std::uint32_t* deviceOut;
  Accumulator acc;
  std::vector<double> firstExpected;
  std::vector<std::int64_t> bad;  // mismatch indices for the grid (bounded)
  std::int64_t compared = 0;      // outputs compared so far
  std::vector<std::uint32_t> out;

  void compare(const std::vector<double>& expected) {
    const auto n = std::int64_t(expected.size());
    if (n == 0) return;
    copyBack(out, deviceOut + compared, n);
    for (std::int64_t i = 0; i < n; ++i) {
      const std::int64_t at = compared + i;
      const double e = expected[std::size_t(i)];
      const std::int64_t before = acc.r.mismatches;
      acc.add(rule, at, out[std::size_t(i)], e);
      if (acc.r.mismatches > before && bad.size() < (1u << 20)) bad.push_back(at);
      if (std::int64_t(firstExpected.size()) < kNegativeControlElements) firstExpected.push_back(e);
    }
    compared += n;
  }
};

// The case's output as it stands against the family's reference, which streams out of the
// input chunk by chunk; an output of nothing must still hold the canary in its one element.
StreamedCompare compareWithReference(const VectorFamily& f, const VectorCase& vc,
                                     const ElementRule& rule, int set = 0) {
  const VectorArgs a = vc.args(set);
  StreamedCompare cmp{rule, static_cast<const std::uint32_t*>(a.out), {}, {}, {}, 0, {}};
  const std::unique_ptr<VectorReference> ref = f.reference(a.type);
  std::vector<std::uint32_t> in;
  std::vector<double> expected;
  for (std::int64_t at = 0; at < a.count; at += kVectorChunk) {
    const std::int64_t n = std::min(kVectorChunk, a.count - at);
    copyBack(in, static_cast<const std::uint32_t*>(a.in) + at, n);
    expected.clear();
    ref->feed(in.data(), n, expected);
    cmp.compare(expected);
  }
  expected.clear();
  ref->finish(expected);
  cmp.compare(expected);
  if (cmp.compared == 0) {  // an output of nothing: the canary must be intact
    copyBack(cmp.out, cmp.deviceOut, 1);
    if (cmp.out[0] != kCanaryBits) {
      Accumulator& acc = cmp.acc;
      acc.r.mismatches = 1;
      acc.r.firstMismatchIndex = 0;
      acc.r.firstMismatch = Mismatch{0, 0, rule.value(cmp.out[0]), rule.value(kCanaryBits)};
      acc.r.firstMismatches = {*acc.r.firstMismatch};
    }
  }
  setGrid(cmp.acc.r, cmp.compared, cmp.bad);
  return cmp;
}

}  // namespace

std::int64_t VectorSession::nanAfterNanFill(const KernelDescriptor& k, VectorCase& vc) {
  KWB_CUDA_CHECK(cudaMemsetAsync(vc.m_out.get(), 0xFF, vc.m_out.bytes(), m_stream));
  k.launchVector(vc.args());
  DeviceBuffer<unsigned long long> nan(1);
  launchCountNan(reinterpret_cast<const float*>(vc.m_out.get()), vc.outputCount(), nan.get(),
                 m_stream);
  unsigned long long n = 0;
  KWB_CUDA_CHECK(cudaMemcpyAsync(&n, nan.get(), sizeof n, cudaMemcpyDeviceToHost, m_stream));
  KWB_CUDA_CHECK(cudaStreamSynchronize(m_stream));
  KWB_CHECK_LAUNCH();
  return std::int64_t(n);
}

int VectorSession::addInputSets(VectorCase& vc, int wanted) {
  const VectorSize& s = vc.size();
  const int sets = inputSetsThatFitNow(wanted, double(s.count) * 4, kHeadroomBytes);
  while (vc.inputSets() < sets) {
    const int j = vc.inputSets();
    vc.m_moreIn.emplace_back(std::size_t(s.count));
    launchFillVector(vc.m_moreIn.back().get(), s.count, s.type == ElementType::kInt32,
                     VectorPattern::kSeeded, seededBase(inputSetSeed(vc.m_seed, j), SeedStream::kA),
                     m_stream);
  }
  KWB_CUDA_CHECK(cudaStreamSynchronize(m_stream));
  return vc.inputSets();
}

CompareReport VectorSession::compareTimedOutput(const VectorFamily& f, const VectorCase& vc,
                                                const Tolerance& tol, int set) {
  KWB_CUDA_CHECK(cudaStreamSynchronize(m_stream));
  const ElementRule rule{vc.size().type == ElementType::kInt32, tol};
  return compareWithReference(f, vc, rule, set).acc.r;
}

void VectorSession::fillNan(VectorCase& vc) {
  KWB_CUDA_CHECK(cudaMemsetAsync(vc.m_out.get(), 0xFF, vc.m_out.bytes(), m_stream));
}

CaseResult VectorSession::verify(const VectorFamily& f, const KernelDescriptor& k, VectorCase& vc) {
  const VectorSize s = vc.size();
  const bool isInt = s.type == ElementType::kInt32;
  CaseResult c = vectorCaseHeader(f, k, s);

  // The tolerance scales with ‖x‖₂ (exact in double for the seeded grid).
  DeviceBuffer<double> norm(1);
  launchSumSquares(vc.m_in.get(), s.count, isInt, norm.get(), m_stream);
  double sumSq = 0;
  KWB_CUDA_CHECK(
      cudaMemcpyAsync(&sumSq, norm.get(), sizeof sumSq, cudaMemcpyDeviceToHost, m_stream));
  // A float output filled with quiet NaNs must come out without one (the 0xAA canary is a
  // finite float, -3.0e-13, that a kernel accumulating into its output hides). Integer
  // outputs need no such run: the canary (-1431655766) added to a result breaks it exactly.
  std::optional<std::int64_t> nanOut;
  if (!isInt) nanOut = nanAfterNanFill(k, vc);
  KWB_CUDA_CHECK(cudaMemsetAsync(vc.m_out.get(), 0xAA, vc.m_out.bytes(), m_stream));
  const LaunchInfo info = k.launchVector(vc.args());
  if (!info.ranKernel.empty()) c.ranKernel = std::string(info.ranKernel);
  KWB_CUDA_CHECK(cudaStreamSynchronize(m_stream));
  KWB_CHECK_LAUNCH();

  const ElementRule rule{isInt, f.tolerance(s.type, s.count, std::sqrt(sumSq))};
  const StreamedCompare cmp = compareWithReference(f, vc, rule);

  Verification v;
  v.reference = "cpu.fp64";
  v.seed = vc.m_seed;
  v.tolerance = rule.tol;
  v.unwritten = cmp.acc.unwritten;
  v.compare = cmp.acc.r;
  v.negativeControlRejected = negativeControlRejected(rule, cmp.firstExpected);
  v.nanFromOutput = nanOut;
  c.verification = v;
  applyVerdict(c);
  return c;
}

KnownAnswer VectorSession::knownAnswerTest(const VectorFamily& f, const KernelDescriptor& k) {
  KnownAnswer ka;
  ka.ran = true;
  ka.passed = true;
  constexpr std::int64_t kN = 1000;
  const VectorKnownAnswer test = f.knownAnswer();
  for (const ElementType t : {ElementType::kFloat32, ElementType::kInt32}) {
    const bool isInt = t == ElementType::kInt32;
    auto vc = prepare(f, k, {kN, t}, 0, test.pattern);
    KWB_CUDA_CHECK(cudaMemsetAsync(vc->m_out.get(), 0xAA, vc->m_out.bytes(), m_stream));
    k.launchVector(vc->args());
    KWB_CUDA_CHECK(cudaStreamSynchronize(m_stream));
    KWB_CHECK_LAUNCH();
    std::vector<std::uint32_t> out;
    copyBack(out, vc->m_out.get(), vc->outputCount());
    const ElementRule rule{isInt, {0, 0}};
    std::int64_t wrong = -1;
    for (std::size_t i = 0; i < out.size() && wrong < 0; ++i)
      if (!rule.matches(out[i], test.expected(std::int64_t(i), kN))) wrong = std::int64_t(i);
    std::string what = k.id + " " + test.what + " (" + std::string(toString(t)) + ")";
    if (wrong >= 0) {
      ka.passed = false;
      what += " wrong at index " + std::to_string(wrong) + ": got " +
              exact(rule.value(out[std::size_t(wrong)]));
    }
    ka.detail += (ka.detail.empty() ? "" : "; ") + what;
  }
  return ka;
}

double measureCopyBandwidth(CUstream_st* stream, const MeasureOptions& opt) {
  std::size_t freeBytes = 0, total = 0;
  KWB_CUDA_CHECK(cudaMemGetInfo(&freeBytes, &total));
  const std::size_t bytes =
      std::min<std::size_t>(std::size_t(1) << 30, freeBytes / 4) & ~std::size_t(255);
  if (bytes == 0) return 0.0;
  DeviceBuffer<unsigned char> src(bytes), dst(bytes);
  KWB_CUDA_CHECK(cudaMemsetAsync(src.get(), 1, bytes, stream));
  MeasureOptions o = opt;
  o.coldL2 = false;
  o.cuptiCheck = false;
  o.nvtxRange = "kwb_copy_roof";  // not a case's samples, which ncu-compare.py profiles
  const Measurement m =
      measure([&] { launchCopy16(src.get(), dst.get(), bytes, stream); }, stream, o, nullptr);
  const double ms = stats::summarize(m.samplesMs).median;
  return ms > 0 ? 2.0 * double(bytes) / (ms * 1e6) : 0.0;
}

}  // namespace kwb::cuda
