// SPDX-License-Identifier: Apache-2.0
// The histogram family's reference: cub::DeviceHistogram::HistogramEven over the family's
// levels (u8: B + 1 levels over [0, 256); f32: over [0, 1)), its temporary storage taken from
// the launch's scratch. CUB sizes that storage itself: called with a null storage pointer it
// only writes the byte count (no launch), which is what scratchBytes returns. CUB writes every
// counter (it clears them itself), so the launcher does not.
#include <cub/device/device_histogram.cuh>

#include <climits>
#include <stdexcept>

#include "histogram/histogram_common.cuh"
#include "histogram/histogram_descriptors.h"

namespace kwb::kernels {
namespace {

// CUB's entry point for the sample type, with an int sample count when the count fits (the
// offset type CUB is tuned for) and a 64-bit one above.
template <typename T>
cudaError_t histogramEven(void* temp, std::size_t& bytes, const void* samples, unsigned* hist,
                          int bins, std::int64_t n, cudaStream_t stream) {
  const auto* s = static_cast<const T*>(samples);
  using Level = std::conditional_t<std::is_same_v<T, float>, float, int>;
  const Level lower = 0, upper = std::is_same_v<T, float> ? Level(1) : Level(256);
  if (n <= INT_MAX)
    return cub::DeviceHistogram::HistogramEven(temp, bytes, s, hist, bins + 1, lower, upper, int(n),
                                               stream);
  return cub::DeviceHistogram::HistogramEven(temp, bytes, s, hist, bins + 1, lower, upper, n,
                                             stream);
}

std::size_t scratch(std::int64_t count, SampleType type, int bins) {
  std::size_t bytes = 0;
  hist::dispatch(type, [&](auto zero) {
    KWB_CUDA_CHECK(
        histogramEven<decltype(zero)>(nullptr, bytes, nullptr, nullptr, bins, count, nullptr));
  });
  return bytes;
}

LaunchInfo launch(const HistogramArgs& a) {
  hist::dispatch(a.type, [&](auto zero) {
    using T = decltype(zero);
    std::size_t bytes = 0;
    KWB_CUDA_CHECK(
        histogramEven<T>(nullptr, bytes, a.samples, a.histogram, a.bins, a.count, a.stream));
    if (a.scratchBytes < bytes)
      throw std::invalid_argument("cub.histogram_even: scratch smaller than scratchBytes()");
    KWB_CUDA_CHECK(
        histogramEven<T>(a.scratch, bytes, a.samples, a.histogram, a.bins, a.count, a.stream));
  });
  return {false, "cub.histogram_even"};
}

}  // namespace

KernelDescriptor cubHistogramEvenRef() {
  return histogramDescriptor("cub.histogram_even", "CUB DeviceHistogram::HistogramEven", true,
                             "cub::DeviceHistogram::HistogramEven, temp storage from scratch",
                             {&launch, &scratch});
}

}  // namespace kwb::kernels
