// SPDX-License-Identifier: Apache-2.0
#pragma once
// The correctness pipeline of every 1-D family (reduce, scan, ...; docs/FAMILIES.md,
// docs/VALIDATION.md "Reduce and scan"): seeded input on the device, canary-filled output,
// the family's reference (kwb/cuda/vector_family.h) on the host over bounded chunks, the
// negative control and the family's known-answer test. No timing here.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kwb/cuda/device_buffer.h"
#include "kwb/cuda/measure.h"
#include "kwb/cuda/vector_family.h"
#include "kwb/cuda/vector_kernels.h"
#include "kwb/family.h"
#include "kwb/kernel_descriptor.h"
#include "kwb/results.h"
#include "kwb/vector_args.h"

namespace kwb::cuda {

// Device buffers of one 1-D case: the input (filled once), the output and the scratch, and the
// further input sets its timed launches rotate through (kwb run --fresh-inputs).
class VectorCase {
 public:
  // The launch on input set `set` (0: the case's own), writing the case's output.
  VectorArgs args(int set = 0) const;
  const VectorSize& size() const { return m_size; }
  std::int64_t outputCount() const { return m_outCount; }
  int inputSets() const { return 1 + int(m_moreIn.size()); }
  std::size_t deviceBytes() const;

 private:
  friend class VectorSession;
  VectorSize m_size;
  std::int64_t m_outCount = 0;
  std::uint64_t m_seed = 0;
  CUstream_st* m_stream = nullptr;
  DeviceBuffer<std::uint32_t> m_in, m_out;  // 4-byte elements; m_out at least one
  DeviceBuffer<unsigned char> m_scratch;
  std::vector<DeviceBuffer<std::uint32_t>> m_moreIn;  // input sets 1 … K − 1
};

class VectorSession {
 public:
  explicit VectorSession(CUstream_st* stream) : m_stream(stream) {}

  // Checks the memory needed against the free device memory first (InputError naming the
  // size and both amounts), then fills the input with `pattern` (seeded from `seed`).
  std::unique_ptr<VectorCase> prepare(const VectorFamily& f, const KernelDescriptor& k,
                                      const VectorSize& s, std::uint64_t seed,
                                      VectorPattern pattern = VectorPattern::kSeeded);

  // For float outputs, a run on an output of quiet NaNs first: NaNs out → nanFromOutput.
  // Canary run (output filled with 0xAA bytes) → unwritten elements and the comparison with
  // the family's reference ("cpu.fp64": FP64, int64 for int32); the negative control (the
  // comparator must reject a mangled copy of the reference). Returns a case with its size,
  // status, message and verification. CUDA errors throw CudaError.
  CaseResult verify(const VectorFamily& f, const KernelDescriptor& k, VectorCase& c);

  // Up to `wanted` − 1 further input sets (seeds kwb/cuda/input_sets.h), as many as fit the
  // device's free memory; returns the sets the case then has.
  int addInputSets(VectorCase& c, int wanted);

  // The output as the case's launches left it against the family's reference of input set
  // `set` with `tol` (the verification's): the timed launches' check (docs/VALIDATION.md,
  // "Timed launches").
  CompareReport compareTimedOutput(const VectorFamily& f, const VectorCase& c, const Tolerance& tol,
                                   int set = 0);
  // Fills the output with quiet NaNs (0xFF bytes), on the stream.
  void fillNan(VectorCase& c);

  // The family's known answer (VectorFamily::knownAnswer), run with `k` (its reference kernel
  // where the plan has it) in both types, n = 1000.
  KnownAnswer knownAnswerTest(const VectorFamily& f, const KernelDescriptor& k);

 private:
  // NaN outputs of one launch on an output filled with quiet NaNs (float outputs).
  std::int64_t nanAfterNanFill(const KernelDescriptor& k, VectorCase& c);
  CUstream_st* m_stream;
};

// The comparison of one 1-D output with its reference, on the host in bounded chunks
// (at most kVectorChunk elements of input and of output at a time).
inline constexpr std::int64_t kVectorChunk = std::int64_t{1} << 22;

// Device-to-device copy bandwidth: a cudaMemcpyAsync of up to 1 GiB (a quarter of the free
// memory at most) timed with the run's timer; read + write bytes / median time, in GB/s.
double measureCopyBandwidth(CUstream_st* stream, const MeasureOptions& opt);

}  // namespace kwb::cuda
