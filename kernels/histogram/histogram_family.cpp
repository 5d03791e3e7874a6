// SPDX-License-Identifier: Apache-2.0
// The histogram family's declaration, work and driver (kwb/cuda/family_driver.h): a case's
// samples generated on the device from the run's seed, canary-filled counters, the exact
// comparison with CUB's counts (with the host's count for CUB itself and, up to 2^22 samples,
// for every kernel), the total against the in-range samples, the negative control, and the
// known answer (i mod 256 into 256 bins).
#include "histogram/histogram_family.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "histogram/histogram_check.h"
#include "histogram/histogram_descriptors.h"
#include "histogram/histogram_inputs.h"
#include "kwb/cuda/check.h"
#include "kwb/cuda/device_buffer.h"
#include "kwb/cuda/family_driver.h"
#include "kwb/cuda/input_sets.h"
#include "kwb/cuda/verdict.h"
#include "kwb/error.h"
#include "kwb/format.h"
#include "kwb/results.h"
#include "kwb/seeded.h"

namespace kwb::kernels {
namespace {

using cuda::DeviceBuffer;

constexpr double kHeadroomBytes = 64.0 * (1 << 20);            // CUDA context and launcher growth
constexpr std::int64_t kHostCheckMax = std::int64_t{1} << 22;  // every kernel checked on the host
constexpr std::int64_t kHostChunk = std::int64_t{1} << 22;     // samples copied back at a time

// Reading the samples is the work: GB/s is samples · sizeof(sample) / time (the counters'
// 4 · bins bytes are left out), and a "FLOP" is one sample binned.
Work histogramWork(const CaseResult& c) {
  const auto n = double(c.size.number("count"));
  return {n, n * double(sampleBytes(parseSampleType(c.size.word("type"))))};
}

Family declaration() {
  Family f;
  f.id = "histogram";
  f.title = "Histogram (even bins)";
  f.axes = {{"count", AxisKind::kCount},
            {"type", AxisKind::kWord, "", {"u8", "f32"}},
            {"bins", AxisKind::kDimension, "bins", {}, kMinBins, kMaxBins},
            {"distribution", AxisKind::kWord, "", {"uniform", "zipf", "one-bin"}}};
  f.headline = Metric::kGbps;
  f.roof = "device-to-device copy bandwidth";
  f.reference = "cub.histogram_even";
  f.work = histogramWork;
  return f;
}

struct Problem {
  std::int64_t count = 0;
  SampleType type = SampleType::kU8;
  int bins = 256;
  Distribution distribution = Distribution::kUniform;
};

Problem problemOf(const CaseSize& s) {
  Problem p;
  p.count = s.number("count");
  p.type = parseSampleType(s.word("type"));
  const std::int64_t bins = s.number("bins");
  if (bins < kMinBins || bins > kMaxBins)
    throw InputError("histogram size '" + sizeText(s) + "': bins must be " +
                     std::to_string(kMinBins) + " to " + std::to_string(kMaxBins));
  p.bins = int(bins);
  p.distribution = parseDistribution(s.word("distribution"));
  return p;
}

const HistogramLauncher& launcherOf(const KernelDescriptor& k) {
  return cuda::launcherOf<HistogramLauncher>(k);
}

const KernelDescriptor& cubReference() {
  static const KernelDescriptor cub = cubHistogramEvenRef();
  return cub;
}

std::size_t scratchOf(const KernelDescriptor& k, const Problem& p) {
  const HistogramLauncher& l = launcherOf(k);
  return l.scratchBytes ? l.scratchBytes(p.count, p.type, p.bins) : 0;
}

// Turns a passing case into a failing one, with the reason added to its message.
void failWith(CaseResult& c, const std::string& why) {
  if (c.status == CaseStatus::kPass) c.message.clear();
  c.status = CaseStatus::kFail;
  c.message += (c.message.empty() ? "" : "; ") + why;
}

// One case's device memory: its samples, two sets of counters (the kernel's and CUB's), the
// scratch of either, and the in-range total.
class HistogramCase : public cuda::FamilyCase {
 public:
  HistogramCase(const CaseSize& size, const Problem& p, const cuda::DriverContext& ctx,
                std::size_t scratch)
      : m_size(size),
        m_p(p),
        m_stream(ctx.stream),
        m_seed(ctx.seed),
        m_samples(std::size_t(p.count) * sampleBytes(p.type)),
        m_counts(std::size_t(p.bins)),
        m_cubCounts(std::size_t(p.bins)),
        m_scratch(scratch),
        m_inRange(1) {}

  void fill(bool knownAnswer) {
    if (knownAnswer)
      launchFillKnownAnswer(m_samples.get(), m_p.count, m_p.type, m_stream);
    else
      fillSeeded(m_samples.get(), m_seed);
    KWB_CUDA_CHECK(cudaStreamSynchronize(m_stream));
  }

  std::size_t deviceBytes() const override {
    std::size_t bytes = m_samples.bytes() + m_counts.bytes() + m_cubCounts.bytes() +
                        m_scratch.bytes() + m_inRange.bytes();
    for (const auto& s : m_moreSamples) bytes += s.bytes();
    return bytes;
  }

  // k's counters after one launch on input set `set` over canary-filled ones.
  std::vector<unsigned> run(const KernelDescriptor& k, unsigned* out, std::string* ran = nullptr,
                            int set = 0) {
    const std::size_t bytes = std::size_t(m_p.bins) * sizeof(unsigned);
    KWB_CUDA_CHECK(cudaMemsetAsync(out, 0xAA, bytes, m_stream));
    const LaunchInfo info = launcherOf(k).launch(args(out, set));
    std::vector<unsigned> host(std::size_t(m_p.bins));
    KWB_CUDA_CHECK(cudaMemcpyAsync(host.data(), out, bytes, cudaMemcpyDeviceToHost, m_stream));
    KWB_CUDA_CHECK(cudaStreamSynchronize(m_stream));
    KWB_CHECK_LAUNCH();
    if (ran && !info.ranKernel.empty()) *ran = std::string(info.ranKernel);
    return host;
  }

  CaseResult verify(const KernelDescriptor& k) override;

  // The timed launches rotate through the case's sample sets (one unless --fresh-inputs). The
  // counters hold 0xFF bytes (a count no launch reaches) before them: each must write them.
  std::function<void()> timedLaunch(const KernelDescriptor& k) override {
    addInputSets();
    const HistogramLaunchFn launch = launcherOf(k).launch;
    m_rotation = std::make_shared<cuda::InputRotation>(inputSets());
    KWB_CUDA_CHECK(cudaMemsetAsync(m_counts.get(), 0xFF, m_counts.bytes(), m_stream));
    return cuda::rotatedLaunch(m_rotation, [launch, this](int j) {
      return [launch, a = args(m_counts.get(), j)] { launch(a); };
    });
  }

  // The counts the last timed launch left, then one more launch's (on the next set), each
  // against CUB's counts of the set it read, exactly (docs/VALIDATION.md, "Timed launches").
  void checkTimedOutput(const KernelDescriptor& k, CaseResult& c) override {
    cuda::recordInputSets(c, inputSets(), m_wantedSets);
    if (!c.verification || m_expected.empty()) return;
    std::vector<unsigned> left(m_expected.size());
    KWB_CUDA_CHECK(cudaMemcpyAsync(left.data(), m_counts.get(), m_counts.bytes(),
                                   cudaMemcpyDeviceToHost, m_stream));
    KWB_CUDA_CHECK(cudaStreamSynchronize(m_stream));
    CompareReport r = compareCounts(left, expectedOf(m_rotation->last()));
    if (const int j = m_rotation->next(); r.passed())
      r = compareCounts(run(k, m_counts.get(), nullptr, j), expectedOf(j));
    c.verification->timedOutput = r;
  }

  unsigned* counts() const { return m_counts.get(); }
  void setWantedSets(int wanted) { m_wantedSets = wanted; }

 private:
  void fillSeeded(unsigned char* samples, std::uint64_t seed) const {
    launchFillSamples(samples, m_p.count, m_p.type, m_p.bins, m_p.distribution,
                      seededBase(seed, SeedStream::kA), m_stream);
  }
  int inputSets() const { return 1 + int(m_moreSamples.size()); }
  // Up to m_wantedSets − 1 further sample sets (kwb/cuda/input_sets.h), as many as fit.
  void addInputSets() {
    const int sets =
        cuda::inputSetsThatFitNow(m_wantedSets, double(m_samples.bytes()), kHeadroomBytes);
    while (inputSets() < sets) {
      m_moreSamples.emplace_back(m_samples.size());
      fillSeeded(m_moreSamples.back().get(), cuda::inputSetSeed(m_seed, inputSets() - 1));
    }
    KWB_CUDA_CHECK(cudaStreamSynchronize(m_stream));
  }
  // CUB's counts of sample set `set`: the verification's for set 0.
  std::vector<unsigned> expectedOf(int set) {
    return set == 0 ? m_expected : run(cubReference(), m_cubCounts.get(), nullptr, set);
  }

  HistogramArgs args(unsigned* out, int set = 0) const {
    HistogramArgs a;
    a.count = m_p.count;
    a.type = m_p.type;
    a.bins = m_p.bins;
    a.samples = set == 0 ? m_samples.get() : m_moreSamples.at(std::size_t(set - 1)).get();
    a.histogram = out;
    a.scratch = m_scratch.empty() ? nullptr : m_scratch.get();
    a.scratchBytes = m_scratch.bytes();
    a.stream = m_stream;
    return a;
  }

  // The samples counted on the host, copied back in bounded chunks.
  HostHistogram hostCount() const {
    HostHistogram h(m_p.type, m_p.bins);
    const std::size_t bytes = sampleBytes(m_p.type);
    std::vector<unsigned char> chunk;
    for (std::int64_t at = 0; at < m_p.count; at += kHostChunk) {
      const std::int64_t n = std::min(kHostChunk, m_p.count - at);
      chunk.resize(std::size_t(n) * bytes);
      KWB_CUDA_CHECK(cudaMemcpy(chunk.data(), m_samples.get() + std::size_t(at) * bytes,
                                chunk.size(), cudaMemcpyDeviceToHost));
      h.add(chunk.data(), n);
    }
    return h;
  }

  std::uint64_t deviceInRange() const {
    launchCountInRange(m_samples.get(), m_p.count, m_p.type, m_inRange.get(), m_stream);
    unsigned long long n = 0;
    KWB_CUDA_CHECK(
        cudaMemcpyAsync(&n, m_inRange.get(), sizeof n, cudaMemcpyDeviceToHost, m_stream));
    KWB_CUDA_CHECK(cudaStreamSynchronize(m_stream));
    return n;
  }

  CaseSize m_size;
  Problem m_p;
  CUstream_st* m_stream;
  std::uint64_t m_seed;
  DeviceBuffer<unsigned char> m_samples;
  DeviceBuffer<unsigned> m_counts, m_cubCounts;
  DeviceBuffer<unsigned char> m_scratch;
  DeviceBuffer<unsigned long long> m_inRange;
  std::vector<unsigned> m_expected;                        // the verification's reference counts
  int m_wantedSets = 1;                                    // --fresh-inputs
  std::vector<DeviceBuffer<unsigned char>> m_moreSamples;  // sample sets 1 … K − 1
  std::shared_ptr<cuda::InputRotation> m_rotation = std::make_shared<cuda::InputRotation>(1);
};

CaseResult HistogramCase::verify(const KernelDescriptor& k) {
  CaseResult c;
  c.kernel = k.id;
  c.size = m_size;
  c.precision = k.precision;
  c.ranKernel = k.id;
  const bool isReference = k.id == cubReference().id;
  const std::vector<unsigned> got = run(k, m_counts.get(), &c.ranKernel);
  std::optional<HostHistogram> host;
  if (isReference || m_p.count <= kHostCheckMax) host = hostCount();
  // CUB is held to the host's count; every other kernel to CUB's, on the same samples.
  const std::vector<unsigned> expected =
      isReference ? host->counts() : run(cubReference(), m_cubCounts.get());

  m_expected = expected;
  Verification v;
  v.reference = isReference ? "cpu" : cubReference().id;
  v.seed = m_seed;
  v.tolerance = {0, 0};
  v.unwritten = canaryBins(got);
  v.compare = compareCounts(got, expected);
  v.negativeControlRejected = countsNegativeControlRejected(expected);
  c.verification = v;
  cuda::applyVerdict(c);

  // The independent checks: the total against the samples in range (counted on the device by
  // a kernel of its own), and the host's count where it was taken.
  const std::uint64_t total = totalOf(got), inRange = deviceInRange();
  if (total != inRange)
    failWith(c, "the counts total " + std::to_string(total) + " but " + std::to_string(inRange) +
                    " samples are in range");
  if (host && !isReference) {
    const CompareReport r = compareCounts(got, host->counts());
    if (r.mismatches > 0)
      failWith(c, std::to_string(r.mismatches) + " bins differ from the host's count, first bin " +
                      std::to_string(*r.firstMismatchIndex) + ": got " +
                      exact(r.firstMismatch->got) + ", host " + exact(r.firstMismatch->expected));
  }
  return c;
}

class HistogramDriver : public cuda::FamilyDriver {
 public:
  const Family& family() const override { return m_family; }

  std::unique_ptr<cuda::FamilyCase> prepare(const KernelDescriptor& k, const CaseSize& size,
                                            const cuda::DriverContext& ctx) override {
    const Problem p = problemOf(size);
    const std::size_t scratch = std::max(scratchOf(k, p), scratchOf(cubReference(), p));
    const double need = double(p.count) * double(sampleBytes(p.type)) +
                        2.0 * p.bins * sizeof(unsigned) + double(scratch);
    std::size_t freeBytes = 0, total = 0;
    KWB_CUDA_CHECK(cudaMemGetInfo(&freeBytes, &total));
    if (need + kHeadroomBytes > double(freeBytes))
      throw InputError(sizeText(size) + " needs " + mib(need) + " MiB of device memory, " +
                       mib(double(freeBytes)) + " MiB free");
    auto c = std::make_unique<HistogramCase>(size, p, ctx, scratch);
    c->fill(false);
    c->setWantedSets(cuda::inputSetsWanted(ctx));
    return c;
  }

  KnownAnswer knownAnswer(const KernelDescriptor& k, const cuda::DriverContext& ctx) override {
    constexpr std::int64_t kPerBin = 1000;
    KnownAnswer ka;
    ka.ran = true;
    ka.passed = true;
    for (const SampleType t : {SampleType::kU8, SampleType::kF32}) {
      const Problem p{256 * kPerBin, t, 256, Distribution::kUniform};
      HistogramCase hc(CaseSize{}, p, ctx, scratchOf(k, p));
      hc.fill(true);
      const std::vector<unsigned> got = hc.run(k, hc.counts());
      const auto wrong =
          std::find_if(got.begin(), got.end(), [](unsigned n) { return n != kPerBin; });
      std::string what = k.id + " i mod 256 into 256 bins, " + std::to_string(kPerBin) + " each (" +
                         std::string(toString(t)) + ")";
      if (wrong != got.end()) {
        ka.passed = false;
        what += " wrong at bin " + std::to_string(wrong - got.begin()) + ": got " +
                std::to_string(*wrong);
      }
      ka.detail += (ka.detail.empty() ? "" : "; ") + what;
    }
    return ka;
  }

 private:
  Family m_family = declaration();
};

}  // namespace

std::shared_ptr<cuda::FamilyDriver> histogramDriver() {
  return std::make_shared<HistogramDriver>();
}

}  // namespace kwb::kernels
