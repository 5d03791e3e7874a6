// SPDX-License-Identifier: Apache-2.0
#pragma once
// The decoupled look-back of scan.decoupled_lookback (Merrill & Garland, "Single-pass Parallel
// Prefix Scan with Decoupled Look-back", 2016), run by one warp of each tile.
//
// Each tile publishes one 64-bit status word: a tag in the high half, the value's bits in the
// low half. The tag is the launch's epoch (30 bits) and a kind (AGGREGATE: the tile's own total,
// PREFIX: the sum of tiles 0 .. tile). A word whose epoch is not this launch's, or whose kind is
// 0 (the zeroed workspace), is "nothing yet": the statuses are never cleared between launches,
// because every launch writes each of its tiles' words with its own epoch, and the previous
// launch's words carry the epoch before it. Tag and value travel in one access, so a reader
// never pairs a tag with a stale value, and nothing else is published through the word: relaxed
// device-scope loads and stores (cuda::atomic_ref) are all the ordering needed, no fence.
//
// Why the window is wide: each step of the look-back costs a status read from L2 and then a
// status write that the next tiles must see, and a step reaches back kWindow tiles. So the
// chain of PREFIX values cannot advance faster than about kWindow tiles a step: with 32 tiles
// (one status per lane) and ~0.35 us a step that is ~90 tiles/us of 4096 floats, 2.9 TB/s of
// reads and writes, about where the 32-wide look-back measured on an H200. Each lane reads
// kSlots statuses (independent loads, one round trip), so a window of 32 kSlots tiles per step
// lifts that ceiling kSlots-fold.
//
// The wait: a lane that finds a status not yet published re-reads only that one, after
// __nanosleep with doubling back-off (many warps polling the same few L2 lines slow everyone,
// the statuses' writers included). Only statuses nearer than the nearest PREFIX are waited
// for. A tile's predecessors all took their tile numbers before it did (an atomic counter), so
// they are running and will publish: the wait always ends.
#include <cuda/atomic>

#include "reduce/vector_common.cuh"

namespace kwb::kernels::scan::lookback {

using Status = unsigned long long;

// This launch's two tags, the high half of a status word: epoch bits 0-29 above a kind of 1
// (AGGREGATE) or 2 (PREFIX). Epochs that differ by less than 2^30 launches give different tags.
// Kept as one 32-bit word (the tags' common base), not two 64-bit ones: a register fewer.
struct Tags {
  unsigned base;  // epoch << 2
  __device__ explicit Tags(unsigned epoch) : base(epoch << 2) {}
  __device__ Status aggregate() const { return Status(base | 1u) << 32; }
  __device__ Status prefix() const { return Status(base | 2u) << 32; }
  __device__ bool isPrefix(Status s) const { return unsigned(s >> 32) == (base | 2u); }
  // This epoch's. Every word a launch writes has a kind; the only word without one is the
  // workspace's zero fill, which matches epoch 0's base but is 0.
  __device__ bool published(Status s) const {
    return (unsigned(s >> 32) & ~3u) == base && (s >> 32) != 0;
  }
};

// How the look-back waits: statuses per lane, the back-off between re-reads in ns, and a sleep
// before the first read (CUB's tuning sleeps ~1 us there on Hopper, so that the predecessors
// have published by then and the first read is the only one).
template <int kSlotsP, unsigned kFirstSleepP, unsigned kMaxSleepP, unsigned kBeforeReadP = 0>
struct Policy {
  static constexpr int kSlots = kSlotsP;
  static constexpr int kWindow = 32 * kSlots;
  static constexpr unsigned kFirstSleep = kFirstSleepP, kMaxSleep = kMaxSleepP;
  static constexpr unsigned kBeforeRead = kBeforeReadP;
  static constexpr unsigned kNsPerTileBehind = 0;  // a fixed sleep before the first read
  static_assert(kSlots >= 1 && kSlots <= 8);
};

// A Policy whose sleep before the first read scales with the tile's distance from the chain's
// head: every tile that publishes its PREFIX raises a shared mark to its number + 1 (one
// atomicMax), and a tile about to look back reads the mark and sleeps kBeforeRead ns plus
// kNsPerTileBehind for each tile between the newest PREFIX and itself, at most kBeforeReadMax.
// A tile close behind the head finds a PREFIX in its first window and waits only for its
// neighbours' totals; one far behind would otherwise re-read while the chain catches up.
template <int kSlotsP, unsigned kFirstSleepP, unsigned kMaxSleepP, unsigned kBeforeReadP,
          unsigned kNsPerTileBehindP, unsigned kBeforeReadMaxP>
struct ChainPolicy : Policy<kSlotsP, kFirstSleepP, kMaxSleepP, kBeforeReadP> {
  static constexpr unsigned kNsPerTileBehind = kNsPerTileBehindP;
  static constexpr unsigned kBeforeReadMax = kBeforeReadMaxP;
  static_assert(kNsPerTileBehind >= 1 && kNsPerTileBehind <= 1024);  // x 2^20 tiles: no overflow
  static_assert(kBeforeReadMax >= kBeforeReadP);
};

__device__ inline unsigned bitsOf(float x) { return __float_as_uint(x); }
__device__ inline unsigned bitsOf(int x) { return unsigned(x); }
template <typename T>
__device__ inline T valueOf(Status s) {
  if constexpr (sizeof(T) == 4 && T(0.5) != T(0))
    return __uint_as_float(unsigned(s));
  else
    return T(unsigned(s));
}

__device__ inline Status read(Status* status) {
  return ::cuda::atomic_ref<Status, ::cuda::thread_scope_device>(*status).load(
      ::cuda::memory_order_relaxed);
}

template <typename T>
__device__ inline void publish(Status* status, Status flag, T value) {
  ::cuda::atomic_ref<Status, ::cuda::thread_scope_device>(*status).store(
      flag | bitsOf(value), ::cuda::memory_order_relaxed);
}

// Slot j of a lane is the status at distance d = 32 j + lane from `newest` (d = 0 the nearest);
// a distance before tile 0 reads as a PREFIX of 0.
template <typename P>
__device__ inline void readWindow(Status* status, int newest, const Tags& tags,
                                  Status (&s)[P::kSlots]) {
  const int lane = int(threadIdx.x % 32);
#pragma unroll
  for (int j = 0; j < P::kSlots; ++j) {
    const int pred = newest - 32 * j - lane;
    s[j] = pred >= 0 ? read(status + pred) : tags.prefix();
  }
}

// The distance of the nearest PREFIX in the window (kWindow if none) once every status nearer
// than it is published. Warp-uniform: every decision is made on ballots.
template <typename P>
__device__ inline int settleWindow(Status* status, int newest, const Tags& tags,
                                   Status (&s)[P::kSlots]) {
  unsigned sleep = P::kFirstSleep;
  for (;;) {
    int stop = P::kWindow;
    bool waiting = false;
#pragma unroll
    for (int j = P::kSlots - 1; j >= 0; --j) {  // nearest last: it decides
      const unsigned prefixes = __ballot_sync(0xffffffffu, tags.isPrefix(s[j]));
      if (prefixes) stop = 32 * j + __ffs(prefixes) - 1;
    }
#pragma unroll
    for (int j = 0; j < P::kSlots; ++j) {
      const int d = 32 * j + int(threadIdx.x % 32);
      waiting |= d < stop && !tags.published(s[j]);
    }
    if (!__any_sync(0xffffffffu, waiting)) return stop;
    if constexpr (P::kFirstSleep == P::kMaxSleep) {  // a fixed delay (CUB's), or 0: spin
      if constexpr (P::kMaxSleep > 0) __nanosleep(P::kMaxSleep);
    } else {
      __nanosleep(sleep);
      sleep = min(sleep * 2, P::kMaxSleep);
    }
    const int lane = int(threadIdx.x % 32);
#pragma unroll
    for (int j = 0; j < P::kSlots; ++j)
      if (32 * j + lane < stop && !tags.published(s[j]))
        s[j] = read(status + (newest - 32 * j - lane));
  }
}

// The chain's head mark (Policy::kNsPerTileBehind): the launch's full 32-bit epoch above the
// number + 1 of the newest tile with a PREFIX, raised with a 64-bit atomicMax, so a mark left by
// an earlier launch is below every mark of this one (until the epoch wraps after 2^32 launches,
// when a stale mark only shortens a sleep).
using Head = unsigned long long;

// The sleep before the first read when it scales with the distance from the chain's head.
template <typename P>
__device__ inline unsigned sleepBeforeRead(Head* head, unsigned epoch, int tile) {
  const Head mark = ::cuda::atomic_ref<Head, ::cuda::thread_scope_device>(*head).load(
      ::cuda::memory_order_relaxed);
  const unsigned newest = unsigned(mark >> 32) == epoch ? unsigned(mark) : 0u;
  const unsigned behind = unsigned(tile) - min(newest, unsigned(tile));
  return min(P::kBeforeRead + min(behind, 1u << 20) * P::kNsPerTileBehind, P::kBeforeReadMax);
}

template <typename P>
__device__ inline void raiseHead(Head* head, unsigned epoch, int tile) {
  if constexpr (P::kNsPerTileBehind > 0)
    if (threadIdx.x % 32 == 0) atomicMax(head, (Head(epoch) << 32) | (unsigned(tile) + 1u));
}

// Run by the 32 lanes of one warp, converged, with the tile's total in every lane: publishes
// it, walks back to the nearest PREFIX, publishes the tile's own PREFIX, and returns the sum of
// tiles 0 .. tile - 1 in every lane. `epoch` is the launch's (the statuses' tags); `head` is
// used only by a policy whose first sleep scales with the distance from the chain's head.
template <typename T, typename P>
__device__ inline T lookBack(Status* status, Head* head, unsigned epoch, int tile, T aggregate) {
  const int lane = int(threadIdx.x % 32);
  const Tags tags(epoch);
  if (tile == 0) {
    if (lane == 0) publish(status, tags.prefix(), aggregate);
    raiseHead<P>(head, epoch, tile);
    return T(0);
  }
  if (lane == 0) publish(status + tile, tags.aggregate(), aggregate);
  if constexpr (P::kNsPerTileBehind > 0)
    __nanosleep(sleepBeforeRead<P>(head, epoch, tile));
  else if constexpr (P::kBeforeRead > 0)
    __nanosleep(P::kBeforeRead);
  T exclusive = T(0);
  for (int newest = tile - 1;; newest -= P::kWindow) {
    Status s[P::kSlots];
    readWindow<P>(status, newest, tags, s);
    const int stop = settleWindow<P>(status, newest, tags, s);
    T mine = T(0);  // this lane's statuses up to and including the PREFIX
#pragma unroll
    for (int j = 0; j < P::kSlots; ++j)
      if (32 * j + lane <= stop) mine = vec::add(mine, valueOf<T>(s[j]));
    const T window = __shfl_sync(0xffffffffu, vec::warpSum(mine), 0);
    exclusive = vec::add(window, exclusive);
    if (stop < P::kWindow) break;
  }
  if (lane == 0) publish(status + tile, tags.prefix(), vec::add(exclusive, aggregate));
  raiseHead<P>(head, epoch, tile);
  return exclusive;
}

}  // namespace kwb::kernels::scan::lookback
