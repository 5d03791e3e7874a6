// SPDX-License-Identifier: Apache-2.0
// The reduce family's reference: cub::DeviceReduce::Sum, its temporary storage taken from the
// launch's scratch. CUB sizes that storage itself: called with a null storage pointer it only
// writes the byte count (no allocation, no launch), which is what scratchBytes returns.
#include <cub/device/device_reduce.cuh>

#include <climits>
#include <stdexcept>

#include "reduce/reduce_descriptors.h"
#include "reduce/vector_common.cuh"

namespace kwb::kernels {
namespace {

// CUB's entry point for the element type, with an int item count when the count fits (the
// offset type CUB is tuned for) and a 64-bit one above.
template <typename T>
cudaError_t deviceSum(void* temp, std::size_t& bytes, const void* in, void* out, std::int64_t n,
                      cudaStream_t stream) {
  const auto* i = static_cast<const T*>(in);
  auto* o = static_cast<T*>(out);
  if (n <= INT_MAX) return cub::DeviceReduce::Sum(temp, bytes, i, o, int(n), stream);
  return cub::DeviceReduce::Sum(temp, bytes, i, o, n, stream);
}

std::size_t scratch(std::int64_t count, ElementType type) {
  std::size_t bytes = 0;
  vec::dispatch(type, [&](auto zero) {
    KWB_CUDA_CHECK(deviceSum<decltype(zero)>(nullptr, bytes, nullptr, nullptr, count, nullptr));
  });
  return bytes;
}

LaunchInfo launch(const VectorArgs& a) {
  vec::dispatch(a.type, [&](auto zero) {
    using T = decltype(zero);
    std::size_t bytes = 0;
    KWB_CUDA_CHECK(deviceSum<T>(nullptr, bytes, a.in, a.out, a.count, a.stream));
    if (a.scratchBytes < bytes)
      throw std::invalid_argument("cub.reduce_sum: scratch smaller than scratchBytes()");
    KWB_CUDA_CHECK(deviceSum<T>(a.scratch, bytes, a.in, a.out, a.count, a.stream));
  });
  return {false, "cub.reduce_sum"};
}

}  // namespace

KernelDescriptor cubReduceSumRef() {
  return vectorDescriptor("cub.reduce_sum", "CUB DeviceReduce::Sum", "reduce", true,
                          "cub::DeviceReduce::Sum, temp storage from scratch", &launch, &scratch);
}

}  // namespace kwb::kernels
