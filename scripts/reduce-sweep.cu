// SPDX-License-Identifier: Apache-2.0
// Times configurations of reduce.vectorized's kernel (reduce-sweep-kernels.cuh) against
// cub::DeviceReduce::Sum after checking each: int32 exactly against a host sum (int64, wrapped to
// int32 as the device's additions wrap), float within 2e-4 sqrt(n) + 1e-3 of a double host sum,
// at n = 0, 1, 3, 4, 5, 1023, 1024, 1025, 1000003, at starts 1..3 elements past a 16-byte
// boundary, and at every timed size. A failing row prints FAIL and is not timed. A timed launch
// is what the stage's launcher does (memset of the output, then the kernel; "2pass" rows: their
// two kernels), replayed back to back from a CUDA graph: 7 rounds of 20 launches (10 at 2^30),
// the median round / launch. GB/s = 4n bytes / time; % peak of the DRAM peak from memory clock
// x bus width x 2 (in the header); % CUB of CUB timed just before the rows (and again after
// them: a drift over 1% is flagged). Row one is the stage itself, through its own launcher.
// Names: tT threads a block; uU 16-byte loads a thread a trip; wWW waves of blocks as the stage
// counts them (2048 threads a SM, capped where fewer blocks cover n) or wSM (one block a slot the
// occupancy API reports); the load: ldg (ld.global.nc), nc.na.256B (ld.global.nc.L1::no_allocate
// .L2::256B), L2.256B (ld.global.L2::256B); 2pass: block partials, then one block adds them in a
// fixed order (deterministic), where the others use one atomic a block; bulk: cp.async.bulk
// chunks into a shared-memory ring. Columns /SM and regs: resident blocks and registers a thread.
// Build and run on the GPU machine (sm_90), from the repository root:
//   nvcc -O3 -std=c++20 -arch=sm_90 -Ikernels -Icore/model/include -Icore/base/include \
//     -Icore/cuda/include -o /tmp/reduce-sweep scripts/reduce-sweep.cu && /tmp/reduce-sweep
// Optional arguments: the timed sizes as powers of two (default 28 30); --only PART[,PART] keeps
// the rows whose name contains a part (the stage's row always runs), e.g. --only wSM,bulk;
// --list prints the names. A row takes ~0.25 s at the default sizes on an H200 (both types):
// all 133 rows ~40 s, plus ~10 s of allocation, fills and host sums.
#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

// The stage's launcher and kernel, compiled into this tool unchanged: row one is the stage.
#include "reduce/reduce_vectorized.cu"
#include "reduce-sweep-kernels.cuh"
#include "sweep_common.cuh"

namespace {

using namespace kwb::sweeptool;  // NOLINT(google-build-using-namespace)
constexpr int kRounds = 7;       // graph replays a timed row, the median counts

using namespace kwb::sweep;

// The two-pass rows' scratch, in elements: more than 32 waves of 8 blocks on 1000 SMs.
constexpr int kMaxPartials = 1 << 18;

// What ptxas gave the float kernel (registers a thread) and the blocks resident on a SM.
struct Fit {
  int regs = 0, perSm = 0;
};

template <typename K>
Fit fitOf(K kernel, int threads, int smem) {
  Fit f;
  cudaFuncAttributes attr{};
  check(cudaFuncGetAttributes(&attr, kernel), "attributes");
  f.regs = attr.numRegs;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&f.perSm, kernel, threads, smem),
        "occupancy");
  return f;
}

// One row: a name, its launch for each element type, and its grid at n (for the table).
struct Config {
  std::string name;
  void (*f32)(const float*, float*, std::int64_t, void*, cudaStream_t);
  void (*i32)(const int*, int*, std::int64_t, void*, cudaStream_t);
  unsigned (*blocks)(std::int64_t);
  Fit (*fit)();
};

template <typename S>
Config config() {
  return {S::name(), &S::template launch<float>, &S::template launch<int>, &S::blocks, &S::fit};
}

// The stage, through its own launcher (reduce_vectorized.cu).
struct Stage {
  static std::string name() {
    using namespace kwb::kernels;
    return "stage t" + std::to_string(kThreads) + " u" + std::to_string(kUnroll) + " w" +
           std::to_string(kWaves) + " (reduce.vectorized)";
  }
  template <typename T>
  static void launch(const T* in, T* out, std::int64_t n, void*, cudaStream_t stream) {
    kwb::VectorArgs a;
    a.count = n;
    a.type = std::is_same_v<T, int> ? kwb::ElementType::kInt32 : kwb::ElementType::kFloat32;
    a.in = in;
    a.out = out;
    a.stream = stream;
    kwb::kernels::launch(a);
  }
  static unsigned blocks(std::int64_t n) {
    using namespace kwb::kernels;
    return vec::gridFor(n, kThreads * 4 * kUnroll, kWaves * 2048 / kThreads);
  }
  static Fit fit() {
    return fitOf(kwb::kernels::reduceVectorizedKernel<float>, kwb::kernels::kThreads, 0);
  }
};

// kWaves 0: one block for each one resident (wSM).
template <int kThreads, int kUnroll, int kWaves, Load kLoad, bool kTwoPass = false>
struct Vectorized {
  static std::string name() {
    static const char* loads[] = {"ldg", "nc.na.256B", "L2.256B"};
    const std::string w = kWaves == 0 ? "wSM" : (kWaves < 10 ? "w0" : "w") + std::to_string(kWaves);
    return "t" + std::to_string(kThreads) + " u" + std::to_string(kUnroll) + " " + w + " " +
           loads[int(kLoad)] + (kTwoPass ? " 2pass" : "");
  }
  static Fit fit() {
    return fitOf(sweepKernel<float, kThreads, kUnroll, kLoad, kTwoPass>, kThreads, 0);
  }
  static unsigned blocks(std::int64_t n) {
    const int perSmCap = kWaves == 0 ? fit().perSm : kWaves * 2048 / kThreads;
    return vec::gridFor(n, kThreads * 4 * kUnroll, perSmCap);
  }
  template <typename T>
  static void launch(const T* in, T* out, std::int64_t n, void* scratch, cudaStream_t stream) {
    if constexpr (!kTwoPass) {
      check(cudaMemsetAsync(out, 0, sizeof(T), stream), "memset");
      if (n == 0) return;
    }
    const unsigned grid = n == 0 ? 0u : blocks(n);
    T* partials = kTwoPass ? static_cast<T*>(scratch) : out;
    if (grid > 0)
      sweepKernel<T, kThreads, kUnroll, kLoad, kTwoPass>
          <<<grid, kThreads, 0, stream>>>(in, partials, n, vec::headElements(in, n));
    check(cudaGetLastError(), "launch");
    if constexpr (kTwoPass) {
      finishKernel<T><<<1, 1024, 0, stream>>>(partials, out, int(grid));
      check(cudaGetLastError(), "launch");
    }
  }
};

template <int kThreads, int kStages, int kChunkBytes>
struct Bulk {
  static constexpr int kSmem = kStages * kChunkBytes;
  static std::string name() {
    return "bulk t" + std::to_string(kThreads) + " " + std::to_string(kStages) + "x" +
           std::to_string(kChunkBytes / 1024) + "KiB wSM";
  }
  template <typename T>
  static auto kernel() {
    static const bool once = [] {  // before the first launch, so never inside a capture
      check(cudaFuncSetAttribute(bulkKernel<T, kThreads, kStages, kChunkBytes>,
                                 cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem),
            "smem attribute");
      return true;
    }();
    (void)once;
    return bulkKernel<T, kThreads, kStages, kChunkBytes>;
  }
  static Fit fit() { return fitOf(kernel<float>(), kThreads, kSmem); }
  static unsigned blocks(std::int64_t n) { return vec::gridFor(n, kChunkBytes / 4, fit().perSm); }
  template <typename T>
  static void launch(const T* in, T* out, std::int64_t n, void*, cudaStream_t stream) {
    check(cudaMemsetAsync(out, 0, sizeof(T), stream), "memset");
    if (n == 0) return;
    kernel<T>()<<<blocks(n), kThreads, kSmem, stream>>>(in, out, n, vec::headElements(in, n));
    check(cudaGetLastError(), "launch");
  }
};

template <int kThreads, int kUnroll, Load kLoad, int... kWaves>
void addWaves(std::vector<Config>& rows) {
  (rows.push_back(config<Vectorized<kThreads, kUnroll, kWaves, kLoad>>()), ...);
}

template <int kThreads, int kUnroll>
void addLoads(std::vector<Config>& rows) {
  addWaves<kThreads, kUnroll, Load::kLdg, 1, 2, 4, 8, 16, 32, 0>(rows);
  addWaves<kThreads, kUnroll, Load::kNoAllocate256, 1, 2, 4, 8, 16, 32, 0>(rows);
  addWaves<kThreads, kUnroll, Load::kPrefetch256, 1, 2, 4, 8, 16, 32, 0>(rows);
}

// The stage first; then every threads x unroll x load x grid; the two-pass finish on the
// stage's shape and on a persistent grid; the bulk-copy rings last (sm_90 only).
const std::vector<Config>& configs() {
  static const std::vector<Config> all = [] {
    std::vector<Config> rows = {config<Stage>()};
    addLoads<256, 4>(rows);
    addLoads<256, 8>(rows);
    addLoads<256, 16>(rows);
    addLoads<512, 4>(rows);
    addLoads<512, 8>(rows);
    addLoads<512, 16>(rows);
    rows.push_back(config<Vectorized<256, 4, 16, Load::kLdg, true>>());
    rows.push_back(config<Vectorized<256, 4, 0, Load::kLdg, true>>());
    rows.push_back(config<Bulk<256, 4, 8192>>());
    rows.push_back(config<Bulk<256, 4, 16384>>());
    rows.push_back(config<Bulk<256, 8, 8192>>());
    rows.push_back(config<Bulk<512, 4, 16384>>());
    return rows;
  }();
  return all;
}

// int32: the whole range, so the sums wrap; float: k / 2048 with |k| <= 2048 (exact in float).
__global__ void fill(int* i, float* f, std::int64_t n, unsigned seed) {
  for (std::int64_t k = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; k < n;
       k += std::int64_t(gridDim.x) * blockDim.x) {
    const unsigned h = inputHash(k, seed);
    i[k] = int(h);
    f[k] = float(int(h % 4097u) - 2048) / 2048.0f;
  }
}

struct Buffers {
  int *inI = nullptr, *outI = nullptr;
  float *inF = nullptr, *outF = nullptr;
  void* scratch = nullptr;
  void* cubTemp = nullptr;
  std::size_t cubBytes = 0;
};

// A sum of the inputs [off, off + n), exact for int32 (wrapped) and in double for float.
struct Expected {
  std::int64_t off, n;
  int i32;
  double f64;
};

std::vector<Expected> hostSums(const Buffers& b, std::int64_t total,
                               const std::vector<std::pair<std::int64_t, std::int64_t>>& cases) {
  std::vector<int> in(std::size_t(total) + 1);
  std::vector<float> inF(std::size_t(total) + 1);
  check(cudaMemcpy(in.data(), b.inI, std::size_t(total) * 4, cudaMemcpyDeviceToHost), "copy");
  check(cudaMemcpy(inF.data(), b.inF, std::size_t(total) * 4, cudaMemcpyDeviceToHost), "copy");
  std::vector<Expected> out;
  for (const auto& [off, n] : cases) {
    std::int64_t s = 0;
    double d = 0;
    for (std::int64_t k = off; k < off + n; ++k) {
      s += in[std::size_t(k)];
      d += inF[std::size_t(k)];
    }
    out.push_back({off, n, int(std::uint32_t(std::uint64_t(s))), d});
  }
  return out;
}

float tolerance(std::int64_t n) { return 2e-4f * std::sqrt(float(n)) + 1e-3f; }

// One launch of each type at [off, off + n); returns "" or what was wrong.
std::string checkOne(const Config& c, const Buffers& b, const Expected& e) {
  c.i32(b.inI + e.off, b.outI, e.n, b.scratch, nullptr);
  c.f32(b.inF + e.off, b.outF, e.n, b.scratch, nullptr);
  check(cudaDeviceSynchronize(), c.name.c_str());
  int gotI = 0;
  float gotF = 0;
  check(cudaMemcpy(&gotI, b.outI, 4, cudaMemcpyDeviceToHost), "copy");
  check(cudaMemcpy(&gotF, b.outF, 4, cudaMemcpyDeviceToHost), "copy");
  char why[200] = "";
  if (gotI != e.i32)
    std::snprintf(why, sizeof why, "int32 %d, expected %d", gotI, e.i32);
  else if (!(std::fabs(double(gotF) - e.f64) <= tolerance(e.n)))
    std::snprintf(why, sizeof why, "float %.6g, expected %.6g +- %.3g", double(gotF), e.f64,
                  double(tolerance(e.n)));
  return why;
}

// One table row: `ms` 0 for a row not timed, `note` after the figures.
void printRow(const std::string& name, const Fit* fit, unsigned blocks, double ms, double bytes,
              double cubMs, double peakGBs, const std::string& note) {
  std::printf("%-40s", name.c_str());
  if (fit)
    std::printf(" %6u %3d %4d", blocks, fit->perSm, fit->regs);
  else
    std::printf(" %15s", "");
  if (ms > 0)
    std::printf(" %8.1f %6.0f %6.1f%% %6.1f%%", ms * 1e3, bytes / ms / 1e6, 100.0 * cubMs / ms,
                100.0 * bytes / ms / 1e6 / peakGBs);
  else
    std::printf(" %31s", "");
  std::printf("  %s\n", note.c_str());
}

// Every row at 2^l elements of one type: CUB, the rows (checked at this size, then timed), CUB
// again. Returns the rows that failed here (and marks them not ok).
int timeSize(int l, bool isFloat, const std::vector<const Config*>& rows, std::vector<bool>& ok,
             Buffers& b, const Expected& expected, double peakGBs, cudaStream_t stream) {
  const std::int64_t n = expected.n;
  const int reps = l >= 30 ? 10 : l >= 28 ? 20 : 200;
  const double bytes = 4.0 * double(n);
  const auto cub = [&] {
    return graphMs(
        [&](cudaStream_t st) {
          const cudaError_t e =
              isFloat ? cub::DeviceReduce::Sum(b.cubTemp, b.cubBytes, b.inF, b.outF, int(n), st)
                      : cub::DeviceReduce::Sum(b.cubTemp, b.cubBytes, b.inI, b.outI, int(n), st);
          check(e, "cub");
        },
        reps, kRounds, stream);
  };
  std::printf("\n2^%d %s, %d launches a round\n%-40s %6s %3s %4s %8s %6s %7s %7s\n", l,
              isFloat ? "float" : "int32", reps, "kernel", "blocks", "/SM", "regs", "us", "GB/s",
              "% CUB", "% peak");
  const double cubMs = cub();
  printRow("cub::DeviceReduce::Sum (before)", nullptr, 0, cubMs, bytes, cubMs, peakGBs, "");
  int failures = 0;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const Config& c = *rows[r];
    const Fit fit = c.fit();
    const std::string why = ok[r] ? checkOne(c, b, expected) : "failed before, not timed";
    if (!why.empty()) {
      printRow(c.name, &fit, c.blocks(n), 0, bytes, cubMs, peakGBs, "FAIL " + why);
      failures += ok[r];
      ok[r] = false;
      continue;
    }
    const double ms = graphMs(
        [&](cudaStream_t st) {
          if (isFloat)
            c.f32(b.inF, b.outF, n, b.scratch, st);
          else
            c.i32(b.inI, b.outI, n, b.scratch, st);
        },
        reps, kRounds, stream);
    printRow(c.name, &fit, c.blocks(n), ms, bytes, cubMs, peakGBs, "ok");
  }
  const double after = cub(), drift = 100.0 * (after - cubMs) / cubMs;
  char note[120];
  std::snprintf(note, sizeof note, "%+.2f%% against before%s", drift,
                std::fabs(drift) > 1.0 ? ": DRIFT OVER 1%, % CUB is uncertain" : "");
  printRow("cub::DeviceReduce::Sum (after)", nullptr, 0, after, bytes, cubMs, peakGBs, note);
  return failures;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  if (!parseArgs(argc, argv, opt, {28, 30})) return 2;
  const std::vector<const Config*> rows = selectRows(configs(), opt.filters);
  if (!opt.filters.empty() && rows.size() == 1)
    std::fprintf(stderr, "--only matched no row but the stage's (see --list)\n");
  if (opt.list) {
    for (const Config* c : rows) std::printf("%s\n", c->name.c_str());
    return 0;
  }
  const std::int64_t maxN = std::int64_t{1} << *std::max_element(opt.logs.begin(), opt.logs.end());
  const std::int64_t alloc = std::max<std::int64_t>(maxN, 1 << 20) + 8;
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "device");
  int clockKHz = 0, busBits = 0;
  check(cudaDeviceGetAttribute(&clockKHz, cudaDevAttrMemoryClockRate, 0), "attribute");
  check(cudaDeviceGetAttribute(&busBits, cudaDevAttrGlobalMemoryBusWidth, 0), "attribute");
  const double peakGBs = double(clockKHz) * 1e3 * 2.0 * double(busBits) / 8.0 / 1e9;
  std::printf("%s, %d SMs; DRAM peak %.0f GB/s (%d MHz x %d bits x 2); %zu of %zu rows\n",
              prop.name, prop.multiProcessorCount, peakGBs, clockKHz / 1000, busBits, rows.size(),
              configs().size());
  Buffers b;
  check(cudaMalloc(&b.inF, std::size_t(alloc) * 4), "malloc");
  check(cudaMalloc(&b.inI, std::size_t(alloc) * 4), "malloc");
  check(cudaMalloc(&b.outF, 4), "malloc");
  check(cudaMalloc(&b.outI, 4), "malloc");
  check(cudaMalloc(&b.scratch, std::size_t(kMaxPartials) * 4), "malloc");
  std::size_t intBytes = 0;
  check(cub::DeviceReduce::Sum(nullptr, b.cubBytes, b.inF, b.outF, int(maxN)), "cub");
  check(cub::DeviceReduce::Sum(nullptr, intBytes, b.inI, b.outI, int(maxN)), "cub");
  b.cubBytes = std::max(b.cubBytes, intBytes);
  check(cudaMalloc(&b.cubTemp, b.cubBytes), "malloc");
  cudaStream_t stream = nullptr;
  check(cudaStreamCreate(&stream), "stream");  // blocking: ordered after the checks' launches

  // The awkward sizes, then starts 1..3 elements past a 16-byte boundary (cudaMalloc aligns).
  std::vector<std::pair<std::int64_t, std::int64_t>> cases;
  for (std::int64_t n : {0, 1, 3, 4, 5, 1023, 1024, 1025, 1000003}) cases.push_back({0, n});
  for (std::int64_t off : {1, 2, 3})
    for (std::int64_t n : {1, 5, 1025, 1000003}) cases.push_back({off, n});
  fill<<<1024, 256>>>(b.inI, b.inF, 1000008, 7u);
  check(cudaGetLastError(), "fill");
  const std::vector<Expected> small = hostSums(b, 1000008, cases);
  std::vector<bool> ok(rows.size(), true);
  int failures = 0;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const bool needsHopper = rows[r]->name.rfind("bulk", 0) == 0 && prop.major < 9;
    for (const Expected& e : small) {
      const std::string why = needsHopper ? "needs sm_90" : checkOne(*rows[r], b, e);
      if (why.empty()) continue;
      std::printf("  FAIL %s: n=%lld start+%lld: %s\n", rows[r]->name.c_str(), (long long)e.n,
                  (long long)e.off, why.c_str());
      ok[r] = false;
      break;
    }
    failures += !ok[r];
  }
  std::printf("awkward sizes (int32 exact, float within 2e-4 sqrt(n) + 1e-3): %s\n",
              failures ? "SOME ROWS FAILED" : "all pass");

  for (int l : opt.logs) {
    const std::int64_t n = std::int64_t{1} << l;
    fill<<<4096, 256>>>(b.inI, b.inF, n, 11u);
    check(cudaGetLastError(), "fill");
    const Expected expected = hostSums(b, n, {{0, n}}).front();
    for (const bool isFloat : {true, false})
      failures += timeSize(l, isFloat, rows, ok, b, expected, peakGBs, stream);
  }
  std::printf("\n%s\n", failures ? "SOME CHECKS FAILED" : "every check passed");
  return failures ? 1 : 0;
}
