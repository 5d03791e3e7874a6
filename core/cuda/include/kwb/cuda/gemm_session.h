// SPDX-License-Identifier: Apache-2.0
#pragma once
// The correctness pipeline of one case (docs/ARCHITECTURE.md, docs/VALIDATION.md): seeded inputs,
// canary, comparison with a reference, negative control, an alpha/beta run. No timing here.
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <tuple>
#include <vector>

#include "kwb/cuda/check.h"
#include "kwb/cuda/cublas_handle.h"
#include "kwb/cuda/device_compare.h"
#include "kwb/cuda/device_buffer.h"
#include "kwb/cuda/stream.h"
#include "kwb/kernel_descriptor.h"
#include "kwb/results.h"

namespace kwb::cuda {

// Device buffers of one (kernel, shape, seed): A and B (FP32), their FP16 or BF16 copies (only
// for kernels with those inputs), and C. For BF16 inputs A and B hold the seeded values rounded
// to BF16, so the FP32 reference and the BF16 kernel read the same numbers. A and B hold the seeded
// inputs once prepared; C is scratch, each run fills it first. Made by GemmSession::prepare; needs
// the session alive.
class PreparedCase {
 public:
  // Arguments for one launch on the session's stream with its cuBLAS handle.
  GemmArgs args(float alpha, float beta) const;
  float* c() const { return m_c.get(); }
  const Shape& shape() const { return m_shape; }
  std::uint64_t seed() const { return m_seed; }
  std::size_t deviceBytes() const;

 private:
  friend class GemmSession;
  PreparedCase(const Shape& s, std::uint64_t seed, Precision inputs, bool withC,
               CUstream_st* stream, cublasContext* cublas);
  bool bf16Inputs() const { return m_inputs == Precision::kBf16Fp32Acc; }

  Shape m_shape;
  std::uint64_t m_seed;
  Precision m_inputs;  // the kernel's precision: which 16-bit copies exist, and of what
  CUstream_st* m_stream;
  cublasContext* m_cublas;
  DeviceBuffer<float> m_a, m_b, m_c;
  DeviceBuffer<std::uint16_t> m_a16, m_b16;  // FP16 (__half) or BF16 bits, by m_inputs
};

// Thrown by verify() when a CUDA error loses the context (CudaError::sticky()): the case is
// recorded as status `error` in result(), then the exception goes on so the caller stops
// running cases in this process. Derives from CudaError, so a plain `catch (CudaError&)`
// still sees it. Non-sticky CUDA errors never throw: verify() returns status `error`.
class ContextLost : public CudaError {
 public:
  ContextLost(const CudaError& e, CaseResult result)
      : CudaError(e.what(), e.code(), true), m_result(std::move(result)) {}
  const CaseResult& result() const { return m_result; }

 private:
  CaseResult m_result;
};

// One per process and device: owns the stream and the cuBLAS handle bound to it, and caches
// reference outputs per (shape, seed, reference kind). Not thread-safe.
class GemmSession {
 public:
  // Throws NoDeviceError when `device` does not exist, CudaError on a CUDA failure.
  explicit GemmSession(int device = 0);
  // The same on a stream the caller owns (a run's, kwb/cuda/family_driver.h), which must outlive
  // the session.
  GemmSession(int device, CUstream_st* stream);
  CUstream_st* stream() const { return m_stream; }
  int device() const { return m_device; }

  // Checks required vs free device memory BEFORE allocating (dropping cached references to
  // make room): throws InputError("shape MxNxK needs X MiB of device memory, Y MiB free").
  // Fills A and B on the device with seededMatrix(seed, kA / kB)'s values (FP16-exact, so
  // the FP16 copies are identical); for a BF16 kernel, those values rounded to BF16 (A, B and
  // the BF16 copies alike), with their own cached reference. No host copy of a matrix is made.
  // Without C (`withC` false): A and B alone, a further input set whose launches write the C
  // of another case (kwb run --fresh-inputs).
  std::unique_ptr<PreparedCase> prepare(const KernelDescriptor& k, const Shape& s,
                                        std::uint64_t seed, bool withC = true);

  // The pipeline: canary run (alpha=1, beta=0 on C filled with byte 0xAA) → unwritten and
  // comparison; negative control; a run at alpha=1, beta=0 on C filled with quiet NaNs (none
  // may come out: nanFromOutput); alpha/beta run on a seeded prefilled C. Reference: the
  // cublas.sgemm output for kernels, the FP64 GPU reference ("gpu.fp64") for references,
  // computed once per (shape, seed) and kept in device memory; the alpha/beta expectation is
  // alpha·reference + beta·prefill, formed inside the comparison. Everything runs on the
  // device; the host receives per-cell summaries (docs/VALIDATION.md).
  // Returns kernel, shape, precision, status, message, fallback, ranKernel, verification.
  // Throws ContextLost on a sticky CUDA error (see above).
  CaseResult verify(const KernelDescriptor& k, PreparedCase& p);
  CaseResult verifyCase(const KernelDescriptor& k, const Shape& s, std::uint64_t seed);
  // `got` (an M×N output on the device) against k's reference for `inputs` (cached, or
  // computed now), NaN/Inf-aware with `tol`: the timed launches' check (gemm_driver.cpp).
  CompareReport compareOutput(const KernelDescriptor& k, PreparedCase& inputs, const float* got,
                              const Tolerance& tol);

  // cublas.sgemm against a double-precision CPU reference on a small odd shape.
  KnownAnswer knownAnswerTest();

  // Share of the device's memory the reference cache may hold before it drops its oldest
  // entries; a reference larger than that is computed for its case and not kept.
  static constexpr double kCacheShare = 0.4;
  // How many reference computations this session ran (tests: one per shape, seed and kind).
  int referencesComputed() const { return m_referencesComputed; }

 private:
  struct Reference {
    DeviceBuffer<float> beta0;  // alpha = 1, beta = 0
  };
  // Shape, seed, FP64 reference, BF16-rounded inputs.
  using Key = std::tuple<Shape, std::uint64_t, bool, bool>;
  std::shared_ptr<const Reference> reference(bool fp64, PreparedCase& p);
  void evictOldest();
  void upload(float* dst, const std::vector<float>& src);
  void download(std::vector<float>& dst, const float* src);

  int m_device;
  std::optional<Stream> m_owned;  // empty when the stream is the caller's
  CUstream_st* m_stream;
  CublasHandle m_cublas;
  DeviceComparer m_comparer;
  std::map<Key, std::shared_ptr<const Reference>> m_cache;
  std::deque<Key> m_cacheOrder;
  std::size_t m_cachedBytes = 0;
  int m_referencesComputed = 0;
};

}  // namespace kwb::cuda
