// SPDX-License-Identifier: Apache-2.0
#pragma once
// The histogram family's inputs, generated on the device (docs/FAMILIES.md, "Histogram"), and
// the in-range count the verification checks totals against. Plain C++, read by nvcc and the
// host compiler alike. Every launcher throws CudaError when its launch fails.
#include <cstdint>

#include "histogram/histogram_args.h"

namespace kwb::kernels {

// `count` samples of `type` spread over `bins` bins as `d`; sample i depends only on
// (base, i), with base = seededBase(seed, SeedStream::kA) (kwb/seeded.h), so a case is
// reproduced from its seed. u8: uniform over the 256 values, Zipf over the values (value v about
// 1/(v + 1) as likely as 0), or one value throughout. f32: uniform on [0, 1) (a 2^-24 grid),
// Zipf over the bins, or the middle of one bin; and in every distribution 1 sample in 64 out of
// range (NaN, negative, exactly 1, above 1 or +inf), which every kernel must drop as CUB does.
void launchFillSamples(void* dst, std::int64_t count, SampleType type, int bins, Distribution d,
                       std::uint64_t base, CUstream_st* stream);

// The known answer: sample i falls in bin i mod 256 (u8: the value i mod 256; f32: the middle of
// that bin, (i mod 256 + 1/2) / 256, exact in float); with 256 bins and a count that is a
// multiple of 256, every bin holds count / 256.
void launchFillKnownAnswer(void* dst, std::int64_t count, SampleType type, CUstream_st* stream);

// *out (device memory) = how many samples are in range (every u8 sample; f32 with 0 ≤ s < 1):
// the total every correct histogram of them holds. Zeroed here first.
void launchCountInRange(const void* samples, std::int64_t count, SampleType type,
                        unsigned long long* out, CUstream_st* stream);

}  // namespace kwb::kernels
