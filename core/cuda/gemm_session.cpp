// SPDX-License-Identifier: Apache-2.0
#include "kwb/cuda/gemm_session.h"

#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "kwb/compare.h"
#include "kwb/cuda/cublas_gemm.h"
#include "kwb/cuda/device.h"
#include "kwb/cuda/device_kernels.h"
#include "kwb/cuda/reference_dgemm.h"
#include "kwb/cuda/verdict.h"
#include "kwb/error.h"
#include "kwb/format.h"
#include "kwb/seeded.h"
#include "kwb/cuda/reference_fp64.h"

namespace kwb::cuda {
namespace {

// Room left for cuBLAS workspaces and the CUDA context's own growth.
constexpr double kHeadroomBytes = 64.0 * (1 << 20);

int selectDevice(int device) {
  std::string reason;
  const int n = deviceCount(&reason);
  if (n == 0) throw NoDeviceError(reason);
  if (device < 0 || device >= n)
    throw NoDeviceError("no CUDA device " + std::to_string(device) + ": this machine has " +
                        std::to_string(n));
  KWB_CUDA_CHECK(cudaSetDevice(device));
  return device;
}

std::size_t count(std::int64_t rows, std::int64_t cols) {
  return std::size_t(rows) * std::size_t(cols);
}

}  // namespace

PreparedCase::PreparedCase(const Shape& s, std::uint64_t seed, Precision inputs, bool withC,
                           CUstream_st* stream, cublasContext* cublas)
    : m_shape(s),
      m_seed(seed),
      m_inputs(inputs),
      m_stream(stream),
      m_cublas(cublas),
      m_a(count(s.m, s.k)),
      m_b(count(s.k, s.n)),
      m_c(withC ? count(s.m, s.n) : 0),
      m_a16(inputElementBytes(inputs) == 2 ? count(s.m, s.k) : 0),
      m_b16(inputElementBytes(inputs) == 2 ? count(s.k, s.n) : 0) {}

GemmArgs PreparedCase::args(float alpha, float beta) const {
  GemmArgs a;
  a.shape = m_shape;
  a.alpha = alpha;
  a.beta = beta;
  a.a = m_a.get();
  a.b = m_b.get();
  const void* a16 = m_a16.empty() ? nullptr : m_a16.get();
  const void* b16 = m_b16.empty() ? nullptr : m_b16.get();
  if (bf16Inputs()) {
    a.aBf16 = a16;
    a.bBf16 = b16;
  } else {
    a.aHalf = a16;
    a.bHalf = b16;
  }
  a.c = m_c.get();
  a.stream = m_stream;
  a.cublas = m_cublas;
  return a;
}

std::size_t PreparedCase::deviceBytes() const {
  return m_a.bytes() + m_b.bytes() + m_c.bytes() + m_a16.bytes() + m_b16.bytes();
}

GemmSession::GemmSession(int device)
    : m_device(selectDevice(device)),
      m_owned(std::in_place),
      m_stream(m_owned->get()),
      m_cublas(m_stream) {}

GemmSession::GemmSession(int device, CUstream_st* stream)
    : m_device(selectDevice(device)), m_stream(stream), m_cublas(m_stream) {}

void GemmSession::upload(float* dst, const std::vector<float>& src) {
  KWB_CUDA_CHECK(cudaMemcpyAsync(dst, src.data(), src.size() * sizeof(float),
                                 cudaMemcpyHostToDevice, m_stream));
}

void GemmSession::download(std::vector<float>& dst, const float* src) {
  KWB_CUDA_CHECK(cudaMemcpyAsync(dst.data(), src, dst.size() * sizeof(float),
                                 cudaMemcpyDeviceToHost, m_stream));
  KWB_CUDA_CHECK(cudaStreamSynchronize(m_stream));  // a kernel's asynchronous fault surfaces here
}

std::unique_ptr<PreparedCase> GemmSession::prepare(const KernelDescriptor& k, const Shape& s,
                                                   std::uint64_t seed, bool withC) {
  if (s.m < 1 || s.n < 1 || s.k < 1 || s.m > kMaxDimension || s.n > kMaxDimension ||
      s.k > kMaxDimension)
    throw InputError("shape " + toString(s) + " is not a GEMM shape (each of M, N, K in 1 … " +
                     std::to_string(kMaxDimension) + ")");
  const bool with16 = inputElementBytes(k.precision) == 2;
  const bool bf16 = k.precision == Precision::kBf16Fp32Acc;
  // In double: M·K·4 overflows 64 bits long before these shapes are refused.
  const double mk = double(s.m) * double(s.k), kn = double(s.k) * double(s.n);
  const double mn = double(s.m) * double(s.n);
  // The case's reference, when not cached yet, is computed into its own M×N buffer.
  const bool refCached = m_cache.count(Key{s, seed, k.reference, bf16}) > 0;
  const double need = 4.0 * (mk + kn + (withC ? mn : 0.0)) + (with16 ? 2.0 * (mk + kn) : 0.0) +
                      (refCached ? 0.0 : 4.0 * mn) + kHeadroomBytes;
  std::size_t freeBytes = 0, totalBytes = 0;
  memoryInfo(&freeBytes, &totalBytes);
  while (need > double(freeBytes) && !m_cacheOrder.empty()) {
    evictOldest();  // cached references of earlier shapes give way to the case at hand
    memoryInfo(&freeBytes, &totalBytes);
  }
  if (need > double(freeBytes))
    throw InputError("shape " + toString(s) + " needs " + mib(need) + " MiB of device memory, " +
                     mib(double(freeBytes)) + " MiB free");

  std::unique_ptr<PreparedCase> p(
      new PreparedCase(s, seed, k.precision, withC, m_stream, m_cublas.get()));
  // Generated in place on the device: the same values as seededMatrix, no host copy.
  const std::uint64_t baseA = seededBase(seed, SeedStream::kA);
  const std::uint64_t baseB = seededBase(seed, SeedStream::kB);
  if (bf16) {
    launchFillSeededBf16(p->m_a.get(), p->m_a16.get(), s.m * s.k, baseA, m_stream);
    launchFillSeededBf16(p->m_b.get(), p->m_b16.get(), s.k * s.n, baseB, m_stream);
    return p;
  }
  launchFillSeeded(p->m_a.get(), s.m * s.k, baseA, m_stream);
  launchFillSeeded(p->m_b.get(), s.k * s.n, baseB, m_stream);
  if (with16) {
    launchFillSeededHalf(p->m_a16.get(), s.m * s.k, baseA, m_stream);
    launchFillSeededHalf(p->m_b16.get(), s.k * s.n, baseB, m_stream);
  }
  return p;
}

void GemmSession::evictOldest() {
  const auto old = m_cache.find(m_cacheOrder.front());
  m_cachedBytes -= old->second->beta0.bytes();
  m_cache.erase(old);
  m_cacheOrder.pop_front();
}

std::shared_ptr<const GemmSession::Reference> GemmSession::reference(bool fp64, PreparedCase& p) {
  const Key key{p.shape(), p.seed(), fp64, p.bf16Inputs()};
  if (const auto it = m_cache.find(key); it != m_cache.end()) return it->second;

  const Shape& s = p.shape();
  auto ref = std::make_shared<Reference>();
  ref->beta0 = DeviceBuffer<float>(count(s.m, s.n));
  GemmArgs args = p.args(1.0f, 0.0f);
  args.c = ref->beta0.get();
  if (fp64) {
    // cuBLAS DGEMM on exact double copies; the FP64 kernel when those do not fit.
    if (!referenceDgemm(args))
      KWB_CUDA_CHECK(launchReferenceFp64(int(s.m), int(s.n), int(s.k), 1.0f, args.a, args.b, 0.0f,
                                         args.c, args.stream));
  } else {
    sgemmRowMajor(args);
  }
  ++m_referencesComputed;

  std::size_t freeBytes = 0, totalBytes = 0;
  memoryInfo(&freeBytes, &totalBytes);
  const auto budget = std::size_t(kCacheShare * double(totalBytes));
  const std::size_t bytes = ref->beta0.bytes();
  while (!m_cacheOrder.empty() && m_cachedBytes + bytes > budget) evictOldest();
  if (bytes <= budget) {
    m_cache.emplace(key, ref);
    m_cacheOrder.push_back(key);
    m_cachedBytes += bytes;
  }
  return ref;
}

CaseResult GemmSession::verify(const KernelDescriptor& k, PreparedCase& p) {
  const Shape& s = p.shape();
  CaseResult c;
  c.kernel = k.id;
  c.size = gemmSize(s);
  c.precision = k.precision;
  c.ranKernel = k.id;
  Verification v;
  v.reference = k.reference ? "gpu.fp64" : "cublas.sgemm";
  v.seed = p.seed();
  v.tolerance = Tolerance{k.rtol(), k.atol()};
  if (k.reference) v.tolerance = depthScaledTolerance(v.tolerance, s.k);  // vs FP64, see compare.h
  try {
    const auto ref = reference(k.reference, p);
    DeviceCompareArgs cmp;
    cmp.got = p.c();
    cmp.expected = ref->beta0.get();
    cmp.rows = s.m;
    cmp.cols = s.n;
    cmp.rtol = v.tolerance.rtol;
    cmp.atol = v.tolerance.atol;

    // 1. Canary: every element the kernel fails to write keeps the 0xAA pattern.
    KWB_CUDA_CHECK(cudaMemsetAsync(p.c(), 0xAA, count(s.m, s.n) * sizeof(float), m_stream));
    const LaunchInfo first = k.launch(p.args(1.0f, 0.0f));
    // 2. NaN/Inf-aware comparison with the kernel's tolerance, in one pass on the device.
    const DeviceComparison plain = m_comparer.compare(cmp, m_stream);
    v.unwritten = plain.unwritten;
    v.compare = plain.report;
    // 3. Negative control: the same comparison must reject a mangled copy of the reference.
    DeviceCompareArgs control = cmp;
    control.got = nullptr;
    control.mangle = true;
    v.negativeControlRejected = !m_comparer.compare(control, m_stream).report.passed();
    // 4. Quiet NaNs in C at beta = 0: BLAS never reads C then, so none may come out. (The
    // canary above is a finite float, -3.0e-13: 0 · canary hides a read of C.)
    KWB_CUDA_CHECK(cudaMemsetAsync(p.c(), 0xFF, count(s.m, s.n) * sizeof(float), m_stream));
    const LaunchInfo nanRun = k.launch(p.args(1.0f, 0.0f));
    v.nanFromOutput = m_comparer.compare(cmp, m_stream).report.nonFinite;
    // 5. alpha ≠ 1, beta ≠ 0 on a seeded prefilled C: catches a kernel that ignores C or beta.
    const std::uint64_t prefill = seededBase(p.seed(), SeedStream::kCPrefill);
    launchFillSeeded(p.c(), s.m * s.n, prefill, m_stream);
    const LaunchInfo second = k.launch(p.args(kCheckAlpha, kCheckBeta));
    DeviceCompareArgs ab = cmp;
    ab.alphaBeta = true;
    ab.alpha = kCheckAlpha;
    ab.beta = kCheckBeta;
    ab.prefillBase = prefill;
    v.alphaBeta = m_comparer.compare(ab, m_stream).report;

    c.fallback = first.fallback || nanRun.fallback || second.fallback;
    if (!first.ranKernel.empty()) c.ranKernel = std::string(first.ranKernel);
    c.verification = v;
    applyVerdict(c);
  } catch (const CudaError& e) {
    c.verification = v;
    c.status = CaseStatus::kError;
    c.message = e.what();
    if (e.sticky()) throw ContextLost(e, c);
  }
  return c;
}

CompareReport GemmSession::compareOutput(const KernelDescriptor& k, PreparedCase& inputs,
                                         const float* got, const Tolerance& tol) {
  const Shape& s = inputs.shape();
  const auto ref = reference(k.reference, inputs);
  DeviceCompareArgs cmp;
  cmp.got = got;
  cmp.expected = ref->beta0.get();
  cmp.rows = s.m;
  cmp.cols = s.n;
  cmp.rtol = tol.rtol;
  cmp.atol = tol.atol;
  return m_comparer.compare(cmp, m_stream).report;
}

CaseResult GemmSession::verifyCase(const KernelDescriptor& k, const Shape& s, std::uint64_t seed) {
  const auto p = prepare(k, s, seed);
  return verify(k, *p);
}

KnownAnswer GemmSession::knownAnswerTest() {
  KnownAnswer kat;
  kat.shape = Shape{37, 29, 41};  // odd in every dimension: no tile or vector width divides it
  const Shape& s = kat.shape;
  constexpr std::uint64_t kSeed = 0x4B4154;  // "KAT"
  kat.ran = true;
  try {
    const std::vector<float> a = seededMatrix(kSeed, SeedStream::kA, s.m * s.k);
    const std::vector<float> b = seededMatrix(kSeed, SeedStream::kB, s.k * s.n);
    std::vector<float> expected(std::size_t(s.m * s.n));
    for (std::int64_t i = 0; i < s.m; ++i)
      for (std::int64_t j = 0; j < s.n; ++j) {
        double acc = 0.0;
        for (std::int64_t q = 0; q < s.k; ++q)
          acc += double(a[std::size_t(i * s.k + q)]) * double(b[std::size_t(q * s.n + j)]);
        expected[std::size_t(i * s.n + j)] = float(acc);
      }
    DeviceBuffer<float> da(a.size()), db(b.size()), dc(expected.size());
    upload(da.get(), a);
    upload(db.get(), b);
    GemmArgs args;
    args.shape = s;
    args.a = da.get();
    args.b = db.get();
    args.c = dc.get();
    args.stream = m_stream;
    args.cublas = m_cublas.get();
    sgemmRowMajor(args);
    std::vector<float> got(expected.size());
    download(got, dc.get());
    const Tolerance tol{1e-3, 1e-4};
    const CompareReport r = compareMatrices(got, expected, s.m, s.n, tol);
    kat.passed = r.passed();
    kat.maxRelError = r.maxRelError;
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "cublas.sgemm %s vs CPU FP64: %lld mismatches, max abs err %.3g, max rel err "
                  "%.3g (rtol 1e-3, atol 1e-4)",
                  toString(s).c_str(), static_cast<long long>(r.mismatches), r.maxAbsError,
                  r.maxRelError);
    kat.detail = buf;
  } catch (const CudaError& e) {
    kat.passed = false;
    kat.detail = e.what();
    if (e.sticky()) throw;
  }
  return kat;
}

}  // namespace kwb::cuda
