// SPDX-License-Identifier: Apache-2.0
// The radix sort family's driver (docs/FAMILIES.md, "Sort"): its declaration and work, the
// seeded inputs of a case, and its verification — the output against cub::DeviceRadixSort's
// element for element (keys and values, bit-exact), an independent check of the same pass
// (non-decreasing in CUB's order; for pairs, ties in input order and the output a permutation
// of the input; the multiset fingerprint of the keys), the canary and a guard word past the
// end, and the negative control (the check must reject the reference with two elements
// swapped). The known answers: reversed keys sort to iota, pairs carry their index, and CUB's
// f32 order of ±0, ±inf and NaNs on a fixed list.
#include "sort/sort_family.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "kwb/cuda/check.h"
#include "kwb/cuda/device_buffer.h"
#include "kwb/cuda/input_sets.h"
#include "kwb/cuda/verdict.h"
#include "kwb/error.h"
#include "kwb/format.h"
#include "kwb/results.h"
#include "kwb/seeded.h"
#include "sort/sort_data.h"
#include "sort/sort_descriptors.h"

namespace kwb::kernels::sort {
namespace {

using cuda::DeviceBuffer;
using Words = DeviceBuffer<std::uint32_t>;
constexpr double kHeadroomBytes = 64.0 * (1 << 20);

// A sort moves each key (and value) in once and out once: 2 · 4 bytes an element, twice that
// with values. FLOPs: one per key (so the GFLOP/s figure reads as billions of keys a second).
Work sortWork(const CaseResult& c) {
  const double n = double(c.size.number("count"));
  const double words = c.size.word("payload") == "pairs" ? 2.0 : 1.0;
  return {n, n * 4.0 * 2.0 * words};
}

Family sortFamilyDeclaration() {
  Family f;
  f.id = "sort";
  f.title = "Radix sort";
  f.axes = {{"count", AxisKind::kCount, "", {}, 0, kMaxSortCount},
            {"type", AxisKind::kWord, "", {"u32", "f32"}},
            {"payload", AxisKind::kWord, "", {"keys", "pairs"}}};
  f.headline = Metric::kGbps;
  f.roof = "device-to-device copy bandwidth";
  f.reference = "cub.radix_sort";
  f.work = sortWork;
  return f;
}

struct SortSize {
  std::int64_t count = 0;
  KeyType type = KeyType::kU32;
  bool pairs = false;
};
SortSize sortSizeOf(const CaseSize& s) {
  return {s.number("count"), parseKeyType(s.word("type")), s.word("payload") == "pairs"};
}
CaseSize caseSizeOf(const SortSize& s) {
  return CaseSize("sort", {{"count", AxisKind::kCount, s.count},
                           {"type", AxisKind::kWord, 0, std::string(toString(s.type))},
                           {"payload", AxisKind::kWord, 0, s.pairs ? "pairs" : "keys"}});
}

const SortLauncher& cubLauncher() {
  static const KernelDescriptor cub = cubRadixSortRef();
  return cuda::launcherOf<SortLauncher>(cub);
}

std::size_t scratchOf(const SortLauncher& l, const SortSize& s) {
  return l.scratchBytes ? l.scratchBytes(s.count, s.type, s.pairs) : 0;
}

// A key as the report writes it: its float for f32, its number for u32.
double keyValue(std::uint32_t bits, KeyType t) {
  if (t == KeyType::kU32) return double(bits);
  float f;
  std::memcpy(&f, &bits, 4);
  return double(f);
}

// The device buffers of one sort: outputs one word longer than the count (a guard word that
// must keep the canary).
struct SortBuffers {
  SortSize size;
  Words keysIn, valuesIn, keysOut, valuesOut;
  DeviceBuffer<unsigned char> scratch;
  SortBuffers(const SortSize& s, std::size_t scratchBytes)
      : size(s),
        keysIn(std::size_t(s.count)),
        valuesIn(s.pairs ? std::size_t(s.count) : 0),
        keysOut(std::size_t(s.count) + 1),
        valuesOut(s.pairs ? std::size_t(s.count) + 1 : 0),
        scratch(scratchBytes) {}
  std::size_t bytes() const {
    return keysIn.bytes() + valuesIn.bytes() + keysOut.bytes() + valuesOut.bytes() +
           scratch.bytes();
  }
  SortArgs args(CUstream_st* stream) const {
    SortArgs a;
    a.count = size.count;
    a.type = size.type;
    a.pairs = size.pairs;
    a.keysIn = keysIn.get();
    a.valuesIn = size.pairs ? valuesIn.get() : nullptr;
    a.keysOut = keysOut.get();
    a.valuesOut = size.pairs ? valuesOut.get() : nullptr;
    a.scratch = scratch.empty() ? nullptr : scratch.get();
    a.scratchBytes = scratch.bytes();
    a.stream = stream;
    return a;
  }
  void fillCanary(CUstream_st* stream) const {
    KWB_CUDA_CHECK(cudaMemsetAsync(keysOut.get(), 0xAA, keysOut.bytes(), stream));
    if (size.pairs)
      KWB_CUDA_CHECK(cudaMemsetAsync(valuesOut.get(), 0xAA, valuesOut.bytes(), stream));
  }
  // Guard words past the end that no longer hold the canary.
  int guardsOverwritten(CUstream_st* stream) const {
    std::uint32_t guard[2] = {kSortCanary, kSortCanary};
    const auto n = std::size_t(size.count);
    KWB_CUDA_CHECK(
        cudaMemcpyAsync(&guard[0], keysOut.get() + n, 4, cudaMemcpyDeviceToHost, stream));
    if (size.pairs)
      KWB_CUDA_CHECK(
          cudaMemcpyAsync(&guard[1], valuesOut.get() + n, 4, cudaMemcpyDeviceToHost, stream));
    KWB_CUDA_CHECK(cudaStreamSynchronize(stream));
    return int(guard[0] != kSortCanary) + int(guard[1] != kSortCanary);
  }
};

void launchAndWait(const SortLauncher& l, const SortArgs& a, CaseResult* c) {
  const LaunchInfo info = l.launch(a);
  if (c && !info.ranKernel.empty()) c->ranKernel = std::string(info.ranKernel);
  KWB_CUDA_CHECK(cudaStreamSynchronize(a.stream));
  KWB_CHECK_LAUNCH();
}

// CUB's sort of one input, in buffers of one check alone, and the scratch of the check of an
// output against it (the permutation bitmap, the result).
struct CubSorted {
  Words keys, values, seen;
  DeviceBuffer<unsigned char> scratch;
  DeviceBuffer<SortCheck> result;
  explicit CubSorted(const SortSize& s)
      : keys(std::size_t(s.count)),
        values(s.pairs ? std::size_t(s.count) : 0),
        seen(s.pairs ? (std::size_t(s.count) + 31) / 32 : 0),
        scratch(scratchOf(cubLauncher(), s)),
        result(1) {}
  // The device memory it takes for a sort of size s.
  static double bytesFor(const SortSize& s) {
    return 4.0 * (s.pairs ? 2.0 : 1.0) * double(s.count) + double(scratchOf(cubLauncher(), s)) +
           double(s.count) / 8 + double(sizeof(SortCheck));
  }
  // CUB sorts what `a` reads (its outputs untouched); returns the check of a's outputs.
  SortCheckArgs sort(const SortArgs& a) {
    SortArgs ra = a;
    ra.keysOut = keys.get();
    ra.valuesOut = a.pairs ? values.get() : nullptr;
    ra.scratch = scratch.empty() ? nullptr : scratch.get();
    ra.scratchBytes = scratch.bytes();
    launchAndWait(cubLauncher(), ra, nullptr);
    return {a.count,     a.type,     a.pairs,      a.keysIn,   a.keysOut,
            a.valuesOut, keys.get(), values.get(), seen.get(), a.stream};
  }
  SortCheck check(const SortCheckArgs& ca) { return checkSort(ca, result.get()); }
};

// The independent checks' failures, as a sentence ("" when none).
std::string independentFailures(const SortCheck& r, bool pairs) {
  std::string s;
  auto add = [&](unsigned long long n, const char* what) {
    if (n) s += (s.empty() ? "" : ", ") + std::to_string(n) + " " + what;
  };
  add(r.outOfOrder, "out of CUB's order");
  if (pairs) add(r.unstable, "equal keys out of input order (unstable)");
  if (pairs) add(r.notPermutation, "values not a permutation of the input's indices");
  if (r.inputHash != r.outputHash)
    s += (s.empty() ? "" : ", ") + std::string("keys not the input's multiset");
  return s;
}

CompareReport compareReport(const SortCheck& r, const SortSize& s) {
  CompareReport cmp;
  cmp.elements = s.count;
  cmp.mismatches = std::int64_t(r.mismatches);
  if (r.firstMismatch >= 0) {
    const Mismatch m{0, r.firstMismatch, keyValue(r.gotKey, s.type),
                     keyValue(r.expectedKey, s.type)};
    cmp.firstMismatchIndex = r.firstMismatch;
    cmp.firstMismatch = m;
    cmp.firstMismatches = {m};
  }
  return cmp;
}

// The negative control: the reference with its first and last elements swapped must be caught —
// as a mismatch, and by the independent check (out of order where the two keys differ in CUB's
// order, unstable where only their values do). Vacuous below two elements, or for keys alone
// that are all equal (a swap changes nothing).
bool negativeControlRejected(SortCheckArgs ca, std::uint32_t* keys, std::uint32_t* values,
                             SortCheck* result) {
  const std::int64_t n = ca.count;
  if (n < 2) return true;
  std::uint32_t ends[2] = {0, 0};
  KWB_CUDA_CHECK(cudaMemcpyAsync(&ends[0], ca.keysRef, 4, cudaMemcpyDeviceToHost, ca.stream));
  KWB_CUDA_CHECK(
      cudaMemcpyAsync(&ends[1], ca.keysRef + n - 1, 4, cudaMemcpyDeviceToHost, ca.stream));
  const auto bytes = std::size_t(n) * 4;
  KWB_CUDA_CHECK(cudaMemcpyAsync(keys, ca.keysRef, bytes, cudaMemcpyDeviceToDevice, ca.stream));
  if (ca.pairs)
    KWB_CUDA_CHECK(
        cudaMemcpyAsync(values, ca.valuesRef, bytes, cudaMemcpyDeviceToDevice, ca.stream));
  swapElements(keys, ca.pairs ? values : nullptr, 0, n - 1, ca.stream);
  ca.keysOut = keys;
  ca.valuesOut = values;
  const SortCheck bad = checkSort(ca, result);
  const bool orderDiffers = orderedKey(ends[0], ca.type) != orderedKey(ends[1], ca.type);
  if (!orderDiffers && !ca.pairs && ends[0] == ends[1]) return true;
  if (orderDiffers) return bad.mismatches > 0 && bad.outOfOrder > 0;
  return bad.mismatches > 0 && (!ca.pairs || bad.unstable > 0);
}

// A case's buffers and its further input sets (kwb run --fresh-inputs): the launches read
// keysIn and valuesIn only (SortArgs: a launcher never writes them), so every timed launch
// reads its set as generated, unsorted, with no copy-in to restore it.
class SortCase : public cuda::FamilyCase {
 public:
  SortCase(const SortSize& s, std::size_t scratch, std::uint64_t seed, CUstream_st* stream,
           int wantedSets)
      : m_buf(s, scratch), m_seed(seed), m_stream(stream), m_wantedSets(wantedSets) {
    fillSortInput(m_buf.keysIn.get(), s.pairs ? m_buf.valuesIn.get() : nullptr, s.count, s.type,
                  seededBase(seed, SeedStream::kA), stream);
    KWB_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  std::size_t deviceBytes() const override {
    std::size_t bytes = m_buf.bytes();
    for (const Words& w : m_moreKeys) bytes += w.bytes();
    for (const Words& w : m_moreValues) bytes += w.bytes();
    return bytes;
  }
  CaseResult verify(const KernelDescriptor& k) override;
  // The timed launches rotate through the input sets, all writing the case's outputs.
  std::function<void()> timedLaunch(const KernelDescriptor& k) override {
    addInputSets();
    const SortLauncher l = cuda::launcherOf<SortLauncher>(k);
    m_rotation = std::make_shared<cuda::InputRotation>(inputSets());
    return cuda::rotatedLaunch(m_rotation,
                               [l, this](int j) { return [l, a = argsOf(j)] { l.launch(a); }; });
  }
  void checkTimedOutput(const KernelDescriptor& k, CaseResult& c) override;
  // What the timed-output check found beyond the comparison (guard words, the independent
  // checks) fails the case; the verdict of the comparison is the case loop's.
  std::function<void(CaseResult&)> afterTiming(const KernelDescriptor& /*k*/) override {
    return [why = m_timedProblems](CaseResult& c) {
      if (why->empty()) return;
      c.status = CaseStatus::kFail;
      c.message += (c.message.empty() ? "" : "; ") + std::string("the timed launches: ") + *why;
    };
  }

 private:
  int inputSets() const { return 1 + int(m_moreKeys.size()); }
  SortArgs argsOf(int set) const {
    SortArgs a = m_buf.args(m_stream);
    if (set == 0) return a;
    a.keysIn = m_moreKeys.at(std::size_t(set - 1)).get();
    if (a.pairs) a.valuesIn = m_moreValues.at(std::size_t(set - 1)).get();
    return a;
  }
  // Up to m_wantedSets − 1 further sets, as many as fit beside the timed-output check's buffers.
  void addInputSets() {
    const SortSize& s = m_buf.size;
    const double setBytes = 4.0 * (s.pairs ? 2.0 : 1.0) * double(s.count);
    const int sets =
        cuda::inputSetsThatFitNow(m_wantedSets, setBytes, kHeadroomBytes + CubSorted::bytesFor(s));
    while (inputSets() < sets) {
      m_moreKeys.emplace_back(std::size_t(s.count));
      m_moreValues.emplace_back(s.pairs ? std::size_t(s.count) : 0);
      fillSortInput(m_moreKeys.back().get(), s.pairs ? m_moreValues.back().get() : nullptr, s.count,
                    s.type, seededBase(cuda::inputSetSeed(m_seed, inputSets() - 1), SeedStream::kA),
                    m_stream);
    }
    KWB_CUDA_CHECK(cudaStreamSynchronize(m_stream));
  }

  SortBuffers m_buf;
  std::uint64_t m_seed;
  CUstream_st* m_stream;
  int m_wantedSets;
  std::vector<Words> m_moreKeys, m_moreValues;  // input sets 1 … K − 1
  std::shared_ptr<cuda::InputRotation> m_rotation = std::make_shared<cuda::InputRotation>(1);
  std::shared_ptr<std::string> m_timedProblems = std::make_shared<std::string>();
};

// The outputs the last timed launch left against CUB's sort of the set it read, bit for bit,
// with the independent checks and the guard words; then one more launch on that set over
// canary-filled outputs: a kernel that stopped writing during the samples leaves the canary.
void SortCase::checkTimedOutput(const KernelDescriptor& k, CaseResult& c) {
  cuda::recordInputSets(c, inputSets(), m_wantedSets);
  if (!c.verification) return;
  const SortSize& s = m_buf.size;
  const SortArgs a = argsOf(m_rotation->last());
  CubSorted ref(s);
  const SortCheckArgs ca = ref.sort(a);
  auto problems = [&](const SortCheck& r) {
    std::string why = independentFailures(r, s.pairs);
    if (m_buf.guardsOverwritten(m_stream))
      why += std::string(why.empty() ? "" : ", ") + "wrote past the end of the output";
    return why;
  };
  SortCheck r = ref.check(ca);
  std::string why = problems(r);
  if (r.mismatches == 0 && why.empty()) {
    m_buf.fillCanary(m_stream);
    launchAndWait(cuda::launcherOf<SortLauncher>(k), a, nullptr);
    r = ref.check(ca);
    why = problems(r);
  }
  c.verification->timedOutput = compareReport(r, s);
  *m_timedProblems = why;
}

CaseResult SortCase::verify(const KernelDescriptor& k) {
  const SortLauncher& l = cuda::launcherOf<SortLauncher>(k);
  const SortSize& s = m_buf.size;
  CaseResult c;
  c.kernel = k.id;
  c.size = caseSizeOf(s);
  c.precision = k.precision;
  c.ranKernel = k.id;
  m_buf.fillCanary(m_stream);
  launchAndWait(l, m_buf.args(m_stream), &c);
  const int guards = m_buf.guardsOverwritten(m_stream);

  // The reference's output on the same input, in buffers of this verification only.
  CubSorted ref(s);
  const SortCheckArgs ca = ref.sort(m_buf.args(m_stream));
  const SortCheck r = ref.check(ca);
  Verification v;
  v.reference = cubRadixSortRef().id;
  v.seed = m_seed;
  v.tolerance = {0.0, 0.0};  // exact
  v.unwritten = std::int64_t(r.unwritten);
  v.compare = compareReport(r, s);
  // The output buffers are the kernel's again at the next launch: the control may use them.
  v.negativeControlRejected =
      negativeControlRejected(ca, m_buf.keysOut.get(), m_buf.valuesOut.get(), ref.result.get());
  c.verification = v;
  cuda::applyVerdict(c);
  std::string why = independentFailures(r, s.pairs);
  if (guards) why += std::string(why.empty() ? "" : ", ") + "wrote past the end of the output";
  if (!why.empty() && c.status != CaseStatus::kInvalid) {
    c.status = CaseStatus::kFail;
    c.message = c.message.empty() ? why : c.message + "; " + why;
  }
  return c;
}

// One known answer: `keys` (with values 0..n-1 when `pairs`) must sort to `expectKeys`
// (values `expectValues`). Returns "" or what was wrong.
std::string knownSort(const SortLauncher& l, KeyType type, bool pairs,
                      const std::vector<std::uint32_t>& keys,
                      const std::vector<std::uint32_t>& expectKeys,
                      const std::vector<std::uint32_t>& expectValues, CUstream_st* stream) {
  const SortSize s{std::int64_t(keys.size()), type, pairs};
  SortBuffers b(s, scratchOf(l, s));
  const std::size_t bytes = keys.size() * 4;
  KWB_CUDA_CHECK(
      cudaMemcpyAsync(b.keysIn.get(), keys.data(), bytes, cudaMemcpyHostToDevice, stream));
  std::vector<std::uint32_t> iota(keys.size());
  for (std::size_t i = 0; i < iota.size(); ++i) iota[i] = std::uint32_t(i);
  if (pairs)
    KWB_CUDA_CHECK(
        cudaMemcpyAsync(b.valuesIn.get(), iota.data(), bytes, cudaMemcpyHostToDevice, stream));
  b.fillCanary(stream);
  launchAndWait(l, b.args(stream), nullptr);
  std::vector<std::uint32_t> gotKeys(keys.size()), gotValues(pairs ? keys.size() : 0);
  KWB_CUDA_CHECK(cudaMemcpy(gotKeys.data(), b.keysOut.get(), bytes, cudaMemcpyDeviceToHost));
  if (pairs)
    KWB_CUDA_CHECK(cudaMemcpy(gotValues.data(), b.valuesOut.get(), bytes, cudaMemcpyDeviceToHost));
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (gotKeys[i] != expectKeys[i] || (pairs && gotValues[i] != expectValues[i]))
      return "wrong at index " + std::to_string(i) + ": got key " +
             exact(keyValue(gotKeys[i], type)) +
             (pairs ? " value " + std::to_string(gotValues[i]) : "");
  if (b.guardsOverwritten(stream)) return "wrote past the end of the output";
  return "";
}

std::uint32_t floatBits(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

KnownAnswer sortKnownAnswer(const KernelDescriptor& k, CUstream_st* stream) {
  const SortLauncher& l = cuda::launcherOf<SortLauncher>(k);
  KnownAnswer ka;
  ka.ran = true;
  ka.passed = true;
  auto record = [&](const std::string& what, const std::string& wrong) {
    ka.passed = ka.passed && wrong.empty();
    ka.detail +=
        (ka.detail.empty() ? "" : "; ") + k.id + " " + what + (wrong.empty() ? "" : " " + wrong);
  };
  // Reversed 9999..0 sorts to 0..9999 (three tiles and more of every stage), values reversed.
  constexpr std::uint32_t kN = 10000;
  for (const KeyType t : {KeyType::kU32, KeyType::kF32}) {
    std::vector<std::uint32_t> keys(kN), sorted(kN), values(kN);
    for (std::uint32_t i = 0; i < kN; ++i) {
      keys[i] = t == KeyType::kF32 ? floatBits(float(kN - 1 - i)) : kN - 1 - i;
      sorted[i] = t == KeyType::kF32 ? floatBits(float(i)) : i;
      values[i] = kN - 1 - i;
    }
    for (const bool pairs : {false, true})
      record("sorts " + std::string(toString(t)) + " 9999..0 to 0..9999" +
                 (pairs ? " carrying each index" : ""),
             knownSort(l, t, pairs, keys, sorted, values, stream));
  }
  // CUB's f32 order: -NaN < -inf < -1 < -0 = +0 (input order kept) < 1 < +inf < +NaN.
  const std::vector<std::uint32_t> specials = {0x7fc00000u, 0xff800000u, floatBits(1.0f),
                                               0x80000000u, 0x00000000u, floatBits(-1.0f),
                                               0x7f800000u, 0xffc00000u, 0x80000000u};
  const std::vector<std::uint32_t> order = {7, 1, 5, 3, 4, 8, 2, 6, 0};
  std::vector<std::uint32_t> sorted(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) sorted[i] = specials[order[i]];
  record("orders f32 NaN, inf, -0 and +0 as CUB does",
         knownSort(l, KeyType::kF32, true, specials, sorted, order, stream));
  return ka;
}

class SortDriver : public cuda::FamilyDriver {
 public:
  SortDriver() : m_family(sortFamilyDeclaration()) {}
  const Family& family() const override { return m_family; }
  std::unique_ptr<cuda::FamilyCase> prepare(const KernelDescriptor& k, const CaseSize& size,
                                            const cuda::DriverContext& ctx) override {
    const SortSize s = sortSizeOf(checkedSize(m_family, size));
    const SortLauncher& l = cuda::launcherOf<SortLauncher>(k);
    // The case's buffers, then what its verification adds: CUB's output and scratch, the
    // permutation bitmap.
    const double words = s.pairs ? 2.0 : 1.0, n = double(s.count);
    const double need =
        4.0 * words * (2.0 * n + 1) + double(scratchOf(l, s)) + CubSorted::bytesFor(s);
    std::size_t freeBytes = 0, total = 0;
    KWB_CUDA_CHECK(cudaMemGetInfo(&freeBytes, &total));
    if (need + kHeadroomBytes > double(freeBytes))
      throw InputError("sort " + sizeText(size) + " needs " + mib(need) +
                       " MiB of device memory, " + mib(double(freeBytes)) + " MiB free");
    return std::make_unique<SortCase>(s, scratchOf(l, s), ctx.seed, ctx.stream,
                                      cuda::inputSetsWanted(ctx));
  }
  KnownAnswer knownAnswer(const KernelDescriptor& k, const cuda::DriverContext& ctx) override {
    return sortKnownAnswer(k, ctx.stream);
  }

 private:
  Family m_family;
};

}  // namespace

std::shared_ptr<cuda::FamilyDriver> sortFamilyDriver() { return std::make_shared<SortDriver>(); }

}  // namespace kwb::kernels::sort
