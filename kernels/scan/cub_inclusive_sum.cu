// SPDX-License-Identifier: Apache-2.0
// The scan family's reference: cub::DeviceScan::InclusiveSum (a decoupled look-back scan),
// temporary storage from the launch's scratch, sized by CUB's own null-pointer query.
#include <cub/device/device_scan.cuh>

#include <climits>
#include <stdexcept>

#include "reduce/vector_common.cuh"
#include "scan/scan_descriptors.h"

namespace kwb::kernels {
namespace {

template <typename T>
cudaError_t inclusiveSum(void* temp, std::size_t& bytes, const void* in, void* out, std::int64_t n,
                         cudaStream_t stream) {
  const auto* i = static_cast<const T*>(in);
  auto* o = static_cast<T*>(out);
  if (n <= INT_MAX) return cub::DeviceScan::InclusiveSum(temp, bytes, i, o, int(n), stream);
  return cub::DeviceScan::InclusiveSum(temp, bytes, i, o, n, stream);
}

std::size_t scratch(std::int64_t count, ElementType type) {
  std::size_t bytes = 0;
  vec::dispatch(type, [&](auto zero) {
    KWB_CUDA_CHECK(inclusiveSum<decltype(zero)>(nullptr, bytes, nullptr, nullptr, count, nullptr));
  });
  return bytes;
}

LaunchInfo launch(const VectorArgs& a) {
  if (a.count == 0) return {false, "cub.inclusive_sum"};
  vec::dispatch(a.type, [&](auto zero) {
    using T = decltype(zero);
    std::size_t bytes = 0;
    KWB_CUDA_CHECK(inclusiveSum<T>(nullptr, bytes, a.in, a.out, a.count, a.stream));
    if (a.scratchBytes < bytes)
      throw std::invalid_argument("cub.inclusive_sum: scratch smaller than scratchBytes()");
    KWB_CUDA_CHECK(inclusiveSum<T>(a.scratch, bytes, a.in, a.out, a.count, a.stream));
  });
  return {false, "cub.inclusive_sum"};
}

}  // namespace

KernelDescriptor cubInclusiveSumRef() {
  return vectorDescriptor("cub.inclusive_sum", "CUB DeviceScan::InclusiveSum", "scan", true,
                          "cub::DeviceScan::InclusiveSum, temp storage from scratch", &launch,
                          &scratch);
}

}  // namespace kwb::kernels
