// SPDX-License-Identifier: Apache-2.0
#pragma once
// Measurement builds with KWB_WGMMA_TRACE defined only (-DKWB_PERF_EXPERIMENT -DKWB_WGMMA_TRACE):
// a timeline of each CTA of sgemm.wgmma's tile kernel, to see where a small launch's time goes.
// Every CTA writes, for its first unit, the SM clock at its marks (entry, barriers ready, the
// producer about to issue its first copy, first stage landed, last k block done, epilogue issued,
// consumers' exit, and in a cluster the producer's drained ring) and the global timer at entry
// and exit into a device array, each launch over the last; with KWB_WGMMA_TRACE=1 the last
// launch's records are copied back and summarised on stderr at process exit (per mark: mean and
// max cycles since entry over the CTAs; the spread of the CTAs' entry and exit times). A mark is
// one store to device memory with no load before it. The marks still slow the kernel: on an H200
// at 768^3 the 128x64 tile took 5.4 us in this build against 4.4 in a release build (5.6 when
// the marks loaded a pointer and wrote into mapped host memory), and they reorder the tiles
// (kernels/PERF_NOTES.md). Interleaved against a release build the trace build read 13-20% slower
// at 512^3-1024^3 (SAME at 4096^3; 2-4 points of it a read since moved behind its own flag,
// detail/wgmma_unit_order.cuh) with and without the global-timer reads at entry and exit, so the
// marks' stores are the cost, not those reads. Compare a trace build's cycles within one tile,
// and its medians with a release build's.
#if defined(KWB_PERF_EXPERIMENT) && defined(KWB_WGMMA_TRACE)
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "detail/wgmma_ptx.cuh"

namespace kwb::kernels::wgmma::trace {

enum Mark { kEntry, kReady, kProducing, kFirstStage, kLoopDone, kStored, kExit, kDrained, kMarks };
inline constexpr int kMaxCtas = 1024;
struct Record {
  unsigned long long clock[kMarks];
  unsigned long long globalEntry, globalExit;
  unsigned grid;  // the launch's CTAs, written by each at entry
};

// The records of the latest launch (and, past its grid, older ones: the summary reads CTA 0's
// grid).
__device__ Record gRecords[kMaxCtas];

__device__ __forceinline__ unsigned long long globalTimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Mark `m` for this CTA (call from one thread); `first`: only its first unit counts.
__device__ __forceinline__ void mark(Mark m, bool first = true) {
  if (!first || blockIdx.x >= kMaxCtas) return;
  Record& c = gRecords[blockIdx.x];
  c.clock[m] = clock64();
  if (m == kEntry) {
    c.globalEntry = globalTimer();
    c.grid = gridDim.x;
    for (int i = kEntry + 1; i < kMarks; ++i) c.clock[i] = 0;  // marks this launch may not reach
  }
  if (m == kExit) c.globalExit = globalTimer();
}

// A consumer thread before its first unit: waits for the first stage (its own wait then returns
// at once) and marks when it landed.
template <class RingT, class PosT>
__device__ __forceinline__ void markFirstStage(const RingT& r, const PosT& p) {
  mbarWait(r.full(p.s), p.phase);
  mark(kFirstStage);
}

inline void summarise() {
  std::vector<Record> all(kMaxCtas);
  if (cudaMemcpyFromSymbol(all.data(), gRecords, sizeof(Record) * kMaxCtas) != cudaSuccess) {
    std::fprintf(stderr, "wgmma trace: the records could not be read back\n");
    return;
  }
  const unsigned grid = std::min<unsigned>(all[0].grid, kMaxCtas);
  if (grid == 0) return;  // no tile kernel ran
  all.resize(grid);       // the last launch's CTAs
  static const char* names[kMarks] = {"entry",     "ready",  "producing", "first stage",
                                      "loop done", "stored", "exit",      "drained"};
  std::fprintf(stderr, "wgmma trace: %zu CTAs (cycles since entry: mean / max)\n", all.size());
  for (int m = 1; m < kMarks; ++m) {
    double sum = 0, most = 0;
    if (all.front().clock[m] == 0) continue;  // a mark this kernel does not reach
    for (const Record& r : all) {
      const double d = double(r.clock[m] - r.clock[kEntry]);
      sum += d, most = std::max(most, d);
    }
    std::fprintf(stderr, "  %-12s %8.0f / %8.0f\n", names[m], sum / double(all.size()), most);
  }
  unsigned long long e0 = ~0ull, e1 = 0, x0 = ~0ull, x1 = 0;
  for (const Record& r : all) {
    e0 = std::min(e0, r.globalEntry), e1 = std::max(e1, r.globalEntry);
    x0 = std::min(x0, r.globalExit), x1 = std::max(x1, r.globalExit);
  }
  std::fprintf(stderr,
               "  entries spread %llu ns, exits spread %llu ns, first entry to last exit %llu ns\n",
               e1 - e0, x1 - x0, x1 - e0);
}

// Once per process, where KWB_WGMMA_TRACE=1: the summary at exit (registered after the CUDA
// runtime's own exit handler, so it runs first, with the context still there).
inline void enableOnce() {
  static const bool on = [] {
    const char* e = std::getenv("KWB_WGMMA_TRACE");
    if (e == nullptr || *e != '1') return false;
    std::atexit(summarise);
    return true;
  }();
  (void)on;
}

}  // namespace kwb::kernels::wgmma::trace
#define KWB_WGMMA_MARK(...) ::kwb::kernels::wgmma::trace::mark(__VA_ARGS__)
#define KWB_WGMMA_MARK_FIRST_STAGE(r, p) ::kwb::kernels::wgmma::trace::markFirstStage(r, p)
#define KWB_WGMMA_TRACE_ON() ::kwb::kernels::wgmma::trace::enableOnce()
#else
#define KWB_WGMMA_MARK(...) ((void)0)
#define KWB_WGMMA_MARK_FIRST_STAGE(r, p) ((void)0)
#define KWB_WGMMA_TRACE_ON() ((void)0)
#endif
