// SPDX-License-Identifier: Apache-2.0
// Stage 4: sgemm.bank_free with two shared-memory stages filled by cp.async. While the block
// computes tile t from one stage, the copy engine of the SM (LDGSTS, sm_80+) moves tile t + 1
// from global memory straight into the other stage; no registers carry it and no thread waits
// for it until the top of the next iteration. Same 64×64×32 tile, same 256 threads, same thread
// mapping and same conflict-free layout (A pitch 36) as sgemm.bank_free, so the difference in
// speed is the pipelining alone.
//
// Why the earlier register-staged version lost to bank_free: the prefetch held the next tile
// in 16 registers across the FMAs and still paid an LDG + STS pair per element plus the
// address arithmetic, and with several blocks per SM bank_free already hid most of the global
// latency by switching blocks. cp.async issues one instruction per 16 bytes (4 per thread per
// tile on the vector path instead of 16 loads + 16 stores), holds no registers, and the copy
// of t + 1 overlaps the compute of t even when an SM has a single block (the ragged and small
// shapes: 511×513×1025 gives 72 blocks on 132 SMs, where nothing else hides the latency).
//
// One barrier per tile. Iteration t: wait for this thread's copies of tile t, __syncthreads,
// issue the copies of tile t + 1 into stage (t+1)&1, compute from stage t&1. The barrier makes
// every thread's part of tile t visible to all, and it also orders the reads of stage (t+1)&1
// in iteration t − 1 (every thread has passed them) before its overwrite issued after it.
//
// Edges: out-of-range elements are copied with src-size 0, which writes zeros (cp.async's
// zero-fill), so partial tiles need no special case in the compute loop. 16-byte copies need
// 16-byte aligned source addresses: the launcher takes the vector path only when K and N are
// multiples of 4 and the A and B bases are 16-byte aligned (checked on the host, not assumed);
// a 16-byte chunk is then wholly inside or wholly outside the matrix. Otherwise every element
// is a 4-byte cp.async.ca with its own guard.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "detail/micro_tile.cuh"
#include "detail/multiprocessors.h"
#include "kwb/cuda/check.h"
#include "descriptors.h"
#include "tile_grid.h"

namespace kwb::kernels {
namespace {

__device__ __forceinline__ unsigned sharedAddress(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
// 16 bytes global → shared, bypassing L1 (the block reads each chunk once): the first `bytes`
// are read, the rest of the 16 written as zeros (0 reads nothing). The source must be 16-byte
// aligned even when fewer bytes are read.
__device__ __forceinline__ void copy16(void* dst, const void* src, int bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(sharedAddress(dst)),
               "l"(src), "r"(bytes)
               : "memory");
}
// 4 bytes global → shared (.cg takes only 16-byte copies); src-size 0 writes a zero.
__device__ __forceinline__ void copy4(void* dst, const void* src, bool valid) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(sharedAddress(dst)), "l"(src),
               "r"(valid ? 4 : 0)
               : "memory");
}
// kShift's chunk of which only the first `bytes` lie inside the row. A 16-byte copy reading
// fewer bytes is fine for the hardware, but on the matrix's last row its 16-byte source range
// runs past the end of the allocation, which compute-sanitizer reports as an invalid read:
// there (`lastRow`) a cut chunk is copied in 4-byte pieces.
__device__ __forceinline__ void copyChunk(float* dst, const float* src, int bytes,
                                          const float* base, bool lastRow) {
  if (!lastRow || bytes == 16 || bytes == 0) {
    copy16(dst, bytes ? src : base, bytes);
    return;
  }
#pragma unroll
  for (int i = 0; i < 4; ++i) copy4(dst + i, 4 * i < bytes ? src + i : base, 4 * i < bytes);
}
__device__ __forceinline__ void commitGroup() {
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}
__device__ __forceinline__ void waitAll() { asm volatile("cp.async.wait_group 0;\n" ::: "memory"); }

// How a launch copies the tiles, picked on the host:
//   kVec    K, N % 4 == 0 (and 16-byte aligned bases): every row starts 16-byte aligned, one
//           16-byte copy per 4 elements, a chunk wholly inside or outside the matrix.
//   kShift  K or N % 4 != 0, bases 16-byte aligned: a row of a tile starts 0..3 floats past a
//           16-byte boundary. Its copies start at that boundary instead, one more chunk per
//           row, and the row lands in shared memory shifted by the same 0..3 floats; the
//           compute loop reads at the shift (MicroTile::accumulateShifted). The shift of row r
//           of A is (r·K) mod 4 for every tile (tiles start at multiples of 32 in k), of row
//           kk of B (kk·N) mod 4 (tiles start at multiples of 32 in n). Bytes at or past the
//           end of a row are not read but zero-filled (src-size); the 0..3 leading floats
//           belong to the previous tile or row, lie inside the matrix, and are never read.
//   kScalar unaligned bases: one 4-byte copy per element, each with its own guard.
enum class Copy { kVec, kShift, kScalar };

// At most 64 registers (4 blocks of 256 threads per SM, bank_free's occupancy; 16 blocks of 64
// threads for the 32×32 tile): the scalar path would take 80 and fall to 3 blocks; capped, it
// does not spill.
template <int BM, int BN, int BK, int TM, int TN, Copy C>
__global__ void __launch_bounds__((BM / TM) * (BN / TN), 1024 / ((BM / TM) * (BN / TN)))
    sgemmDoubleBufferKernel(int m, int n, int k, float alpha, const float* __restrict__ a,
                            const float* __restrict__ b, float beta, float* __restrict__ c,
                            int tilesN) {
  using Tile = detail::MicroTile<BM, BN, TM, TN>;
  constexpr int kThreads = Tile::kThreads;
  // Element width of one copy: a float4 chunk on the 16-byte paths, a float otherwise.
  constexpr int kW = C == Copy::kScalar ? 1 : 4;
  constexpr int kAPerRow = BK / kW, kBPerRow = BN / kW;  // copies per tile row
  constexpr int kACopies = BM * kAPerRow / kThreads, kBCopies = BK * kBPerRow / kThreads;
  static_assert(kThreads % kAPerRow == 0 && kACopies * kThreads == BM * kAPerRow,
                "A copies: whole rows per pass");
  static_assert(kThreads % kBPerRow == 0 && kBCopies * kThreads == BK * kBPerRow,
                "B copies: whole rows per pass");
  static_assert(BK == 32, "the pitch-36 bank arithmetic of sgemm.bank_free assumes 32-float rows");
  static_assert(BM <= kThreads && BK <= kThreads, "kShift: one thread per row's extra chunk");

  // 2 × (64·36 + 32·64) floats = 34,816 bytes (kShift: B rows 68 floats, 35,840): below the
  // 48 KiB static limit. Rows of both tiles are 16-byte aligned (36 and 64 or 68 floats), as
  // 16-byte cp.async destinations must be. A's 36 floats hold kShift's 9 chunks.
  constexpr int kBPitch = C == Copy::kShift ? BN + 4 : BN;
  __shared__ __align__(16) float as[2][BM][BK + 4];  // pitch 36 as in sgemm.bank_free
  __shared__ __align__(16) float bs[2][BK][kBPitch];

  const int tid = int(threadIdx.x);
  const std::int64_t row0 = std::int64_t(blockIdx.x / unsigned(tilesN)) * BM;
  const std::int64_t col0 = std::int64_t(blockIdx.x % unsigned(tilesN)) * BN;
  const int mRem = m - row0 < BM ? int(m - row0) : BM;
  const int nRem = n - col0 < BN ? int(n - col0) : BN;
  Tile tile(tid);

  // Copy roles: consecutive threads take consecutive chunks of one row, so a warp reads whole
  // 128-byte lines and each quarter-warp (the unit of a 16-byte shared access) writes 128
  // contiguous bytes of one row: no bank conflicts on the write side either.
  const int aCol = tid % kAPerRow * kW, aRow = tid / kAPerRow;
  const int bCol = tid % kBPerRow * kW, bRow = tid / kBPerRow;
  const float* aBase = a + row0 * k;
  const float* bBase = b + col0;
  const int numTiles = k / BK + (k % BK != 0);
  // kShift: the shift of a row of A (global row row0 + r) and of B (k index ≡ kk mod 4).
  auto aShiftOf = [&](int r) { return int(((row0 + r) & 3) * (k & 3) & 3); };
  auto bShiftOf = [&](int kk) { return (kk & 3) * (n & 3) & 3; };
  // Indexed only by compile-time q % 4 in the compute loop: registers, no local array.
  const int bShift[4] = {0, bShiftOf(1), bShiftOf(2), bShiftOf(3)};

  // Chunk `chunk` (4 floats) of row r of tile t of A / B into stage s, kShift's addressing: the
  // chunk starts `shift` floats before the tile's column 4·chunk; `bytes` of it lie before the
  // row's end.
  auto shiftedA = [&](int t, int s, int r, int chunk) {
    const int first = t * BK + 4 * chunk - aShiftOf(r);  // k index of the chunk's first float
    const int bytes = r < mRem ? 4 * max(0, min(4, k - first)) : 0;
    copyChunk(&as[s][r][4 * chunk], aBase + std::int64_t(r) * k + first, bytes, a,
              row0 + r == m - 1);
  };
  auto shiftedB = [&](int t, int s, int r, int chunk) {
    const int kk = t * BK + r;
    const int first = 4 * chunk - bShiftOf(kk);  // column of the chunk's first float - col0
    const int bytes = kk < k ? 4 * max(0, min(4, nRem - first)) : 0;
    copyChunk(&bs[s][r][4 * chunk], bBase + std::int64_t(kk) * n + first, bytes, b, kk == k - 1);
  };

  // Issues the copies of tile t into stage s and commits them as one group. An invalid copy
  // still needs a mapped source address: it gets the matrix base, from which nothing is read.
  auto issueTile = [&](int t, int s) {
    const int kBase = t * BK, kRem = k - kBase;
#pragma unroll
    for (int p = 0; p < kACopies; ++p) {
      const int r = aRow + p * (kThreads / kAPerRow);
      if constexpr (C == Copy::kShift) {
        shiftedA(t, s, r, aCol / 4);
      } else {
        const bool ok = r < mRem && aCol < kRem;
        const float* src = ok ? aBase + std::int64_t(r) * k + kBase + aCol : a;
        if constexpr (C == Copy::kVec)
          copy16(&as[s][r][aCol], src, ok ? 16 : 0);
        else
          copy4(&as[s][r][aCol], src, ok);
      }
    }
#pragma unroll
    for (int p = 0; p < kBCopies; ++p) {
      const int r = bRow + p * (kThreads / kBPerRow);
      if constexpr (C == Copy::kShift) {
        shiftedB(t, s, r, bCol / 4);
      } else {
        const bool ok = r < kRem && bCol < nRem;
        const float* src = ok ? bBase + std::int64_t(kBase + r) * n + bCol : b;
        if constexpr (C == Copy::kVec)
          copy16(&bs[s][r][bCol], src, ok ? 16 : 0);
        else
          copy4(&bs[s][r][bCol], src, ok);
      }
    }
    if constexpr (C == Copy::kShift) {  // the extra chunk of the shifted rows
      if (tid < BM && aShiftOf(tid) != 0) shiftedA(t, s, tid, BK / 4);
      if (tid < BK && bShiftOf(kBase + tid) != 0) shiftedB(t, s, tid, BN / 4);
    }
    commitGroup();
  };

  int aShift[TM];
#pragma unroll
  for (int i = 0; i < TM; ++i) aShift[i] = aShiftOf(tile.tr + i * Tile::kRowsT);

  issueTile(0, 0);
  for (int t = 0; t < numTiles; ++t) {
    const int cur = t & 1;
    waitAll();        // this thread's copies of tile t have landed
    __syncthreads();  // everyone's have; everyone is done reading stage cur ^ 1 (tile t − 1)
    if (t + 1 < numTiles) issueTile(t + 1, cur ^ 1);  // in flight during the FMAs below
    if constexpr (C == Copy::kShift)
      tile.template accumulateShifted<BK>(as[cur], bs[cur], aShift, bShift);
    else
      tile.template accumulate<BK>(as[cur], bs[cur]);
  }
  tile.store(c, n, row0, col0, mRem, nRem, alpha, beta);
}

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

// 64×64 tiles (256 threads) where that grid fills the GPU; 32×32 tiles (64 threads, same 4×4
// micro-tile) where it would leave SMs idle: see smallerTilePays. Same tiers as bank_free.
constexpr int kBk = 32, kTm = 4, kTn = 4;

template <int BM, int BN, Copy C>
void launchWith(const GemmArgs& g) {
  const TileGrid grid = tileGrid(g.shape, BM, BN);
  sgemmDoubleBufferKernel<BM, BN, kBk, kTm, kTn, C>
      <<<grid.blocks, (BM / kTm) * (BN / kTn), 0, g.stream>>>(int(g.shape.m), int(g.shape.n),
                                                              int(g.shape.k), g.alpha, g.a, g.b,
                                                              g.beta, g.c, grid.tilesN);
  KWB_CHECK_LAUNCH();
}

template <int BM, int BN>
void launchTile(const GemmArgs& g) {
  // Every row of A starts 16-byte aligned when K % 4 == 0 and A's base is; of B when N % 4 == 0.
  // Otherwise rows start 0..3 floats past a 16-byte boundary when the bases are aligned.
  if (!aligned16(g.a) || !aligned16(g.b))
    launchWith<BM, BN, Copy::kScalar>(g);
  else if (g.shape.k % 4 == 0 && g.shape.n % 4 == 0)
    launchWith<BM, BN, Copy::kVec>(g);
  else
    launchWith<BM, BN, Copy::kShift>(g);
}

}  // namespace

LaunchInfo launchSgemmDoubleBuffer(const GemmArgs& g) {
#ifdef KWB_PERF_EXPERIMENT  // measurement builds only: force the tile (32, 64) and the copy path
  if (const char* t = std::getenv("KWB_DB_TILE")) {
    const char* c = std::getenv("KWB_DB_COPY");
    const bool scalar = c && std::string(c) == "scalar";
    if (std::string(t) == "32")
      scalar ? launchWith<32, 32, Copy::kScalar>(g) : launchTile<32, 32>(g);
    else
      scalar ? launchWith<64, 64, Copy::kScalar>(g) : launchTile<64, 64>(g);
    return {false, "sgemm.double_buffer"};
  }
#endif
  if (smallerTilePays(g.shape, 64, 64, detail::multiprocessors()))
    launchTile<32, 32>(g);
  else
    launchTile<64, 64>(g);
  return {false, "sgemm.double_buffer"};
}

KernelDescriptor sgemmDoubleBuffer() {
  KernelDescriptor d;
  d.id = "sgemm.double_buffer";
  d.displayName = "Double-buffered";
  d.family = "sgemm";
  d.description =
      "sgemm.bank_free with two shared stages filled by cp.async (16-byte, rows shifted in "
      "shared memory when K or N % 4 != 0; 4-byte for unaligned bases; zero-fill at the edges): "
      "tile t+1 copies while tile t computes, one barrier per tile; 32x32 tiles where 64x64 "
      "leaves SMs idle";
  d.launch = &launchSgemmDoubleBuffer;
  d.progressionNotes = {
      {.why = "K or N is not a multiple of 4: rows of A or B start off a 16-byte boundary, so "
              "every row takes one more shifted 16-byte copy and the inner loop reads at a "
              "per-row shift, where bank_free loads plain floats; measured on an H100 at "
              "511x513x1025: 53.8 us (4-byte copies 54.0) against bank_free's 51.0",
       .unalignedOnly = true}};
  return d;
}

}  // namespace kwb::kernels
