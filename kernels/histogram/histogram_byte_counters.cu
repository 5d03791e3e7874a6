// SPDX-License-Identifier: Apache-2.0
// Stage 4: contention-free counting. Every thread owns a private column of 8-bit counters in
// shared memory, one per bin, bit-packed four to a 32-bit word, and adds 1 to its own byte with
// one shared atomic on that word (the word also holds the counters of three threads of other
// warps; the atomic only keeps their bytes intact, and a byte never carries into the next since
// it is flushed before it can reach 256). No two threads ever count in the same byte, so no
// update waits on another's, whatever the samples. What makes it fast:
// - no bank conflicts, ever: bin b's counters form a 256-byte row (one byte per thread), and
//   thread t's byte sits at word (lane + 32·(warp / 4)) of the row, byte (warp mod 4). The 32
//   lanes of a warp then always hit 32 different banks, whichever bins they count, where
//   stage 3's lanes collide whenever two bins share a bank;
// - one shared-memory instruction per sample and no result to wait for (a load, add and store
//   would be two, the store waiting for the load);
// - 16-byte loads, four in flight per thread (64 u8 samples) before any is counted;
// - a vector of one value is one update (+16 for u8): four compares per vector, which cost
//   uniform input nothing measurable and spare one-bin input 15 of every 16 updates (stage 3's
//   run merging, applied per vector), so it streams at the speed of its loads;
// - a bounded grid (as many blocks as are resident: 3 per H100 multiprocessor at 256 bins)
//   that loops over the samples in tiles, and one global atomic per bin per block at the end.
// An 8-bit counter holds 255, so after at most 252 samples per thread the block stops,
// each thread t < bins sums row t (64 words, four counters per __dp4a) into a 32-bit register
// total and clears the row, and counting resumes. The rows are read diagonally (word j + t) so
// the flush is conflict-free too. Out-of-range f32 samples go to a row no one sums.
// The counters take (bins + 1) × 256 bytes of shared memory: up to 256 bins. Above that (the
// 4096-bin column would need 1 MiB per block) the launch runs stage 3's kernel and says so.
#include <atomic>

#include "histogram/histogram_common.cuh"
#include "histogram/histogram_descriptors.h"

namespace kwb::kernels {
namespace {

constexpr int kThreads = 256;  // one byte per thread in a 256-byte row
constexpr int kVectors = 4;    // 16-byte loads per thread per tile
constexpr int kMaxBins = 256;
constexpr int kRowBytes = kThreads;
constexpr int kRowWords = kRowBytes / 4;
constexpr int kFlushLimit = 252;  // samples per thread between flushes; +2 for head and tail

std::size_t sharedBytes(int bins) { return std::size_t(bins + 1) * kRowBytes; }

// A thread's counters: its byte in every row, reached through the 32-bit word that holds it.
struct Column {
  unsigned* word;  // in row 0; row r's is r · kRowWords words further
  unsigned one;    // 1 in this thread's byte of the word
  __device__ __forceinline__ void count(int row, unsigned n = 1) const {
    atomicAdd(word + row * kRowWords, n * one);
  }
};

// Thread t's byte is byte (warp mod 4) of word (lane + 32·(warp / 4)): conflict-free for any
// bins a warp counts.
__device__ __forceinline__ Column columnOf(unsigned char* counters, int t) {
  const int lane = t & 31, warp = t >> 5;
  return {reinterpret_cast<unsigned*>(counters) + lane + (warp >> 2) * 32, 1u << (8 * (warp & 3))};
}

// The row a sample increments: its bin, or the unsummed row `bins` when out of range.
template <bool kFull>
__device__ __forceinline__ int rowOf(std::uint8_t s, int bins) {
  return kFull ? int(s) : binOfU8(s, bins);
}
template <bool kFull>
__device__ __forceinline__ int rowOf(float s, int bins) {
  return inRangeF32(s) ? binOfF32(s, bins) : bins;
}

// Every sample of the vector is the same bit pattern (so in the same row): four compares.
template <typename T>
__device__ __forceinline__ bool allSame(const uint4& v) {
  const bool words = v.x == v.y && v.x == v.z && v.x == v.w;
  if constexpr (sizeof(T) == 1) return words && v.x == __byte_perm(v.x, 0, 0x0000u);
  return words;
}

// A vector's samples: one update of kPerVector when they are all one value, else one each.
template <typename T, bool kFull>
__device__ __forceinline__ void countVector(const Column& column, const uint4& v, int bins) {
  constexpr int kPer = hist::kPerVector<T>;
  if (allSame<T>(v)) {
    column.count(rowOf<kFull>(hist::sampleOf<T>(v, 0), bins), kPer);
    return;
  }
#pragma unroll
  for (int j = 0; j < kPer; ++j) column.count(rowOf<kFull>(hist::sampleOf<T>(v, j), bins));
}

// Adds row t's counters to `total` and clears them (thread t < bins); a block barrier first and
// after, so no thread counts into a row being read.
__device__ __forceinline__ void flush(unsigned char* counters, int bins, unsigned& total) {
  __syncthreads();
  const int t = int(threadIdx.x);
  if (t < bins) {
    auto* row = reinterpret_cast<unsigned*>(counters + t * kRowBytes);
#pragma unroll 16
    for (int j = 0; j < kRowWords; ++j) {
      const int w = (j + t) & (kRowWords - 1);
      total = __dp4a(row[w], 0x01010101u, total);
      row[w] = 0;
    }
  }
  __syncthreads();
}

template <typename T, bool kFull>
__global__ void __launch_bounds__(kThreads)
    byteCountersKernel(const T* __restrict__ samples, std::int64_t n, std::int64_t head,
                       unsigned* hist, int bins) {
  extern __shared__ __align__(16) unsigned char counters[];  // (bins + 1) rows of 256 bytes
  for (int i = int(threadIdx.x); i < (bins + 1) * kRowWords; i += kThreads)
    reinterpret_cast<unsigned*>(counters)[i] = 0;
  __syncthreads();
  const Column column = columnOf(counters, int(threadIdx.x));
  constexpr int kPer = hist::kPerVector<T>;
  constexpr int kTilesPerFlush = kFlushLimit / (kVectors * kPer);
  const auto* body = reinterpret_cast<const uint4*>(samples + head);
  const std::int64_t vectors = (n - head) / kPer;
  const std::int64_t tileVectors = std::int64_t(kThreads) * kVectors;
  const std::int64_t tiles = (vectors + tileVectors - 1) / tileVectors;
  unsigned total = 0;
  int pending = 0;
  for (std::int64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {  // uniform per block
    const std::int64_t first = tile * tileVectors + threadIdx.x;
    uint4 v[kVectors];
#pragma unroll
    for (int u = 0; u < kVectors; ++u)
      if (first + u * kThreads < vectors) v[u] = body[first + u * kThreads];
#pragma unroll
    for (int u = 0; u < kVectors; ++u)
      if (first + u * kThreads < vectors) countVector<T, kFull>(column, v[u], bins);
    if (++pending == kTilesPerFlush) {
      flush(counters, bins, total);
      pending = 0;
    }
  }
  // The scalar head and tail (under 16 bytes each), in the first block.
  const std::int64_t tailStart = head + vectors * kPer;
  if (blockIdx.x == 0) {
    if (threadIdx.x < head) column.count(rowOf<kFull>(samples[threadIdx.x], bins));
    if (threadIdx.x < n - tailStart)
      column.count(rowOf<kFull>(samples[tailStart + threadIdx.x], bins));
  }
  flush(counters, bins, total);
  if (int(threadIdx.x) < bins && total != 0) atomicAdd(hist + threadIdx.x, total);
}

// Kernels over 48 KiB of shared memory must opt in, once per device; the resident blocks per
// multiprocessor at the largest footprint size the grid.
template <typename T, bool kFull>
int residentBlocks() {
  static std::atomic<int> cache[detail::kMaxCachedDevices];
  return detail::cachedPerDevice(cache, [](int) {
    const auto kernel = byteCountersKernel<T, kFull>;
    const int smem = int(sharedBytes(kMaxBins));
    KWB_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    int blocks = 0;
    KWB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, kThreads, smem));
    return std::max(blocks, 1);
  });
}

template <typename T, bool kFull>
void launchCounters(const HistogramArgs& a) {
  const int perSm = residentBlocks<T, kFull>();
  const std::int64_t head = hist::headSamples(a.samples, a.count, sizeof(T));
  const unsigned blocks =
      hist::gridFor(a.count, std::int64_t(kThreads) * kVectors * hist::kPerVector<T>, perSm);
  byteCountersKernel<T, kFull><<<blocks, kThreads, sharedBytes(a.bins), a.stream>>>(
      static_cast<const T*>(a.samples), a.count, head, a.histogram, a.bins);
  KWB_CHECK_LAUNCH();
}

LaunchInfo launch(const HistogramArgs& a) {
  if (a.bins > kMaxBins) return launchWarpPrivate(a);  // ranKernel says so
  hist::clearHistogram(a);
  if (a.count == 0) return {false, "histogram.byte_counters"};
  if (a.type == SampleType::kU8 && a.bins == 256)
    launchCounters<std::uint8_t, true>(a);
  else if (a.type == SampleType::kU8)
    launchCounters<std::uint8_t, false>(a);
  else
    launchCounters<float, false>(a);
  return {false, "histogram.byte_counters"};
}

}  // namespace

KernelDescriptor histogramByteCounters() {
  KernelDescriptor d = histogramDescriptor(
      "histogram.byte_counters", "Per-thread byte counters", false,
      "8-bit counters per thread, four to a shared word, never a bank conflict or a contended "
      "update; above 256 bins it runs histogram.warp_private",
      {&launch});
  d.progressionNotes = {
      {.why = "above 256 bins this stage runs histogram.warp_private (its counters take "
              "(bins + 1) x 256 bytes of shared memory, 64 KiB at 256 bins), so the two time "
              "alike",
       .axis = "bins",
       .axisMin = 257},
      {.why = "2^20 float samples: each block ends by folding its (bins + 1) x 256-byte counter "
              "table into the histogram, a fixed cost that about 2,600 samples a block do not "
              "repay; measured on an H100 at 2^20 f32 256 bins: 7.0 against 6.6 us (uniform), "
              "5.8 against 5.3 us (one-bin). At 2^28 it leads (0.352 against 0.375 ms)",
       .maxCount = std::int64_t{1} << 21,
       .word = "f32"}};
  return d;
}

}  // namespace kwb::kernels
