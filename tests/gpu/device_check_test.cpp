// SPDX-License-Identifier: Apache-2.0
// The device half of verification against its host oracle: generation (seededMatrix) and the
// one-pass comparison (compareMatrices) on planted errors, and one reference per shape.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "gpu_fixture.h"
#include "kwb/compare.h"
#include "kwb/cuda/device_compare.h"
#include "kwb/cuda/device_kernels.h"
#include "kwb/cuda/cublas_handle.h"
#include "kwb/cuda/gemm_session.h"
#include "kwb/cuda/reference_dgemm.h"
#include "kwb/cuda/stream.h"
#include "kwb/seeded.h"
#include "kwb/cuda/reference_fp64.h"
#include "registry.h"

namespace {

using kwb::SeedStream;
using kwb::cuda::DeviceBuffer;

class DeviceCheck : public GpuTest {};

template <typename T>
std::vector<T> download(const DeviceBuffer<T>& d) {
  std::vector<T> out(d.size());
  EXPECT_EQ(cudaMemcpy(out.data(), d.get(), d.bytes(), cudaMemcpyDeviceToHost), cudaSuccess);
  return out;
}

DeviceBuffer<float> upload(const std::vector<float>& v) {
  DeviceBuffer<float> d(v.size());
  EXPECT_EQ(cudaMemcpy(d.get(), v.data(), d.bytes(), cudaMemcpyHostToDevice), cudaSuccess);
  return d;
}

TEST_F(DeviceCheck, GenerationEqualsHostBitForBit) {
  for (const std::uint64_t seed : {std::uint64_t{0}, std::uint64_t{0x5EED}, ~std::uint64_t{0}})
    for (const SeedStream s : {SeedStream::kA, SeedStream::kB, SeedStream::kCPrefill})
      for (const std::int64_t count :
           {std::int64_t{1}, std::int64_t{7}, std::int64_t{129 * 65 + 3}}) {
        const std::vector<float> host = kwb::seededMatrix(seed, s, count);
        DeviceBuffer<float> d{std::size_t(count)};
        DeviceBuffer<std::uint16_t> h{std::size_t(count)};
        kwb::cuda::launchFillSeeded(d.get(), count, kwb::seededBase(seed, s), nullptr);
        kwb::cuda::launchFillSeededHalf(h.get(), count, kwb::seededBase(seed, s), nullptr);
        const std::vector<float> dev = download(d);
        ASSERT_EQ(dev.size(), host.size());
        for (std::size_t i = 0; i < host.size(); ++i)
          ASSERT_EQ(std::bit_cast<std::uint32_t>(dev[i]), std::bit_cast<std::uint32_t>(host[i]))
              << "seed " << seed << " stream " << int(s) << " element " << i;
        EXPECT_EQ(download(h), kwb::toHalfBits(host));
      }
}

void expectSameReport(const kwb::CompareReport& dev, const kwb::CompareReport& host) {
  EXPECT_EQ(dev.elements, host.elements);
  EXPECT_EQ(dev.mismatches, host.mismatches);
  EXPECT_EQ(dev.nonFinite, host.nonFinite);
  EXPECT_EQ(dev.maxAbsError, host.maxAbsError);
  EXPECT_EQ(dev.maxRelError, host.maxRelError);
  ASSERT_EQ(dev.firstMismatch.has_value(), host.firstMismatch.has_value());
  if (host.firstMismatch) {
    EXPECT_EQ(dev.firstMismatch->row, host.firstMismatch->row);
    EXPECT_EQ(dev.firstMismatch->col, host.firstMismatch->col);
    const double g = dev.firstMismatch->got, hg = host.firstMismatch->got;
    EXPECT_TRUE(g == hg || (std::isnan(g) && std::isnan(hg))) << g << " vs " << hg;
    EXPECT_EQ(dev.firstMismatch->expected, host.firstMismatch->expected);
  }
  // The first few mismatches, in row-major order, with their values.
  ASSERT_EQ(dev.firstMismatches.size(), host.firstMismatches.size());
  for (std::size_t i = 0; i < host.firstMismatches.size(); ++i) {
    const auto &d = dev.firstMismatches[i], &h = host.firstMismatches[i];
    EXPECT_EQ(d.row, h.row) << "mismatch " << i;
    EXPECT_EQ(d.col, h.col) << "mismatch " << i;
    EXPECT_TRUE(d.got == h.got || (std::isnan(d.got) && std::isnan(h.got))) << "mismatch " << i;
    EXPECT_EQ(d.expected, h.expected) << "mismatch " << i;
  }
  EXPECT_EQ(dev.grid.rows, host.grid.rows);
  EXPECT_EQ(dev.grid.cols, host.grid.cols);
  EXPECT_EQ(dev.grid.mismatches, host.grid.mismatches);
  ASSERT_EQ(dev.grid.maxAbs.size(), host.grid.maxAbs.size());
  for (std::size_t i = 0; i < host.grid.maxAbs.size(); ++i) {
    const double d = dev.grid.maxAbs[i], h = host.grid.maxAbs[i];
    EXPECT_TRUE(d == h || (std::isnan(d) && std::isnan(h)))
        << "cell " << i << ": " << d << " vs " << h;
  }
}

struct Planted {
  std::int64_t rows, cols;
};

// NaN, +Inf, -Inf against a finite value, the same Inf on both sides (a match), one wrong
// element in the last row and one in the last column, the very last element, and an unwritten
// tile (the canary) — on shapes whose sides no tile width divides, and one smaller than the grid.
TEST_F(DeviceCheck, ComparisonEqualsHostOnPlantedErrors) {
  const kwb::Tolerance tol{1e-3, 1e-4};
  for (const Planted p : {Planted{129, 65}, Planted{37, 53}, Planted{5, 3}, Planted{1, 300}}) {
    SCOPED_TRACE(std::to_string(p.rows) + "x" + std::to_string(p.cols));
    const std::int64_t n = p.rows * p.cols;
    std::vector<float> expected = kwb::seededMatrix(7, SeedStream::kA, n);
    std::vector<float> got = expected;
    for (std::size_t i = 0; i < got.size(); i += 5) got[i] += 1e-5f;  // within tolerance
    auto at = [&](std::int64_t r, std::int64_t c) -> float& {
      return got[std::size_t(r * p.cols + c)];
    };
    at(p.rows / 2, p.cols / 2) = std::numeric_limits<float>::quiet_NaN();
    at(p.rows - 1, 0) = std::numeric_limits<float>::infinity();
    at(0, p.cols - 1) += 0.5f;            // last column
    at(p.rows - 1, p.cols / 3) -= 0.25f;  // last row
    at(p.rows - 1, p.cols - 1) *= 3.0f;   // the last element
    at(p.rows - 1, p.cols - 1) += 1.0f;
    expected[std::size_t(p.cols / 4)] = std::numeric_limits<float>::infinity();
    got[std::size_t(p.cols / 4)] = std::numeric_limits<float>::infinity();  // same Inf: a match
    for (std::int64_t r = p.rows / 3; r < std::min(p.rows, p.rows / 3 + 9); ++r)
      for (std::int64_t c = 0; c < std::min<std::int64_t>(p.cols, 17); ++c)
        at(r, c) = kwb::canaryValue();

    const auto dGot = upload(got), dExp = upload(expected);
    kwb::cuda::DeviceCompareArgs a;
    a.got = dGot.get();
    a.expected = dExp.get();
    a.rows = p.rows;
    a.cols = p.cols;
    a.rtol = tol.rtol;
    a.atol = tol.atol;
    kwb::cuda::DeviceComparer cmp;
    const auto dev = cmp.compare(a, nullptr);
    const auto host = kwb::compareMatrices(got, expected, p.rows, p.cols, tol);
    EXPECT_GT(host.mismatches, 4);
    expectSameReport(dev.report, host);
    EXPECT_EQ(dev.unwritten, kwb::countCanary(got));
    EXPECT_GT(dev.unwritten, 0);

    // The negative control, mangled on the device, equals the host's mangled copy.
    a.got = nullptr;
    a.mangle = true;
    const auto control = cmp.compare(a, nullptr);
    expectSameReport(control.report, kwb::compareMatrices(kwb::mangledCopy(expected), expected,
                                                          p.rows, p.cols, tol));
    EXPECT_FALSE(control.report.passed());

    // alpha/beta: the expectation formed on the device from the reference and the prefill.
    a.mangle = false;
    a.got = dGot.get();
    a.alphaBeta = true;
    a.alpha = 0.75;
    a.beta = -0.5;
    a.prefillBase = kwb::seededBase(7, SeedStream::kCPrefill);
    const std::vector<float> prefill = kwb::seededMatrix(7, SeedStream::kCPrefill, n);
    std::vector<float> ab(expected.size());
    for (std::size_t i = 0; i < ab.size(); ++i)
      ab[i] = float(0.75 * double(expected[i]) + -0.5 * double(prefill[i]));
    expectSameReport(cmp.compare(a, nullptr).report,
                     kwb::compareMatrices(got, ab, p.rows, p.cols, tol));
  }
}

TEST_F(DeviceCheck, ExactMatchPasses) {
  const std::vector<float> v = kwb::seededMatrix(3, SeedStream::kB, 70 * 33);
  const auto d = upload(v);
  kwb::cuda::DeviceCompareArgs a;
  a.got = a.expected = d.get();
  a.rows = 70;
  a.cols = 33;
  a.rtol = 0;
  a.atol = 0;
  const auto r = kwb::cuda::DeviceComparer().compare(a, nullptr);
  EXPECT_TRUE(r.report.passed());
  EXPECT_EQ(r.report.maxAbsError, 0.0);
  EXPECT_EQ(r.unwritten, 0);
}

// Every kernel of a shape shares one reference per kind: two stages, one cuBLAS reference.
TEST_F(DeviceCheck, OneReferencePerShapeAndSeed) {
  kwb::cuda::GemmSession session(0);
  const auto& reg = kwb::kernels::registry();
  const kwb::Shape s{129, 65, 33};
  for (const char* id : {"sgemm.naive", "sgemm.tiled", "sgemm.naive"}) {
    const auto c = session.verifyCase(reg.find(id), s, 11);
    EXPECT_EQ(c.status, kwb::CaseStatus::kPass) << id << ": " << c.message;
  }
  EXPECT_EQ(session.referencesComputed(), 1);
  (void)session.verifyCase(reg.find("sgemm.naive"), s, 12);  // another seed: its own
  EXPECT_EQ(session.referencesComputed(), 2);
}

}  // namespace

namespace {

// The DGEMM reference and the FP64 kernel agree bit for bit where double sums are exact: the
// inputs have 12 significant bits, so every product and every partial sum of K = 47 of them
// is exact in double, and both round the same value once to float.
TEST_F(DeviceCheck, DgemmReferenceEqualsTheFp64Kernel) {
  kwb::cuda::Stream stream;
  kwb::cuda::CublasHandle cublas(stream.get());
  const kwb::Shape s{129, 65, 47};
  DeviceBuffer<float> a{std::size_t(s.m * s.k)}, b{std::size_t(s.k * s.n)};
  DeviceBuffer<float> viaDgemm{std::size_t(s.m * s.n)}, viaKernel{std::size_t(s.m * s.n)};
  kwb::cuda::launchFillSeeded(a.get(), s.m * s.k, kwb::seededBase(9, SeedStream::kA), stream.get());
  kwb::cuda::launchFillSeeded(b.get(), s.k * s.n, kwb::seededBase(9, SeedStream::kB), stream.get());
  kwb::GemmArgs args;
  args.shape = s;
  args.a = a.get();
  args.b = b.get();
  args.c = viaDgemm.get();
  args.stream = stream.get();
  args.cublas = cublas.get();
  ASSERT_TRUE(kwb::cuda::referenceDgemm(args));
  ASSERT_EQ(kwb::cuda::launchReferenceFp64(int(s.m), int(s.n), int(s.k), 1.0f, a.get(), b.get(),
                                           0.0f, viaKernel.get(), stream.get()),
            cudaSuccess);
  stream.synchronize();
  const auto x = download(viaDgemm), y = download(viaKernel);
  EXPECT_EQ(x, y);
  EXPECT_NE(x, std::vector<float>(x.size(), 0.0f));
}

}  // namespace
