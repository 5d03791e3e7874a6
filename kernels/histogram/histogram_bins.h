// SPDX-License-Identifier: Apache-2.0
#pragma once
// Which bin a sample falls in: the levels of the histogram family, written once for the
// kernels, the device generator and the host check. They are cub::DeviceHistogram::
// HistogramEven's arithmetic exactly (cub/device/dispatch/dispatch_histogram.cuh,
// ScaleTransform), so every kernel can be compared with CUB count for count:
// - u8 samples over [0, 256) in B even bins: bin = s·B / 256 in integers (B = 256: bin = s);
//   every sample is in range.
// - f32 samples over [0, 1) in B even bins: a sample is counted when 0 ≤ s < 1 (NaN, ±inf,
//   negatives and s ≥ 1 are dropped; −0 is in bin 0), and its bin is int(s · float(B)), one
//   float multiplication rounded to nearest. For s < 1 the product stays below B: the gap
//   B − s·B ≥ B·2^-24 is at least half a float step at B, so it never rounds up to B.
#if defined(__CUDACC__)
#define KWB_HISTOGRAM_HD __host__ __device__ __forceinline__
#else
#define KWB_HISTOGRAM_HD inline
#endif

namespace kwb::kernels {

KWB_HISTOGRAM_HD int binOfU8(unsigned sample, int bins) {
  return int((sample * unsigned(bins)) >> 8);
}

KWB_HISTOGRAM_HD bool inRangeF32(float sample) { return sample >= 0.0f && sample < 1.0f; }

// Meaningful only where inRangeF32(sample).
KWB_HISTOGRAM_HD int binOfF32(float sample, int bins) { return int(sample * float(bins)); }

}  // namespace kwb::kernels
