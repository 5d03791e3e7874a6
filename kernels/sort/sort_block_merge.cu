// SPDX-License-Identifier: Apache-2.0
// Stage 1: sort tiles, then merge them. Each block sorts one tile of 4096 keys in shared memory
// (cub::BlockLoad → cub::BlockRadixSort → a striped store: the whole sort inside one block),
// then log2(tiles) merge passes double the sorted runs, each output element placed by a
// merge-path search (Green, McColl & Bader, "GPU merge path", 2012): a thread binary-searches
// the diagonal of its first output in the pair of runs, then merges its 8 elements serially,
// taking the left run on ties, so the merge is stable. What it teaches: a block-local sort is
// fast but a global order costs log2(n / tile) more full read-and-write passes (16 at 2^28),
// each a dependent binary search per thread; an LSD radix sort needs 4 passes for any n.
#include <cub/block/block_load.cuh>
#include <cub/block/block_radix_sort.cuh>

#include "sort/sort_common.cuh"
#include "sort/sort_descriptors.h"

namespace kwb::kernels::sort {
namespace {

constexpr int kThreads = 256, kItems = 16, kTile = kThreads * kItems;
constexpr int kMergeThreads = 256, kMergeItems = 8;

template <bool kFloat, bool kPairs>
__global__ void __launch_bounds__(kThreads)
    blockSortKernel(const std::uint32_t* keysIn, const std::uint32_t* valuesIn,
                    std::uint32_t* keysOut, std::uint32_t* valuesOut, std::int64_t n) {
  using Key = std::conditional_t<kFloat, float, std::uint32_t>;  // CUB orders f32 as float
  using Value = std::conditional_t<kPairs, std::uint32_t, cub::NullType>;
  using LoadKeys = cub::BlockLoad<Key, kThreads, kItems, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using LoadValues =
      cub::BlockLoad<std::uint32_t, kThreads, kItems, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using Sort = cub::BlockRadixSort<Key, kThreads, kItems, Value>;
  __shared__ union {
    typename LoadKeys::TempStorage keys;
    typename LoadValues::TempStorage values;
    typename Sort::TempStorage sort;
  } s;
  const std::int64_t start = std::int64_t(blockIdx.x) * kTile;
  const int valid = int(n - start < kTile ? n - start : kTile);
  std::uint32_t padBits = kMaxKey<kFloat>;  // sorts after every key: padding lands at the end
  Key pad;
  memcpy(&pad, &padBits, 4);
  Key keys[kItems];
  LoadKeys(s.keys).Load(reinterpret_cast<const Key*>(keysIn) + start, keys, valid, pad);
  __syncthreads();
  std::uint32_t values[kItems];
  if constexpr (kPairs) {
    LoadValues(s.values).Load(valuesIn + start, values, valid, 0u);
    __syncthreads();
    Sort(s.sort).SortBlockedToStriped(keys, values);
  } else {
    Sort(s.sort).SortBlockedToStriped(keys);
  }
#pragma unroll
  for (int u = 0; u < kItems; ++u) {
    const int r = u * kThreads + int(threadIdx.x);  // striped: coalesced stores
    if (r < valid) {
      memcpy(keysOut + start + r, &keys[u], 4);
      if constexpr (kPairs) valuesOut[start + r] = values[u];
    }
  }
}

// One pass: runs of `width` sorted elements in, runs of 2·width out.
template <bool kFloat, bool kPairs>
__global__ void __launch_bounds__(kMergeThreads)
    mergeKernel(const std::uint32_t* keysIn, const std::uint32_t* valuesIn, std::uint32_t* keysOut,
                std::uint32_t* valuesOut, std::int64_t n, std::int64_t width) {
  const std::int64_t first = (std::int64_t(blockIdx.x) * kMergeThreads + threadIdx.x) * kMergeItems;
  if (first >= n) return;
  const std::int64_t pairStart = first / (2 * width) * (2 * width);
  const std::int64_t aEnd = pairStart + width < n ? pairStart + width : n;
  const std::int64_t bEnd = pairStart + 2 * width < n ? pairStart + 2 * width : n;
  const std::int64_t lenA = aEnd - pairStart, lenB = bEnd - aEnd;
  const std::uint32_t* a = keysIn + pairStart;
  const std::uint32_t* b = keysIn + aEnd;
  const std::int64_t diag = first - pairStart;
  // How many of the first `diag` outputs come from run A: the smallest i with A[i] after
  // B[diag-1-i] (A first on ties).
  std::int64_t lo = diag - lenB > 0 ? diag - lenB : 0, hi = diag < lenA ? diag : lenA;
  while (lo < hi) {
    const std::int64_t mid = (lo + hi) / 2;
    if (orderedBits<kFloat>(a[mid]) <= orderedBits<kFloat>(b[diag - 1 - mid]))
      lo = mid + 1;
    else
      hi = mid;
  }
  std::int64_t ai = lo, bi = diag - lo;
  for (int k = 0; k < kMergeItems && first + k < n; ++k) {
    const bool takeA =
        bi >= lenB || (ai < lenA && orderedBits<kFloat>(a[ai]) <= orderedBits<kFloat>(b[bi]));
    const std::int64_t from = takeA ? pairStart + ai++ : aEnd + bi++;
    keysOut[first + k] = keysIn[from];
    if constexpr (kPairs) valuesOut[first + k] = valuesIn[from];
  }
}

int mergePasses(std::int64_t n) {
  int passes = 0;
  for (std::int64_t width = kTile; width < n; width *= 2) ++passes;
  return passes;
}

std::size_t layout(ScratchCarver& c, std::int64_t n, bool pairs, std::uint32_t** keys,
                   std::uint32_t** values) {
  *keys = c.take<std::uint32_t>(std::size_t(n));
  *values = pairs ? c.take<std::uint32_t>(std::size_t(n)) : nullptr;
  return c.used();
}

std::size_t scratch(std::int64_t count, KeyType, bool pairs) {
  ScratchCarver c;
  std::uint32_t *k = nullptr, *v = nullptr;
  return layout(c, count, pairs, &k, &v);
}

LaunchInfo launch(const SortArgs& a) {
  if (a.count == 0) return {false, "sort.block_merge"};
  ScratchCarver c(a.scratch);
  std::uint32_t *altKeys = nullptr, *altValues = nullptr;
  checkScratch(a, layout(c, a.count, a.pairs, &altKeys, &altValues), "sort.block_merge");
  const int passes = mergePasses(a.count);
  // Ping-pong so the last pass writes the output: the block sort writes where the parity says.
  std::uint32_t* keys[2] = {a.keysOut, altKeys};
  std::uint32_t* values[2] = {a.valuesOut, altValues};
  int at = passes % 2;
  const auto tiles = unsigned((a.count + kTile - 1) / kTile);
  dispatch(a, [&](auto isFloat, auto pairs) {
    constexpr bool kF = isFloat.value, kP = pairs.value;
    blockSortKernel<kF, kP>
        <<<tiles, kThreads, 0, a.stream>>>(a.keysIn, a.valuesIn, keys[at], values[at], a.count);
    KWB_CHECK_LAUNCH();
    constexpr std::int64_t kPerBlock = std::int64_t(kMergeThreads) * kMergeItems;
    const auto blocks = unsigned((a.count + kPerBlock - 1) / kPerBlock);
    for (std::int64_t width = kTile; width < a.count; width *= 2, at ^= 1) {
      mergeKernel<kF, kP><<<blocks, kMergeThreads, 0, a.stream>>>(
          keys[at], values[at], keys[at ^ 1], values[at ^ 1], a.count, width);
      KWB_CHECK_LAUNCH();
    }
  });
  return {false, "sort.block_merge"};
}

}  // namespace

KernelDescriptor sortBlockMerge() {
  return sortDescriptor("sort.block_merge", "Block sort + merge", false,
                        "cub::BlockRadixSort per 4096-key tile, then merge-path passes", &launch,
                        &scratch);
}

}  // namespace kwb::kernels::sort
