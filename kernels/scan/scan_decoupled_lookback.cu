// SPDX-License-Identifier: Apache-2.0
// Stage 4: single-pass scan with decoupled look-back (Merrill & Garland, "Single-pass Parallel
// Prefix Scan with Decoupled Look-back", 2016). Reduce-then-scan reads the input twice; here
// each element is read once and written once (2n, the minimum). Each tile publishes a status
// word as soon as it can: its own total (AGGREGATE) right after the in-register tile scan, its
// inclusive prefix (PREFIX) once it knows it. Warp 0 of the next tile looks back over the 32
// preceding statuses at a time: it adds aggregates until it meets a PREFIX, so a tile seldom
// waits for its predecessor's full prefix, only for its total; the chain of dependencies moves
// at the speed of a status read, not of a tile scan.
// Two details make it safe: the flag and the value share one 64-bit word, written and read in
// one access, so a reader never sees a flag with a stale value; and a tile's index comes from
// an atomic counter, not blockIdx, so a tile's predecessors were all taken by blocks that are
// already running (the hardware does not promise to schedule blocks in index order, and waiting
// on a block that has not started could deadlock).
// The float result depends on where each look-back found a PREFIX (timing): not bit-for-bit
// reproducible; int32 is exact.
#include "scan/scan_descriptors.h"
#include "scan/tile_scan.cuh"

namespace kwb::kernels {
namespace {

using namespace scan;
using Status = unsigned long long;
constexpr Status kAggregate = 1ull << 32, kPrefix = 2ull << 32;  // high word: flag; 0 = none yet
constexpr std::size_t kCounterBytes = 256;  // the tile counter, then the statuses

__device__ inline unsigned bitsOf(float x) { return __float_as_uint(x); }
__device__ inline unsigned bitsOf(int x) { return unsigned(x); }
template <typename T>
__device__ inline T valueOf(Status s) {
  if constexpr (sizeof(T) == 4 && T(0.5) != T(0))
    return __uint_as_float(unsigned(s));
  else
    return T(unsigned(s));
}

__device__ inline void publish(Status* status, Status flag, unsigned bits) {
  *reinterpret_cast<volatile Status*>(status) = flag | bits;
}

// Run by the 32 lanes of warp 0; returns the sum of tiles 0 .. tile-1 (in every lane).
template <typename T>
__device__ T lookBack(Status* status, int tile, T aggregate) {
  const int lane = int(threadIdx.x % 32);
  if (tile == 0) {
    if (lane == 0) publish(status, kPrefix, bitsOf(aggregate));
    return T(0);
  }
  if (lane == 0) publish(status + tile, kAggregate, bitsOf(aggregate));
  T exclusive = T(0);
  for (int newest = tile - 1;; newest -= 32) {
    const int pred = newest - lane;  // lane 0 the nearest predecessor
    Status s = kPrefix;              // before tile 0: a prefix of 0
    if (pred >= 0) {
      do {
        s = *reinterpret_cast<volatile Status*>(status + pred);
      } while ((s >> 32) == 0);  // the predecessor has started (it holds its tile): it will publish
    }
    __syncwarp();
    const unsigned prefixes = __ballot_sync(0xffffffffu, (s & kPrefix) != 0);
    const int stop = prefixes ? __ffs(prefixes) - 1 : 31;  // the nearest PREFIX ends the walk
    const T window = vec::warpSum(lane <= stop ? valueOf<T>(s) : T(0));
    exclusive = vec::add(__shfl_sync(0xffffffffu, window, 0), exclusive);
    if (prefixes) break;
  }
  if (lane == 0) publish(status + tile, kPrefix, bitsOf(vec::add(exclusive, aggregate)));
  return exclusive;
}

template <typename T>
__global__ void __launch_bounds__(kTileThreads)
    lookbackKernel(const T* in, T* out, std::int64_t n, bool vectors, Status* status,
                   unsigned* counter) {
  __shared__ int tileShared;
  if (threadIdx.x == 0) tileShared = int(atomicAdd(counter, 1u));
  __syncthreads();
  const int tile = tileShared;
  Tile<T> v;
  loadTile(in, n, tile, vectors, v);
  scanTile<T>(v, [&](T aggregate) { return lookBack<T>(status, tile, aggregate); });
  storeTile(out, n, tile, vectors, v);
}

std::size_t scratch(std::int64_t count, ElementType) {
  return kCounterBytes + vec::alignUp(std::size_t(tilesFor(count)) * sizeof(Status));
}

LaunchInfo launch(const VectorArgs& a) {
  if (a.count == 0) return {false, "scan.decoupled_lookback"};
  const std::int64_t tiles = tilesFor(a.count);
  if (tiles > INT_MAX) throw std::invalid_argument("scan.decoupled_lookback: count too large");
  const std::size_t used = kCounterBytes + std::size_t(tiles) * sizeof(Status);
  if (a.scratchBytes < used)
    throw std::invalid_argument("scan.decoupled_lookback: scratch smaller than scratchBytes()");
  // Counter and statuses start at zero ("no status yet") on every launch, on the stream.
  KWB_CUDA_CHECK(cudaMemsetAsync(a.scratch, 0, used, a.stream));
  auto* counter = static_cast<unsigned*>(a.scratch);
  auto* status = reinterpret_cast<Status*>(static_cast<char*>(a.scratch) + kCounterBytes);
  const bool vectors = vec::aligned16(a.in) && vec::aligned16(a.out);
  vec::dispatch(a.type, [&](auto zero) {
    using T = decltype(zero);
    lookbackKernel<T><<<unsigned(tiles), kTileThreads, 0, a.stream>>>(
        static_cast<const T*>(a.in), static_cast<T*>(a.out), a.count, vectors, status, counter);
    KWB_CHECK_LAUNCH();
  });
  return {false, "scan.decoupled_lookback"};
}

}  // namespace

KernelDescriptor scanDecoupledLookback() {
  KernelDescriptor d =
      vectorDescriptor("scan.decoupled_lookback", "Decoupled look-back", "scan", false,
                       "Single pass, tile statuses with decoupled look-back", &launch, &scratch);
  d.progressionNotes = {
      {.why = "small inputs: measured slower than reduce-then-scan on an H100 at 2^20 elements "
              "(7.9 against 7.1 us) and faster from 2^24 up (2^28: 2331 against 1993 GB/s). Not "
              "yet profiled; its fixed costs are clearing the tile statuses before each launch "
              "and each tile's chain of dependent status reads, which 256 tiles do not hide",
       .maxCount = std::int64_t{1} << 21}};
  return d;
}

}  // namespace kwb::kernels
