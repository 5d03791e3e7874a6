// SPDX-License-Identifier: Apache-2.0
// Where sgemm.wgmma's split-K across a cluster (kernels/sgemm_wgmma_cluster_split.cu) spends the
// ~2.5 us it measured beyond whole K at 512^3 (kernels/PERF_NOTES.md, "Split-K across a
// cluster"): kernels with the split's launch geometry and none of its main loop, each adding one
// of its costs to the row before (the difference of two rows is one step's cost):
//   1 empty    an empty kernel, no cluster attribute (the baseline of its group)
//   2 cluster  the same kernel from cudaLaunchKernelEx with a cluster dimension of S (the split's
//              launch: wgmma::clusterLaunch); 2s: a copy declared __cluster_dims__(S), no attribute
//   3 sync1    + one cluster barrier (barrier.cluster.arrive.release / wait.acquire), every thread
//   4 sync2    + a second one: the split's two, the producer warpgroup in its own branch
//   5 park     + before the first barrier, the 256 consumer threads store an FP32 128 x (BN + 8)
//              tile in shared memory from the m64nBNk16 accumulator layout, as the split parks it
//   6 dsmem    + between the barriers, rank z sums its band of rows over the S partials through
//              DSMEM (mapa + ld.shared::cluster.v4, S loads per float4, up to 16 in flight) and
//              stores it to C, as the split reduces
//   7 global   6 with the partials in a global workspace instead: stores, __threadfence, one
//              cluster barrier, .cg loads (no second barrier: nothing to keep alive)
// Groups: S = 2, 3, 4 (32 clusters: 64, 96, 128 CTAs) and S = 1 (128 CTAs, clusters of one),
// times BN = 64, 128, 256 with the split's shared memory for BN (97, 129, 193 KB); 384 threads;
// one CTA per SM (the split's registers force it, here a carveout that fits one CTA: "CTAs/SM",
// and "SMs" the SMs that rows 3-7 ran on, one store a CTA). C: 32 (S = 1: 128) tiles of
// 128 x BN, 8 across (512 x 512 at BN = 64); rows 6 and 7 are checked exactly. Each row: the
// median per launch (us) of 7 replays of a CUDA graph of 200 launches. "at once":
// cudaOccupancyMaxActiveClusters (CTAs for row 1); waves > 1 marks a second wave.
// Build and run on the GPU machine (sm_90a), from the repository root:
//   nvcc -O3 -std=c++20 -arch=sm_90a -Ikernels -Icore/model/include -Icore/base/include \
//     -Icore/cuda/include -o /tmp/cluster-cost scripts/cluster-cost.cu && /tmp/cluster-cost
// Options: --only PART[,PART] keeps the rows whose name contains a part (and the row 1 of each
// kept row's group), e.g. --only S2.BN64 or --only dsmem,global; --list prints the rows' names.
// All 96 rows take a few seconds on an H200.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "detail/wgmma_ptx.cuh"   // clusterSync, storeShared, smemAddr; defines KWB_WGMMA_TARGET
#include "detail/wgmma_ring.cuh"  // clusterLaunch, kThreads, TileN (the ring's shared memory)
#include "kwb/cuda/check.h"
#define KWB_SWEEP_OWN_CUDA_ERROR  // a failed row is reported and the others run (below)
#include "sweep_common.cuh"

// kwb/cuda/check.h's error path lives in the core library; this tool stands alone. A failed row
// is reported and skipped; one that leaves the context broken ends the run (main).
namespace kwb::cuda {
void throwCudaError(cudaError_t e, const char* call, const char* file, int line) {
  throw CudaError(std::string(file) + ":" + std::to_string(line) + ": " + call + ": " +
                      cudaGetErrorName(e) + ": " + cudaGetErrorString(e),
                  int(e), false);
}
}  // namespace kwb::cuda

namespace {

using namespace kwb::sweeptool;  // NOLINT(google-build-using-namespace)

using namespace kwb::kernels::wgmma;  // NOLINT(google-build-using-namespace): the PTX wrappers

constexpr int kTilesAcross = 8;  // tiles per row of C
// C and the workspace: 128 tiles of 128 x 256 floats at most. After the workspace, each CTA of
// rows 3-7 notes its SM (%smid), to show that no SM ran two.
constexpr std::size_t kFloats = std::size_t(128) * kBM * 256;
constexpr int kReps = 200, kRounds = 7;

// The split's shared memory for BN (kSmemBytes, private to its .cu): the ring, 1024-byte aligned,
// and its barriers. Its parked partial is a 128 x (BN + 8) float tile over the ring's bytes.
template <int BN>
constexpr std::size_t kSmemBytes = 1024 +
                                   std::size_t(TileN<BN>::kRingBytes) + TileN<BN>::kBarrierBytes;
template <int BN>
constexpr int kStride = BN + 8;

// The fake accumulators: distinct per tile, split, row and column, so that a misplaced float
// shows, and small enough (< 2^20 + 8) that any sum of S ≤ 8 of them is exact in FP32.
__host__ __device__ constexpr int partialValue(int tile, int rank, int r, int col, int bn) {
  return ((tile * 131 + r * bn + col) & 0xFFFFF) + rank;
}

#if KWB_WGMMA_TARGET
// clusterRank and loadCluster are the split's own (detail/wgmma_ptx.cuh); its sumSplits,
// parkPartial and reduceBand are private to its .cu, so these are minimal equivalents: the same
// instructions, address arithmetic, load grouping and order, without M/N clipping, beta and
// scalar stores (C here is whole tiles, 16-byte aligned).

// A consumer thread's share of the tile (t = 0 … 255; m64nBNk16 layout: row 16·warp + lane/4 +
// 8h of its warpgroup's 64, columns 8j + 2·(lane % 4) + {0, 1}) into shared memory at `partial`
// (8-byte stores, rows BN + 8 floats apart) or into the global workspace `own` (rows BN apart).
template <int BN, bool Global>
__device__ __forceinline__ void park(std::uint32_t partial, float* own, int t, int tile, int rank) {
  const int lane = t % 32, row = t / 128 * 64 + (t % 128) / 32 * 16 + lane / 4;
  float* const mine = own + row * BN + 2 * (lane % 4);  // then constant offsets
#pragma unroll
  for (int j = 0; j < BN / 8; ++j)
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int r = row + 8 * h, col = 8 * j + 2 * (lane % 4);
      const float x = float(partialValue(tile, rank, r, col, BN));
      const float y = float(partialValue(tile, rank, r, col + 1, BN));
      if constexpr (Global)
        *reinterpret_cast<float2*>(mine + 8 * h * BN + 8 * j) = make_float2(x, y);
      else
        storeShared(partial + std::uint32_t((r * kStride<BN> + col) * 4), x, y);
    }
}

// Rank z's band of rows [z·R, (z+1)·R), R = ⌈128 / S⌉, summed over the S partials in split order
// (all S loads of a float4 issued before its adds; up to 16 loads in flight a thread), times
// alpha, to C. `peers`: split 0's workspace tile, the others following (Global only).
template <int BN, int S, bool Global>
__device__ __forceinline__ void reduceBand(std::uint32_t partial, const float* peers, int rank,
                                           int t, int tile, float alpha, float* c) {
  constexpr int kVecs = BN / 4, kBand = (kBM + S - 1) / S, kReducers = kConsumers * 128;
  constexpr int kIters = (kBand * kVecs + kReducers - 1) / kReducers;
  constexpr int kGroup = kIters < 16 / S ? kIters : 16 / S;
  const int first = rank * kBand, rows = min(kBand, kBM - first), total = rows * kVecs;
  if (total <= 0) return;
  const int n = kTilesAcross * BN, row0 = tile / kTilesAcross * kBM;
  const int col0 = tile % kTilesAcross * BN;
#pragma unroll 1
  for (int g = 0; g < kIters; g += kGroup) {
    float4 sum[kGroup];
#pragma unroll
    for (int j = 0; j < kGroup; ++j) {
      const int i = min(t + (g + j) * kReducers, total - 1), r = first + i / kVecs;
      const float4* p = reinterpret_cast<const float4*>(peers + r * BN) + i % kVecs;
      float4 v[S];
#pragma unroll
      for (int z = 0; z < S; ++z)
        if constexpr (Global)
          v[z] = __ldcg(p + z * kBM * kVecs);
        else
          v[z] = loadCluster(partial + std::uint32_t((r * kStride<BN> + 4 * (i % kVecs)) * 4),
                             std::uint32_t(z));
      sum[j] = v[0];
#pragma unroll
      for (int z = 1; z < S; ++z)
        sum[j] =
            make_float4(sum[j].x + v[z].x, sum[j].y + v[z].y, sum[j].z + v[z].z, sum[j].w + v[z].w);
    }
#pragma unroll
    for (int j = 0; j < kGroup; ++j) {
      const int i = t + (g + j) * kReducers;
      if (i < total)
        *reinterpret_cast<float4*>(c + std::int64_t(row0 + first + i / kVecs) * n + col0 +
                                   4 * (i % kVecs)) =
            make_float4(alpha * sum[j].x, alpha * sum[j].y, alpha * sum[j].z, alpha * sum[j].w);
    }
  }
}
#endif

// Rows 1 and 2 (BN only makes each width its own function, with its own carveout).
template <int BN>
__global__ void __launch_bounds__(kThreads, 1) emptyKernel(float*, float*, float) {}

template <int BN, int S>
__global__ void __cluster_dims__(S, 1, 1) __launch_bounds__(kThreads, 1)
    emptyDimsKernel(float*, float*, float) {}

// Rows 3 to 7, launched in clusters of S along x: rank z of cluster t is split z of tile t.
template <int Step, int BN, int S>
__global__ void __launch_bounds__(kThreads, 1)
    ladderKernel(float* __restrict__ c, float* __restrict__ work, float alpha) {
#if KWB_WGMMA_TARGET
  constexpr bool kGlobal = Step == 7, kTwoBarriers = Step != 3 && Step != 7;
  extern __shared__ unsigned char smemRaw[];
  const std::uint32_t partial = (smemAddr(smemRaw) + 1023u) & ~1023u;
  const int tid = int(threadIdx.x), rank = int(clusterRank()), tile = int(blockIdx.x) / S;
  if (tid == 0) {
    unsigned sm = 0;
    asm volatile("mov.u32 %0, %%smid;\n" : "=r"(sm));
    reinterpret_cast<unsigned*>(work + kFloats)[blockIdx.x] = sm;
  }
  if (tid < 128) {  // the producer warpgroup: nothing to park or reduce, as in the split
    clusterSync();
    if constexpr (kTwoBarriers) clusterSync();
    return;
  }
  const int t = tid - 128;
  if constexpr (Step >= 5)
    park<BN, kGlobal>(partial, work + std::int64_t(blockIdx.x) * kBM * BN, t, tile, rank);
  if constexpr (kGlobal) __threadfence();
  clusterSync();  // every partial of the cluster in place
  if constexpr (Step >= 6)
    reduceBand<BN, S, kGlobal>(partial, work + std::int64_t(tile) * S * kBM * BN, rank, t, tile,
                               alpha, c);
  if constexpr (kTwoBarriers) clusterSync();  // no CTA leaves while a peer reads its partial
#else
  __trap();
#endif
}

using Kernel = void (*)(float*, float*, float);
enum class ClusterMode { kNone, kAttribute, kDims };

struct Row {
  std::string name, step;
  int s = 1, bn = 64;
  std::size_t smem = 0;
  unsigned blocks = 0;
  Kernel kernel = nullptr;
  ClusterMode mode = ClusterMode::kNone;
};

template <int BN, int S>
void addGroup(std::vector<Row>& rows) {
  const unsigned blocks = S == 1 ? 128u : 32u * S;
  auto add = [&](const char* step, const char* what, Kernel k, ClusterMode mode) {
    char name[40];
    std::snprintf(name, sizeof name, "S%d.BN%d.%s-%s", S, BN, step, what);
    rows.push_back({name, step, S, BN, kSmemBytes<BN>, blocks, k, mode});
  };
  add("1", "empty", &emptyKernel<BN>, ClusterMode::kNone);
  add("2", "cluster", &emptyKernel<BN>, ClusterMode::kAttribute);
  add("2s", "dims", &emptyDimsKernel<BN, S>, ClusterMode::kDims);
  add("3", "sync1", &ladderKernel<3, BN, 1>, ClusterMode::kAttribute);
  add("4", "sync2", &ladderKernel<4, BN, 1>, ClusterMode::kAttribute);
  add("5", "park", &ladderKernel<5, BN, 1>, ClusterMode::kAttribute);
  add("6", "dsmem", &ladderKernel<6, BN, S>, ClusterMode::kAttribute);
  add("7", "global", &ladderKernel<7, BN, S>, ClusterMode::kAttribute);
}

template <int... S>
std::vector<Row> groups() {
  std::vector<Row> r;
  ((addGroup<64, S>(r), addGroup<128, S>(r), addGroup<256, S>(r)), ...);
  return r;
}

const std::vector<Row>& allRows() {
  static const std::vector<Row> rows = groups<2, 3, 4, 1>();  // the measured 512^3 cell first
  return rows;
}

// One launch of a row; `attr` must outlive the configuration.
cudaLaunchConfig_t launchConfig(const Row& row, cudaStream_t stream, cudaLaunchAttribute& attr) {
  cudaLaunchConfig_t cfg = clusterLaunch(row.blocks, row.s, row.smem, stream, attr);
  if (row.mode != ClusterMode::kAttribute) cfg.numAttrs = 0;
  return cfg;
}

void launch(const Row& row, float* c, float* work, cudaStream_t stream) {
  cudaLaunchAttribute attr{};
  const cudaLaunchConfig_t cfg = launchConfig(row, stream, attr);
  KWB_CUDA_CHECK(cudaLaunchKernelEx(&cfg, row.kernel, c, work, 1.0f));
  KWB_CHECK_LAUNCH();
}

// Per-launch microseconds of kRounds replays of a graph of kReps launches (warmed once).
std::vector<double> graphSamples(const std::function<void(cudaStream_t)>& once,
                                 cudaStream_t stream) {
  std::vector<double> us = graphRoundsMs(once, kReps, kRounds, stream);
  for (double& u : us) u *= 1e3;
  return us;
}

struct Occupancy {
  int ctasPerSm = 0, atOnce = 0, waves = 0;  // atOnce: clusters (CTAs without a cluster)
};

Occupancy occupancy(const Row& row, int sms) {
  Occupancy o;
  KWB_CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&o.ctasPerSm, row.kernel, kThreads, row.smem));
  unsigned units = row.blocks;
  if (row.mode == ClusterMode::kNone) {
    o.atOnce = o.ctasPerSm * sms;
  } else {
    cudaLaunchAttribute attr{};
    const cudaLaunchConfig_t cfg = launchConfig(row, nullptr, attr);
    KWB_CUDA_CHECK(cudaOccupancyMaxActiveClusters(&o.atOnce, row.kernel, &cfg));
    units /= unsigned(row.s);
  }
  o.waves = o.atOnce > 0 ? int((units + unsigned(o.atOnce) - 1) / unsigned(o.atOnce)) : 0;
  return o;
}

// Rows 3-7: how many SMs the last launch's CTAs ran on (fewer than CTAs: an SM ran two).
int distinctSms(const Row& row, const float* work) {
  std::vector<unsigned> sm(row.blocks);
  KWB_CUDA_CHECK(cudaMemcpy(sm.data(), work + kFloats, sm.size() * 4, cudaMemcpyDeviceToHost));
  std::sort(sm.begin(), sm.end());
  return int(std::unique(sm.begin(), sm.end()) - sm.begin());
}

// Rows 6 and 7: C's floats that differ from the exact sum of the S fake partials (NaN before).
long long wrongFloats(const Row& row, float* c, float* work, cudaStream_t stream) {
  const int tiles = int(row.blocks) / row.s, n = kTilesAcross * row.bn;
  const int m = tiles / kTilesAcross * kBM;
  KWB_CUDA_CHECK(cudaMemsetAsync(c, 0xFF, std::size_t(m) * n * 4, stream));
  launch(row, c, work, stream);
  std::vector<float> host(std::size_t(m) * n);
  KWB_CUDA_CHECK(cudaMemcpyAsync(host.data(), c, host.size() * 4, cudaMemcpyDeviceToHost, stream));
  KWB_CUDA_CHECK(cudaStreamSynchronize(stream));
  long long wrong = 0;
  for (int gr = 0; gr < m; ++gr)
    for (int gc = 0; gc < n; ++gc) {
      const int tile = gr / kBM * kTilesAcross + gc / row.bn;
      long long want = 0;
      for (int z = 0; z < row.s; ++z) want += partialValue(tile, z, gr % kBM, gc % row.bn, row.bn);
      wrong += host[std::size_t(gr) * n + gc] != float(want);
    }
  return wrong;
}

// The rows whose name contains a filter (all without filters), each group's row 1 with them.
std::vector<const Row*> selectRows(const std::vector<std::string>& filters) {
  const std::vector<Row>& all = allRows();
  auto matches = [&](const Row& r) {
    if (filters.empty()) return true;
    return std::any_of(filters.begin(), filters.end(),
                       [&](const std::string& f) { return r.name.find(f) != std::string::npos; });
  };
  std::vector<const Row*> rows;
  for (const Row& r : all) {
    const bool groupKept = std::any_of(all.begin(), all.end(), [&](const Row& o) {
      return o.s == r.s && o.bn == r.bn && matches(o);
    });
    if (matches(r) || (r.step == "1" && groupKept)) rows.push_back(&r);
  }
  return rows;
}

// Each function gets the split's shared memory and a carveout that fits one such CTA per SM.
void prepare(const Row& row, const cudaDeviceProp& prop) {
  KWB_CUDA_CHECK(
      cudaFuncSetAttribute(row.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(row.smem)));
  const std::size_t need = row.smem + prop.reservedSharedMemPerBlock;
  const int percent = int(std::min<std::size_t>(
      100, (need * 100 + prop.sharedMemPerMultiprocessor - 1) / prop.sharedMemPerMultiprocessor));
  KWB_CUDA_CHECK(
      cudaFuncSetAttribute(row.kernel, cudaFuncAttributePreferredSharedMemoryCarveout, percent));
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  if (!parseArgs(argc, argv, opt, {})) return 2;
  const std::vector<std::string>& filters = opt.filters;
  const bool list = opt.list;
  const std::vector<const Row*> rows = selectRows(filters);
  if (rows.empty()) std::fprintf(stderr, "--only matched no row (see --list)\n");
  if (list || rows.empty()) {
    for (const Row* r : rows) std::printf("%s\n", r->name.c_str());
    return rows.empty() ? 2 : 0;
  }
  int failures = 0;
  try {
    cudaDeviceProp prop{};
    KWB_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    float *c = nullptr, *work = nullptr;
    KWB_CUDA_CHECK(cudaMalloc(&c, kFloats * 4));
    KWB_CUDA_CHECK(cudaMalloc(&work, kFloats * 4 + 128 * 4));
    cudaStream_t stream = nullptr;
    KWB_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    const Row floorRow{"floor", "0", 1, 64, 0, 1, &emptyKernel<64>, ClusterMode::kNone};
    const double floor =
        median(graphSamples([&](cudaStream_t s) { launch(floorRow, c, work, s); }, stream));
    std::printf("%s, %d SMs; %d of %zu rows; median of %d x %d launches from a graph\n", prop.name,
                prop.multiProcessorCount, int(rows.size()), allRows().size(), kRounds, kReps);
    std::printf("floor (empty kernel, 1 CTA, no shared memory): %.2f us/launch\n\n", floor);
    std::printf("%-22s %2s %4s %7s %9s %8s %7s %7s %5s %4s  %s\n", "row", "S", "BN", "smem KB",
                "us/launch", "+us vs 1", "CTAs/SM", "at once", "waves", "SMs", "check");
    double baseline = -1;
    for (const Row* row : rows) {
      if (row->step == "1") baseline = -1;  // a new group
      try {
        prepare(*row, prop);
        const Occupancy occ = occupancy(*row, prop.multiProcessorCount);
        const double t =
            median(graphSamples([&](cudaStream_t s) { launch(*row, c, work, s); }, stream));
        const double delta = baseline < 0 ? 0.0 : t - baseline;
        if (row->step == "1") baseline = t;
        std::string sms = "-", check = "-";
        if (row->step[0] >= '3') sms = std::to_string(distinctSms(*row, work));
        if (row->step == "6" || row->step == "7") {
          const long long wrong = wrongFloats(*row, c, work, stream);
          check = wrong ? std::to_string(wrong) + " WRONG" : "ok";
          failures += wrong != 0;
        }
        std::printf("%-22s %2d %4d %7.1f %9.2f %8.2f %7d %7d %5d %4s  %s\n", row->name.c_str(),
                    row->s, row->bn, double(row->smem) / 1024, t, delta, occ.ctasPerSm, occ.atOnce,
                    occ.waves, sms.c_str(), check.c_str());
      } catch (const kwb::cuda::CudaError& e) {
        ++failures;
        std::printf("%-22s FAILED: %s\n", row->name.c_str(), e.what());
        KWB_CUDA_CHECK(cudaDeviceSynchronize());  // a sticky error: stop
      }
    }
    cudaStreamDestroy(stream);
    cudaFree(c);
    cudaFree(work);
  } catch (const kwb::cuda::CudaError& e) {
    std::fprintf(stderr, "%s\nstopped\n", e.what());
    return 1;
  }
  std::printf("\n%s\n", failures ? "SOME ROWS FAILED" : "every row ran; rows 6 and 7 exact");
  return failures ? 1 : 0;
}
