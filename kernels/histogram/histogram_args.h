// SPDX-License-Identifier: Apache-2.0
#pragma once
// The launcher contract of the histogram family (docs/FAMILIES.md, "Histogram"): `count`
// samples of one type in, `bins` 32-bit counters out, with even bins over a fixed range as
// cub::DeviceHistogram::HistogramEven defines them (histogram_bins.h). Plain C++, read by
// nvcc and the host compiler alike; core never sees these types (KernelDescriptor::launcher
// holds a HistogramLauncher, and only this family's driver takes it out).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "kwb/kernel_descriptor.h"

namespace kwb::kernels {

enum class SampleType { kU8, kF32 };
std::string_view toString(SampleType t);            // "u8", "f32"
SampleType parseSampleType(std::string_view text);  // throws InputError naming the text
inline std::size_t sampleBytes(SampleType t) { return t == SampleType::kU8 ? 1 : 4; }

// How the samples are spread over the bins (the speed of atomics depends on it).
enum class Distribution {
  kUniform,  // every bin as likely
  kZipf,     // bin k about 1/(k+1) as likely as bin 0: a few hot bins, a long tail
  kOneBin,   // every (in-range) sample in one bin: the worst contention
};
std::string_view toString(Distribution d);              // "uniform", "zipf", "one-bin"
Distribution parseDistribution(std::string_view text);  // throws InputError naming the text

// The bins axis' range: 32 to 4096 counters.
inline constexpr int kMinBins = 32;
inline constexpr int kMaxBins = 4096;

// Everything a histogram launcher needs; the pipeline owns every buffer.
// - `samples` holds `count` samples of `type`; the launcher never writes it.
// - `histogram` holds `bins` counters; the launcher writes all of them (its kernels accumulate
//   with atomics, so it clears them first, on the stream).
// - `scratch` is scratchBytes(count, type, bins) bytes whose contents are undefined on entry.
// A launcher enqueues on `stream` only (no synchronisation, allocation or host work that depends
// on the GPU), so a CUDA graph can capture it. count may be 0.
struct HistogramArgs {
  std::int64_t count = 0;
  SampleType type = SampleType::kU8;
  int bins = 256;
  const void* samples = nullptr;
  unsigned* histogram = nullptr;
  void* scratch = nullptr;
  std::size_t scratchBytes = 0;
  CUstream_st* stream = nullptr;
};

using HistogramLaunchFn = LaunchInfo (*)(const HistogramArgs& args);
using HistogramScratchFn = std::size_t (*)(std::int64_t count, SampleType type, int bins);

// What KernelDescriptor::launcher holds for a histogram kernel.
struct HistogramLauncher {
  HistogramLaunchFn launch = nullptr;
  HistogramScratchFn scratchBytes = nullptr;  // null: no scratch
};

// A histogram kernel's descriptor: stages have family "histogram", the reference family "cub".
// The registry list sets the stage number.
KernelDescriptor histogramDescriptor(const char* id, const char* name, bool reference,
                                     const char* what, HistogramLauncher launcher);

}  // namespace kwb::kernels
