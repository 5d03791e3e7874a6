// SPDX-License-Identifier: Apache-2.0
// The sort family's reference: cub::DeviceRadixSort::SortKeys / SortPairs (a one-sweep radix
// sort on sm_80 and later), f32 keys as float so CUB applies its own order, temporary storage
// from the launch's scratch, sized by CUB's own null-pointer query.
#include <cub/device/device_radix_sort.cuh>

#include "sort/sort_common.cuh"
#include "sort/sort_descriptors.h"

namespace kwb::kernels::sort {
namespace {

template <bool kFloat, bool kPairs>
cudaError_t cubSort(void* temp, std::size_t& bytes, const SortArgs& a) {
  using Key = std::conditional_t<kFloat, float, std::uint32_t>;
  const auto* in = reinterpret_cast<const Key*>(a.keysIn);
  auto* out = reinterpret_cast<Key*>(a.keysOut);
  const int n = int(a.count);  // at most kMaxSortCount = INT_MAX
  if constexpr (kPairs)
    return cub::DeviceRadixSort::SortPairs(temp, bytes, in, out, a.valuesIn, a.valuesOut, n, 0, 32,
                                           a.stream);
  else
    return cub::DeviceRadixSort::SortKeys(temp, bytes, in, out, n, 0, 32, a.stream);
}

std::size_t tempBytes(const SortArgs& a) {
  std::size_t bytes = 0;
  dispatch(a, [&](auto isFloat, auto pairs) {
    KWB_CUDA_CHECK((cubSort<isFloat.value, pairs.value>(nullptr, bytes, a)));
  });
  return bytes;
}

std::size_t scratch(std::int64_t count, KeyType type, bool pairs) {
  SortArgs a;
  a.count = count;
  a.type = type;
  a.pairs = pairs;
  return tempBytes(a);
}

LaunchInfo launch(const SortArgs& a) {
  if (a.count == 0) return {false, "cub.radix_sort"};
  std::size_t bytes = tempBytes(a);
  checkScratch(a, bytes, "cub.radix_sort");
  dispatch(a, [&](auto isFloat, auto pairs) {
    KWB_CUDA_CHECK((cubSort<isFloat.value, pairs.value>(a.scratch, bytes, a)));
  });
  return {false, "cub.radix_sort"};
}

}  // namespace

KernelDescriptor cubRadixSortRef() {
  return sortDescriptor("cub.radix_sort", "CUB DeviceRadixSort", true,
                        "cub::DeviceRadixSort::SortKeys / SortPairs, temp storage from scratch",
                        &launch, &scratch);
}

}  // namespace kwb::kernels::sort
