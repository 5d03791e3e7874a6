// SPDX-License-Identifier: Apache-2.0
// Stage 3: one-sweep radix sort (Adinets & Merrill, "Onesweep: A Faster Least Significant Digit
// Radix Sort for GPUs", 2022). Reduce-then-scan reads the keys twice a pass and waits at a
// grid-wide barrier between counting and scattering; here
//   - one initial kernel reads the keys once and counts the digits of all four passes at once
//     (shared-memory histograms), and a small kernel scans them into each digit's start;
//   - each pass is one kernel: a tile (256 threads × 16 keys) ranks its keys
//     (cub::BlockRadixRankMatchEarlyCounts), publishes its per-digit counts as soon as it has
//     them (a status word per tile and digit: PARTIAL = this tile's count), then each thread
//     looks back for its digit over the preceding tiles, adding PARTIAL counts until it meets a
//     GLOBAL one (that tile's inclusive count), publishes its own GLOBAL, and scatters the tile.
// Each key is read once and written once per pass (2n words, the minimum), plus the one
// counting read. Safe because the flag and the count share one word (written and read in one
// access), and a tile's index comes from an atomic counter, so every predecessor a tile waits
// for is already running. Status words are 32-bit (2 flag bits, counts below 2^30) up to 2^30
// keys, 64-bit above.
#include <cub/block/block_radix_rank.cuh>
#include <cub/block/block_scan.cuh>

#include "detail/multiprocessors.h"
#include "sort/sort_descriptors.h"
#include "sort/sort_tile.cuh"

namespace kwb::kernels::sort {
namespace {

constexpr int kThreads = 256, kItems = 16, kTile = kThreads * kItems;
constexpr int kMinBlocks = 4;  // 64 registers a thread: four tiles in flight per SM
constexpr int kHistThreads = 256;
static_assert(kThreads == kRadixDigits, "one digit per thread");
constexpr std::int64_t kNarrowLimit = std::int64_t{1} << 30;  // 32-bit statuses below this

template <typename Status>
struct Flags {
  static constexpr int kBits = int(sizeof(Status)) * 8;
  static constexpr Status kPartial = Status(1) << (kBits - 2);
  static constexpr Status kGlobal = Status(1) << (kBits - 1);
  static constexpr Status kValue = kPartial - 1;
};

// The digit counts of all passes in one read of the keys: hist[pass][digit].
template <bool kFloat>
__global__ void __launch_bounds__(kHistThreads)
    histogramKernel(const std::uint32_t* keys, std::int64_t n, std::uint32_t* hist) {
  __shared__ std::uint32_t local[kPasses][kRadixDigits];
  for (int i = int(threadIdx.x); i < kPasses * kRadixDigits; i += kHistThreads)
    (&local[0][0])[i] = 0;
  __syncthreads();
  const std::int64_t stride = std::int64_t(gridDim.x) * kHistThreads;
  const std::int64_t quads = n / 4;  // 16-byte loads (cudaMalloc'd keys are aligned)
  const auto* keys4 = reinterpret_cast<const uint4*>(keys);
  auto count = [&](std::uint32_t key) {
    const std::uint32_t o = orderedBits<kFloat>(key);
#pragma unroll
    for (int p = 0; p < kPasses; ++p)
      atomicAdd(&local[p][(o >> (p * kRadixBits)) & (kRadixDigits - 1)], 1u);
  };
  for (std::int64_t i = std::int64_t(blockIdx.x) * kHistThreads + threadIdx.x; i < quads;
       i += stride) {
    const uint4 q = keys4[i];
    count(q.x);
    count(q.y);
    count(q.z);
    count(q.w);
  }
  for (std::int64_t i = quads * 4 + std::int64_t(blockIdx.x) * kHistThreads + threadIdx.x; i < n;
       i += stride)
    count(keys[i]);
  __syncthreads();
  for (int i = int(threadIdx.x); i < kPasses * kRadixDigits; i += kHistThreads) {
    const std::uint32_t c = (&local[0][0])[i];
    if (c) atomicAdd(hist + i, c);
  }
}

// Each pass's counts into each digit's first output position (one block a pass).
__global__ void __launch_bounds__(kRadixDigits) binStartsKernel(std::uint32_t* hist) {
  using Scan = cub::BlockScan<std::uint32_t, kRadixDigits>;
  __shared__ typename Scan::TempStorage tmp;
  std::uint32_t* h = hist + blockIdx.x * kRadixDigits;
  std::uint32_t v = h[threadIdx.x];
  Scan(tmp).ExclusiveSum(v, v);
  h[threadIdx.x] = v;
}

// Publishes the tile's count of the thread's digit as soon as the rank has counted (before it
// ranks), so the tiles after it wait as little as possible.
template <typename Status>
struct PublishCounts {
  Status* mine;  // this tile's status of the thread's digit
  bool first;    // tile 0: its count is already inclusive
  int* count;
  __device__ __forceinline__ void operator()(int (&bins)[1]) {
    *count = bins[0];
    const Status flag = first ? Flags<Status>::kGlobal : Flags<Status>::kPartial;
    *reinterpret_cast<volatile Status*>(mine) = flag | Status(bins[0]);
  }
};

// The thread's digit: how many keys of it the tiles before `tile` hold. Walks back one tile at
// a time, adding PARTIAL counts, until a GLOBAL (inclusive) one; then publishes its own GLOBAL.
template <typename Status>
__device__ __forceinline__ std::uint32_t lookBack(Status* status, std::int64_t tile, int count) {
  using F = Flags<Status>;
  const int digit = int(threadIdx.x);
  if (tile == 0) return 0;
  Status before = 0;
  for (std::int64_t j = tile - 1; j >= 0; --j) {
    Status s;
    do {
      s = *reinterpret_cast<volatile Status*>(status + j * kRadixDigits + digit);
    } while (s == 0);  // tile j has started (its index was taken): it will publish
    before += s & F::kValue;
    if (s & F::kGlobal) break;
  }
  *reinterpret_cast<volatile Status*>(status + tile * kRadixDigits + digit) =
      F::kGlobal | (before + Status(count));
  return std::uint32_t(before);
}

template <bool kFloat, bool kPairs, typename Status>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
    onesweepKernel(PassBuffers io, std::int64_t n, int shift, const std::uint32_t* binStart,
                   Status* status, std::uint32_t* counter) {
  using Rank = cub::BlockRadixRankMatchEarlyCounts<kThreads, kRadixBits, false>;
  __shared__ union {
    typename Rank::TempStorage rank;
    ScatterStorage<kTile> scatter;
  } s;
  __shared__ std::uint32_t offset[kRadixDigits];
  __shared__ std::uint32_t tileShared;
  if (threadIdx.x == 0) tileShared = atomicAdd(counter, 1u);
  __syncthreads();
  const std::int64_t tile = tileShared;
  const std::int64_t start = tile * kTile;
  const int valid = int(n - start < kTile ? n - start : kTile);
  const DigitOf<kFloat> digitOf{std::uint32_t(shift)};
  std::uint32_t keys[kItems];
  loadWarpStriped<kThreads, kItems>(io.keysIn, start, valid, kMaxKey<kFloat>, keys);
  int ranks[kItems];
  int exclusive[1];
  int count = 0;
  Rank(s.rank).RankKeys(
      keys, ranks, digitOf, exclusive,
      PublishCounts<Status>{status + tile * kRadixDigits + threadIdx.x, tile == 0, &count});
  const std::uint32_t before = lookBack(status, tile, count);
  offset[threadIdx.x] = binStart[threadIdx.x] + before - std::uint32_t(exclusive[0]);
  __syncthreads();  // offsets visible; the rank storage free for the scatter
  scatterTile<kFloat, kPairs, kThreads, kItems>(keys, ranks, s.scatter, offset, digitOf, valid,
                                                start, io.valuesIn, io.keysOut, io.valuesOut);
}

struct Scratch {
  std::uint32_t* hist = nullptr;      // [kPasses][kRadixDigits], then each digit's start
  std::uint32_t* counters = nullptr;  // [kPasses]: the next tile index of each pass
  void* status = nullptr;             // [tiles][kRadixDigits], cleared before each pass
  std::uint32_t* keys = nullptr;
  std::uint32_t* values = nullptr;
  std::size_t statusBytes = 0;
};
std::size_t statusWordBytes(std::int64_t n) { return n < kNarrowLimit ? 4 : 8; }
std::size_t layout(ScratchCarver& c, std::int64_t n, bool pairs, Scratch& s) {
  // hist and counters adjacent: one clear for both.
  s.hist = c.take<std::uint32_t>(std::size_t(kPasses) * kRadixDigits + kPasses);
  s.counters = s.hist ? s.hist + kPasses * kRadixDigits : nullptr;
  const std::size_t tiles = std::size_t((n + kTile - 1) / kTile);
  s.statusBytes = tiles * kRadixDigits * statusWordBytes(n);
  s.status = c.take<unsigned char>(s.statusBytes);
  s.keys = c.take<std::uint32_t>(std::size_t(n));
  s.values = pairs ? c.take<std::uint32_t>(std::size_t(n)) : nullptr;
  return c.used();
}

std::size_t scratch(std::int64_t count, KeyType, bool pairs) {
  ScratchCarver c;
  Scratch s;
  return layout(c, count, pairs, s);
}

template <bool kF, bool kP, typename Status>
void passes(const SortArgs& a, const Scratch& s) {
  const auto tiles = unsigned((a.count + kTile - 1) / kTile);
  for (int pass = 0; pass < kPasses; ++pass) {
    KWB_CUDA_CHECK(cudaMemsetAsync(s.status, 0, s.statusBytes, a.stream));
    onesweepKernel<kF, kP, Status><<<tiles, kThreads, 0, a.stream>>>(
        passBuffers(a, pass, s.keys, s.values), a.count, pass * kRadixBits,
        s.hist + pass * kRadixDigits, static_cast<Status*>(s.status), s.counters + pass);
    KWB_CHECK_LAUNCH();
  }
}

LaunchInfo launch(const SortArgs& a) {
  if (a.count == 0) return {false, "sort.onesweep"};
  ScratchCarver c(a.scratch);
  Scratch s;
  checkScratch(a, layout(c, a.count, a.pairs, s), "sort.onesweep");
  KWB_CUDA_CHECK(cudaMemsetAsync(
      s.hist, 0, (std::size_t(kPasses) * kRadixDigits + kPasses) * sizeof(std::uint32_t),
      a.stream));
  const std::int64_t want = (a.count + std::int64_t(kHistThreads) * 16 - 1) /
                            (std::int64_t(kHistThreads) * 16);  // ~16 keys a thread
  const std::int64_t cap = std::int64_t(detail::multiprocessors()) * 8;
  const auto histBlocks = unsigned(want < cap ? want : cap);
  dispatch(a, [&](auto isFloat, auto pairs) {
    constexpr bool kF = isFloat.value, kP = pairs.value;
    histogramKernel<kF><<<histBlocks, kHistThreads, 0, a.stream>>>(a.keysIn, a.count, s.hist);
    KWB_CHECK_LAUNCH();
    binStartsKernel<<<kPasses, kRadixDigits, 0, a.stream>>>(s.hist);
    KWB_CHECK_LAUNCH();
    if (a.count < kNarrowLimit)
      passes<kF, kP, std::uint32_t>(a, s);
    else
      passes<kF, kP, unsigned long long>(a, s);
  });
  return {false, "sort.onesweep"};
}

}  // namespace

KernelDescriptor sortOnesweep() {
  return sortDescriptor("sort.onesweep", "Onesweep", false,
                        "fused 4-pass histogram, then one kernel a pass with decoupled look-back "
                        "per (tile, digit)",
                        &launch, &scratch);
}

}  // namespace kwb::kernels::sort
