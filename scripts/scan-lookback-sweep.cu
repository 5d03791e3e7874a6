// SPDX-License-Identifier: Apache-2.0
// Times configurations of scan.decoupled_lookback's kernel (kernels/scan/lookback_scan.cuh: tile
// shape, look-back window and back-off, cache hints) against cub::DeviceScan::InclusiveSum on
// float, after checking each one: int32 exactly against a host scan at the awkward sizes (0, 1,
// a tile +- 1, 1000003, ...) and, at every timed size, int32 exactly and float within a
// tolerance against CUB's output. Each timed launch is what the stage's launcher does (one
// kernel, a dependent launch, on statuses tagged with the launch's epoch: no memset), replayed
// back to back from a CUDA graph; the figure is in
// GB/s of 2n elements moved (hot L2: at 2^20 the 8 MiB stay in L2, at 2^28 and above they
// cannot). The first row is the stage's registered configuration. Build and
// run on the GPU machine (sm_90; sm_80 for an A100), from the repository root:
//   nvcc -O3 -std=c++20 -arch=sm_90 -Ikernels -Icore/model/include -Icore/base/include \
//     -Icore/cuda/include -o /tmp/scan-sweep scripts/scan-lookback-sweep.cu \
//     kernels/detail/workspace.cpp && /tmp/scan-sweep
// Optional arguments: the timed sizes as powers of two (default 20 24 28 30); --only PART[,PART]
// keeps the rows whose name contains one of the parts (the stage's row always runs: it is the
// stress run's subject), e.g. --only 128x24,first500,behind; --list prints the rows' names.
// Every row takes ~0.5 s at the default sizes on an H200 (its checks, then 7 x 10 launches at
// 2^30 and 2^28, 7 x 200 below), so all 34 rows run in ~20-30 s after the allocations.
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "scan/lookback_scan.cuh"
#include "sweep_common.cuh"

namespace {

using namespace kwb::sweeptool;  // NOLINT(google-build-using-namespace)
constexpr int kRounds = 5;       // graph replays a timed row, the median counts

using kwb::kernels::scan::Access;
using kwb::kernels::scan::LookbackScan;
using kwb::kernels::scan::TileShape;
using kwb::kernels::scan::lookback::ChainPolicy;
using kwb::kernels::scan::lookback::Policy;

struct Config {
  const char* name;
  void (*f32)(const float*, float*, std::int64_t, cudaStream_t, const char*);
  void (*i32)(const int*, int*, std::int64_t, cudaStream_t, const char*);
};

template <typename S>
Config config(const char* name) {
  return {name, &S::template launch<float>, &S::template launch<int>};
}

// The first is the stage's configuration, the others vary one or two of its choices. Names:
// threads x items a thread, minbN the blocks a SM asked of ptxas, winW the statuses read a step,
// sleepA-B the back-off between re-reads (ns), firstF the sleep before the first read (ns;
// "F+k/behind<=M": F + k ns a tile between the newest PREFIX and the tile, at most M).
const std::vector<Config>& configs() {
  static const std::vector<Config> all = {
      config<kwb::kernels::scan::StageLookbackScan>(
          "the stage: 128x24 ~CUB beyond one wave, else 512x16 minb4"),
      // Round 2: CUB's tile (128 x 24: 47 registers uncapped, 10 blocks a SM; 40 at minb12; minb16
      // spills) and 256 x 12 (32 registers, 8 blocks) with the stage's look-back.
      config<LookbackScan<TileShape<128, 6, 12>, Policy<4, 64, 512, 1000>, Access::kPlain>>(
          "128x24 minb12 win128 sleep64-512 first1000"),
      config<LookbackScan<TileShape<128, 6, 1>, Policy<4, 64, 512, 1000>, Access::kPlain>>(
          "128x24 win128 sleep64-512 first1000"),
      config<LookbackScan<TileShape<256, 3, 8>, Policy<4, 64, 512, 1000>, Access::kPlain>>(
          "256x12 minb8 win128 sleep64-512 first1000"),
      config<LookbackScan<TileShape<128, 6, 12>, Policy<1, 688, 688, 1140>, Access::kPlain>>(
          "128x24 minb12 win32 sleep688 first1140 (~ CUB)"),
      config<LookbackScan<TileShape<128, 6, 12>, Policy<4, 688, 688, 1140>, Access::kPlain>>(
          "128x24 minb12 win128 sleep688 first1140"),
      config<LookbackScan<TileShape<256, 4, 8>, Policy<4, 688, 688, 1140>, Access::kPlain>>(
          "256x16 minb8 win128 sleep688 first1140"),
      config<LookbackScan<TileShape<256, 4, 8>, Policy<4, 64, 512, 500>, Access::kPlain>>(
          "256x16 minb8 win128 sleep64-512 first500"),
      config<LookbackScan<TileShape<256, 4, 8>, Policy<4, 64, 512, 2000>, Access::kPlain>>(
          "256x16 minb8 win128 sleep64-512 first2000"),
      config<LookbackScan<TileShape<256, 4, 8>, Policy<2, 64, 512, 1000>, Access::kPlain>>(
          "256x16 minb8 win64 sleep64-512 first1000"),
      config<LookbackScan<TileShape<256, 4, 8>, ChainPolicy<4, 64, 512, 250, 2, 2000>,
                          Access::kPlain>>(
          "256x16 minb8 win128 sleep64-512 first250+2/behind<=2000"),
      config<
          LookbackScan<TileShape<256, 4, 8>, ChainPolicy<4, 64, 512, 0, 4, 2000>, Access::kPlain>>(
          "256x16 minb8 win128 sleep64-512 first0+4/behind<=2000"),
      config<LookbackScan<TileShape<128, 6, 12>, ChainPolicy<4, 64, 512, 250, 2, 2000>,
                          Access::kPlain>>(
          "128x24 minb12 win128 sleep64-512 first250+2/behind<=2000"),
      config<LookbackScan<TileShape<512, 2, 4>, Policy<4, 64, 512, 1000>, Access::kPlain>>(
          "512x8 minb4 win128 sleep64-512 first1000"),
      config<LookbackScan<TileShape<128, 4, 16>, Policy<4, 64, 512, 1000>, Access::kPlain>>(
          "128x16 minb16 win128 sleep64-512 first1000"),
      // Round 1 (kernels/PERF_NOTES.md has most of them measured on an H200).
      config<LookbackScan<TileShape<256, 4, 8>, Policy<4, 32, 256>, Access::kPlain>>(
          "256x16 minb8 win128 sleep32-256"),
      config<LookbackScan<TileShape<256, 4, 8>, Policy<4, 64, 512, 1500>, Access::kPlain>>(
          "256x16 minb8 win128 sleep64-512 first1500"),
      config<LookbackScan<TileShape<256, 4, 8>, Policy<4, 128, 1024, 1000>, Access::kPlain>>(
          "256x16 minb8 win128 sleep128-1024 first1000"),
      config<LookbackScan<TileShape<256, 8, 1>, Policy<4, 64, 512, 1000>, Access::kPlain>>(
          "256x32 win128 sleep64-512 first1000"),
      config<LookbackScan<TileShape<512, 4, 4>, Policy<4, 64, 512, 1000>, Access::kPlain>>(
          "512x16 minb4 win128 sleep64-512 first1000 plain stores"),
      config<LookbackScan<TileShape<512, 4, 4>, Policy<4, 64, 512, 1000>, Access::kStoreV4>>(
          "512x16 minb4 win128 sleep64-512 first1000 (the stage's one wave)"),
      config<LookbackScan<TileShape<128, 6, 12>, Policy<1, 688, 688, 1140>, Access::kStoreV4>>(
          "128x24 ~CUB stores v4 (the stage's many waves with the one wave's stores)"),
      config<LookbackScan<TileShape<256, 4, 8>, Policy<4, 32, 256>, Access::kStreaming>>(
          "256x16 minb8 win128 sleep32-256 .cs"),
      config<LookbackScan<TileShape<256, 4, 6>, Policy<4, 32, 256>, Access::kPlain>>(
          "256x16 minb6 win128 sleep32-256"),
      config<LookbackScan<TileShape<256, 4, 8>, Policy<2, 32, 256>, Access::kPlain>>(
          "256x16 minb8 win64 sleep32-256"),
      config<LookbackScan<TileShape<256, 4, 8>, Policy<8, 32, 256>, Access::kPlain>>(
          "256x16 minb8 win256 sleep32-256"),
      config<LookbackScan<TileShape<256, 4, 8>, Policy<1, 0, 0>, Access::kPlain>>(
          "256x16 minb8 win32 spin (~ the old stage)"),
      config<LookbackScan<TileShape<256, 4, 8>, Policy<1, 32, 256>, Access::kPlain>>(
          "256x16 minb8 win32 sleep32-256"),
      config<LookbackScan<TileShape<256, 4, 8>, Policy<4, 0, 0>, Access::kPlain>>(
          "256x16 minb8 win128 spin"),
      config<LookbackScan<TileShape<256, 4, 8>, Policy<4, 128, 1024>, Access::kPlain>>(
          "256x16 minb8 win128 sleep128-1024"),
      config<LookbackScan<TileShape<256, 4, 8>, Policy<4, 32, 256, 300>, Access::kPlain>>(
          "256x16 minb8 win128 sleep32-256 first300"),
      config<LookbackScan<TileShape<128, 6, 1>, Policy<4, 32, 256>, Access::kPlain>>(
          "128x24 win128 sleep32-256"),
      config<LookbackScan<TileShape<128, 8, 1>, Policy<4, 32, 256>, Access::kPlain>>(
          "128x32 win128 sleep32-256"),
      config<LookbackScan<TileShape<256, 6, 1>, Policy<4, 32, 256>, Access::kPlain>>(
          "256x24 win128 sleep32-256"),
      config<LookbackScan<TileShape<256, 8, 1>, Policy<4, 32, 256>, Access::kPlain>>(
          "256x32 win128 sleep32-256"),
      config<LookbackScan<TileShape<512, 4, 4>, Policy<4, 32, 256>, Access::kPlain>>(
          "512x16 minb4 win128 sleep32-256"),
  };
  return all;
}

__global__ void fill(int* i, float* f, std::int64_t n, unsigned seed) {
  for (std::int64_t k = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; k < n;
       k += std::int64_t(gridDim.x) * blockDim.x) {
    const int v = int(inputHash(k, seed) % 4097u) - 2048;
    i[k] = v;
    f[k] = float(v) / 2048.0f;
  }
}

// Counts elements of a and b that differ (int) or differ by more than tol (float).
__global__ void countDiff(const int* a, const int* b, std::int64_t n, unsigned long long* bad) {
  for (std::int64_t k = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; k < n;
       k += std::int64_t(gridDim.x) * blockDim.x)
    if (a[k] != b[k]) atomicAdd(bad, 1ull);
}
__global__ void countDiff(const float* a, const float* b, std::int64_t n, float tol,
                          unsigned long long* bad) {
  for (std::int64_t k = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; k < n;
       k += std::int64_t(gridDim.x) * blockDim.x)
    if (!(std::fabs(a[k] - b[k]) <= tol)) atomicAdd(bad, 1ull);
}

struct Buffers {
  int *inI = nullptr, *outI = nullptr, *refI = nullptr;
  float *inF = nullptr, *outF = nullptr, *refF = nullptr;
  void* cubTemp = nullptr;
  std::size_t cubBytes = 0;
  unsigned long long* bad = nullptr;
};

unsigned long long differences(const Buffers& b, std::int64_t n, bool isFloat, float tol) {
  check(cudaMemset(b.bad, 0, sizeof *b.bad), "memset");
  if (isFloat)
    countDiff<<<1024, 256>>>(b.outF, b.refF, n, tol, b.bad);
  else
    countDiff<<<1024, 256>>>(b.outI, b.refI, n, b.bad);
  unsigned long long h = 0;
  check(cudaMemcpy(&h, b.bad, sizeof h, cudaMemcpyDeviceToHost), "copy");
  return h;
}

// int32 at sizes around the tile edges, exactly against a host scan; the canary after n must
// stay. Returns the number of failing sizes.
int checkSmall(const Config& c, Buffers& b) {
  int failures = 0;
  for (std::int64_t n : {0LL, 1LL, 31LL, 33LL, 2047LL, 2049LL, 3071LL, 3072LL, 3073LL, 4095LL,
                         4096LL, 4097LL, 6143LL, 6145LL, 8191LL, 8193LL, 65537LL, 1000003LL}) {
    fill<<<256, 256>>>(b.inI, b.inF, n, 7u);
    check(cudaMemset(b.outI, 0xAA, std::size_t(n + 1) * 4), "memset");
    c.i32(b.inI, b.outI, n, nullptr, c.name);
    check(cudaDeviceSynchronize(), c.name);
    std::vector<int> in(std::size_t(n) + 1), out(std::size_t(n) + 1);
    check(cudaMemcpy(in.data(), b.inI, std::size_t(n) * 4, cudaMemcpyDeviceToHost), "copy");
    check(cudaMemcpy(out.data(), b.outI, std::size_t(n + 1) * 4, cudaMemcpyDeviceToHost), "copy");
    unsigned s = 0;
    std::int64_t wrong = 0;
    for (std::int64_t k = 0; k < n; ++k) {
      s += unsigned(in[std::size_t(k)]);
      wrong += out[std::size_t(k)] != int(s);
    }
    if (wrong || out[std::size_t(n)] != int(0xAAAAAAAAu)) {
      std::printf("  FAIL %s: n=%lld, %lld wrong%s\n", c.name, (long long)n, (long long)wrong,
                  out[std::size_t(n)] != int(0xAAAAAAAAu) ? ", wrote past the end" : "");
      ++failures;
    }
  }
  return failures;
}

// A race shows only now and then: `runs` launches of one configuration on int32, each exact
// against CUB's output. Returns 1 if any launch was wrong.
int stress(const Config& c, Buffers& b, std::int64_t n, int runs) {
  fill<<<1024, 256>>>(b.inI, b.inF, n, 3u);
  check(cub::DeviceScan::InclusiveSum(b.cubTemp, b.cubBytes, b.inI, b.refI, int(n)), "cub");
  int wrongRuns = 0;
  for (int r = 0; r < runs; ++r) {
    check(cudaMemset(b.outI, 0xAA, std::size_t(n) * 4), "memset");
    c.i32(b.inI, b.outI, n, nullptr, c.name);
    wrongRuns += differences(b, n, false, 0) != 0;
  }
  std::printf("stress (%s, %d launches of %lld int32, exact against CUB): %d wrong\n", c.name, runs,
              (long long)n, wrongRuns);
  return wrongRuns ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  if (!parseArgs(argc, argv, opt, {20, 24, 28, 30})) return 2;
  const std::vector<const Config*> rows = selectRows(configs(), opt.filters);
  if (!opt.filters.empty() && rows.size() == 1)
    std::fprintf(stderr, "--only matched no row but the stage's (see --list)\n");
  if (opt.list) {
    for (const Config* c : rows) std::printf("%s\n", c->name);
    return 0;
  }
  const std::vector<int>& logs = opt.logs;
  const std::int64_t maxN = std::int64_t{1} << *std::max_element(logs.begin(), logs.end());
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "device");
  std::printf("%s, sizes 2^%d .. 2^%d, %zu of %zu rows\n", prop.name, logs.front(), logs.back(),
              rows.size(), configs().size());
  Buffers b;
  for (float** p : {&b.inF, &b.outF, &b.refF})
    check(cudaMalloc(p, std::size_t(maxN) * 4 + 4), "malloc");
  for (int** p : {&b.inI, &b.outI, &b.refI})
    check(cudaMalloc(p, std::size_t(maxN) * 4 + 4), "malloc");
  check(cudaMalloc(&b.bad, sizeof *b.bad), "malloc");
  std::size_t intBytes = 0;
  check(cub::DeviceScan::InclusiveSum(nullptr, b.cubBytes, b.inF, b.outF, int(maxN)), "cub");
  check(cub::DeviceScan::InclusiveSum(nullptr, intBytes, b.inI, b.outI, int(maxN)), "cub");
  b.cubBytes = std::max(b.cubBytes, intBytes);
  check(cudaMalloc(&b.cubTemp, b.cubBytes), "malloc");

  cudaStream_t stream = nullptr;
  check(cudaStreamCreate(&stream), "stream");  // blocking: ordered after the checks' launches
  int failures = 0;
  for (const Config* c : rows) failures += checkSmall(*c, b);
  std::printf("edge sizes (int32, exact, canary): %s\n", failures ? "FAILED" : "all pass");
  failures += stress(configs().front(), b, std::min<std::int64_t>(maxN, (1 << 24) + 5), 50);

  for (int l : logs) {
    const std::int64_t n = std::int64_t{1} << l;
    const int reps = l >= 28 ? 10 : 200;
    std::printf("\n2^%d elements\n%-58s %9s %9s %8s  %s\n", l, "kernel", "us", "GB/s", "% CUB",
                "check");
    const double bytes = 2.0 * double(n) * 4;
    // CUB's int32 output is the exact reference; its float output is the float one.
    fill<<<1024, 256>>>(b.inI, b.inF, n, 11u);
    check(cub::DeviceScan::InclusiveSum(b.cubTemp, b.cubBytes, b.inI, b.refI, int(n)), "cub");
    const double cubMs = graphMs(
        [&](cudaStream_t st) {
          check(cub::DeviceScan::InclusiveSum(b.cubTemp, b.cubBytes, b.inF, b.refF, int(n), st),
                "cub");
        },
        reps, kRounds, stream);
    check(cudaDeviceSynchronize(), "cub");
    std::printf("%-58s %9.1f %9.0f %8s\n", "cub::DeviceScan::InclusiveSum", cubMs * 1e3,
                bytes / cubMs / 1e6, "");
    const float tol = 1e-4f * std::sqrt(float(n));  // values k/2048, |k| <= 2048
    for (const Config* row : rows) {
      const Config& c = *row;
      c.i32(b.inI, b.outI, n, nullptr, c.name);
      const unsigned long long badI = differences(b, n, false, 0);
      c.f32(b.inF, b.outF, n, nullptr, c.name);
      const unsigned long long badF = differences(b, n, true, tol);
      const double ms = graphMs([&](cudaStream_t st) { c.f32(b.inF, b.outF, n, st, c.name); }, reps,
                                kRounds, stream);
      check(cudaDeviceSynchronize(), c.name);
      const bool ok = badI == 0 && badF == 0;
      failures += !ok;
      std::printf("%-58s %9.1f %9.0f %7.1f%%  %s", c.name, ms * 1e3, bytes / ms / 1e6,
                  100.0 * cubMs / ms, ok ? "ok" : "FAIL");
      if (!ok) std::printf(" (%llu int32, %llu float wrong)", badI, badF);
      std::printf("\n");
    }
  }
  std::printf("\n%s\n", failures ? "SOME CHECKS FAILED" : "every check passed");
  return failures ? 1 : 0;
}
