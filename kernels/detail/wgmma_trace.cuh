// SPDX-License-Identifier: Apache-2.0
#pragma once
// Measurement builds with KWB_WGMMA_TRACE defined only (-DKWB_PERF_EXPERIMENT -DKWB_WGMMA_TRACE:
// the marks cost global loads, so a build that times does not have them): a timeline of each CTA of
// sgemm.wgmma's tile kernel, to see where a small launch's time goes. With KWB_WGMMA_TRACE=1 every
// CTA writes, for its first unit, the SM clock at its marks (entry, barriers ready, the producer
// about to issue its first copy, first stage landed, last k block done, epilogue issued, consumers'
// exit, and in a cluster the producer's drained ring) and the global timer at entry and exit into
// mapped host memory; at process exit the last launch's records are summarised on stderr (per mark:
// mean and max cycles since entry over the CTAs; the spread of the CTAs' entry and exit times).
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
  unsigned used;
};

__device__ Record* gRecords = nullptr;

__device__ __forceinline__ unsigned long long globalTimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Mark `m` for this CTA (call from one thread); `first`: only its first unit counts.
__device__ __forceinline__ void mark(Mark m, bool first = true) {
  Record* r = gRecords;
  if (r == nullptr || !first || blockIdx.x >= kMaxCtas) return;
  Record& c = r[blockIdx.x];
  c.clock[m] = clock64();
  if (m == kEntry) {
    c.globalEntry = globalTimer();
    c.used = 1;
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

inline Record* hostRecords = nullptr;

inline void summarise() {
  std::vector<const Record*> used;
  for (int i = 0; i < kMaxCtas; ++i)
    if (hostRecords[i].used) used.push_back(&hostRecords[i]);
  if (used.empty()) return;
  static const char* names[kMarks] = {"entry",     "ready",  "producing", "first stage",
                                      "loop done", "stored", "exit",      "drained"};
  std::fprintf(stderr, "wgmma trace: %zu CTAs (cycles since entry: mean / max)\n", used.size());
  for (int m = 1; m < kMarks; ++m) {
    double sum = 0, most = 0;
    if (used.front()->clock[m] == 0) continue;  // a mark this kernel does not reach
    for (const Record* r : used) {
      const double d = double(r->clock[m] - r->clock[kEntry]);
      sum += d, most = std::max(most, d);
    }
    std::fprintf(stderr, "  %-12s %8.0f / %8.0f\n", names[m], sum / double(used.size()), most);
  }
  unsigned long long e0 = ~0ull, e1 = 0, x0 = ~0ull, x1 = 0;
  for (const Record* r : used) {
    e0 = std::min(e0, r->globalEntry), e1 = std::max(e1, r->globalEntry);
    x0 = std::min(x0, r->globalExit), x1 = std::max(x1, r->globalExit);
  }
  std::fprintf(stderr,
               "  entries spread %llu ns, exits spread %llu ns, first entry to last exit %llu ns\n",
               e1 - e0, x1 - x0, x1 - e0);
}

// Once per process, where KWB_WGMMA_TRACE=1: mapped host records, their device address in
// gRecords, and the summary at exit.
inline void enableOnce() {
  static const bool on = [] {
    const char* e = std::getenv("KWB_WGMMA_TRACE");
    if (e == nullptr || *e != '1') return false;
    void* host = nullptr;
    if (cudaHostAlloc(&host, sizeof(Record) * kMaxCtas, cudaHostAllocMapped) != cudaSuccess)
      return false;
    hostRecords = static_cast<Record*>(host);
    void* dev = nullptr;
    cudaHostGetDevicePointer(&dev, host, 0);
    cudaMemcpyToSymbol(gRecords, &dev, sizeof(dev));
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
