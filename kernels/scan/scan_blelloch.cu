// SPDX-License-Identifier: Apache-2.0
// Stage 2: Blelloch's work-efficient scan per block. An up-sweep builds a tree of partial sums
// in place (n - 1 additions), the root is cleared, and a down-sweep pushes prefixes back down
// (another n - 1): O(n) work instead of Hillis-Steele's O(n log n), and each thread handles
// two elements, so a block of 512 threads scans a tile of 1024. The tree's strided accesses
// would make many threads of a warp hit the same shared-memory bank; one padding word every 32
// elements (pad()) spreads them over the banks. The tree gives an exclusive scan; adding each
// element's own value makes it inclusive. Same recursive block-sums pass as stage 1.
#include "scan/block_sums.cuh"
#include "scan/scan_descriptors.h"

namespace kwb::kernels {
namespace {

constexpr int kThreads = 512;
constexpr int kTile = 2 * kThreads;

__device__ inline int pad(int i) { return i + (i >> 5); }  // one word per 32: 32 banks

template <typename T>
__global__ void __launch_bounds__(kThreads)
    blellochKernel(const T* in, T* out, std::int64_t n, T* sums) {
  __shared__ T s[kTile + kTile / 32];
  __shared__ T total;
  const int t = int(threadIdx.x);
  const std::int64_t base = std::int64_t(blockIdx.x) * kTile;
  const int ai = t, bi = t + kTile / 2;  // coalesced loads: two halves of the tile
  const T a = base + ai < n ? in[base + ai] : T(0);
  const T b = base + bi < n ? in[base + bi] : T(0);
  s[pad(ai)] = a;
  s[pad(bi)] = b;
  int offset = 1;
  for (int d = kTile / 2; d > 0; d >>= 1, offset <<= 1) {  // up-sweep
    __syncthreads();
    if (t < d) {
      const int x = offset * (2 * t + 1) - 1, y = offset * (2 * t + 2) - 1;
      s[pad(y)] = vec::add(s[pad(y)], s[pad(x)]);
    }
  }
  if (t == 0) {
    total = s[pad(kTile - 1)];  // the root: the tile's total
    s[pad(kTile - 1)] = T(0);
  }
  for (int d = 1; d < kTile; d <<= 1) {  // down-sweep
    offset >>= 1;
    __syncthreads();
    if (t < d) {
      const int x = offset * (2 * t + 1) - 1, y = offset * (2 * t + 2) - 1;
      const T left = s[pad(x)];
      s[pad(x)] = s[pad(y)];
      s[pad(y)] = vec::add(s[pad(y)], left);
    }
  }
  __syncthreads();
  if (base + ai < n) out[base + ai] = vec::add(s[pad(ai)], a);
  if (base + bi < n) out[base + bi] = vec::add(s[pad(bi)], b);
  if (sums && t == 0) sums[blockIdx.x] = total;
}

std::size_t scratch(std::int64_t count, ElementType) { return scan::blockSumsBytes(count, kTile); }

LaunchInfo launch(const VectorArgs& a) {
  if (a.count == 0) return {false, "scan.blelloch"};
  vec::dispatch(a.type, [&](auto zero) {
    using T = decltype(zero);
    scan::scanWithBlockSums<T, kTile>(
        static_cast<const T*>(a.in), static_cast<T*>(a.out), a.count, static_cast<char*>(a.scratch),
        a.stream, [&](const T* in, T* out, std::int64_t n, T* sums, std::int64_t blocks) {
          blellochKernel<T><<<unsigned(blocks), kThreads, 0, a.stream>>>(in, out, n, sums);
          KWB_CHECK_LAUNCH();
        });
  });
  return {false, "scan.blelloch"};
}

}  // namespace

KernelDescriptor scanBlelloch() {
  return vectorDescriptor("scan.blelloch", "Blelloch", "scan", false,
                          "Work-efficient up-sweep/down-sweep per block, recursive block sums",
                          &launch, &scratch);
}

}  // namespace kwb::kernels
