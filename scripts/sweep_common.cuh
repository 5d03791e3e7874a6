// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the stand-alone GPU sweeps of scripts/ share (scan-lookback-sweep.cu, reduce-sweep.cu,
// cluster-cost.cu): timing a launch from a CUDA graph replayed back to back, the median, and
// their arguments (`--only PART[,PART...]`, `--list`, sizes as powers of two), and what a failed
// CUDA call does.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "kwb/cuda/check.h"

// kwb/cuda/check.h's error path lives in the core library; these tools stand alone. A failed
// CUDA call (KWB_CUDA_CHECK) ends the tool, naming it (exit 2); a tool that reports a failed row
// and goes on defines KWB_SWEEP_OWN_CUDA_ERROR and its own.
#ifndef KWB_SWEEP_OWN_CUDA_ERROR
namespace kwb::cuda {
void throwCudaError(cudaError_t e, const char* call, const char* file, int line) {
  std::fprintf(stderr, "%s:%d: %s: %s\n", file, line, call, cudaGetErrorString(e));
  std::exit(2);
}
}  // namespace kwb::cuda
#endif

namespace kwb::sweeptool {

// A failed call ends the tool, saying which (exit 2).
inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(2);
  }
}

// A seeded hash of element k: the sweeps' inputs, the same on every run.
__device__ inline unsigned inputHash(std::int64_t k, unsigned seed) {
  unsigned h = unsigned(k) * 0x9E3779B9u ^ seed;
  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  h ^= h >> 12;
  return h;
}

// The middle value of an odd count, the mean of the middle two of an even one, 0 for none.
inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t mid = v.size() / 2;
  return v.empty() ? 0 : v.size() % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

// Move-only owners of the graph timer's handles.
template <class T, cudaError_t (*Destroy)(T)>
struct Handle {
  T h = nullptr;
  Handle() = default;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() {
    if (h) Destroy(h);
  }
};
using Graph = Handle<cudaGraph_t, cudaGraphDestroy>;
using GraphExec = Handle<cudaGraphExec_t, cudaGraphExecDestroy>;
using Event = Handle<cudaEvent_t, cudaEventDestroy>;

// Ends a capture that a failed launch left open, so the stream can serve the next row.
struct CaptureGuard {
  cudaStream_t stream;
  ~CaptureGuard() {
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    Graph g;
    if (cudaStreamIsCapturing(stream, &status) == cudaSuccess && status)
      cudaStreamEndCapture(stream, &g.h);
    cudaGetLastError();
  }
};

// Milliseconds a launch in each of `rounds` replays of a CUDA graph of `reps` launches of
// `launch(stream)`, run once first outside the capture (lazy initialisation) and the graph
// replayed once unmeasured (its upload).
template <typename F>
std::vector<double> graphRoundsMs(F&& launch, int reps, int rounds, cudaStream_t stream) {
  launch(stream);
  KWB_CUDA_CHECK(cudaStreamSynchronize(stream));
  Graph graph;
  {
    CaptureGuard guard{stream};
    KWB_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    for (int r = 0; r < reps; ++r) launch(stream);
    KWB_CUDA_CHECK(cudaStreamEndCapture(stream, &graph.h));
  }
  GraphExec exec;
  KWB_CUDA_CHECK(cudaGraphInstantiate(&exec.h, graph.h, 0));
  Event start, stop;
  KWB_CUDA_CHECK(cudaEventCreate(&start.h));
  KWB_CUDA_CHECK(cudaEventCreate(&stop.h));
  KWB_CUDA_CHECK(cudaGraphLaunch(exec.h, stream));
  std::vector<double> out;
  for (int r = 0; r < rounds; ++r) {
    KWB_CUDA_CHECK(cudaEventRecord(start.h, stream));
    KWB_CUDA_CHECK(cudaGraphLaunch(exec.h, stream));
    KWB_CUDA_CHECK(cudaEventRecord(stop.h, stream));
    KWB_CUDA_CHECK(cudaEventSynchronize(stop.h));
    float ms = 0;
    KWB_CUDA_CHECK(cudaEventElapsedTime(&ms, start.h, stop.h));
    out.push_back(double(ms) / reps);
  }
  return out;
}

// The median round's milliseconds a launch (graphRoundsMs).
template <typename F>
double graphMs(F&& launch, int reps, int rounds, cudaStream_t stream) {
  return median(graphRoundsMs(launch, reps, rounds, stream));
}

// The first row (the stage's: the reference, always kept), then every row whose name contains
// one of the filters (every row without filters).
template <class Row>
std::vector<const Row*> selectRows(const std::vector<Row>& all,
                                   const std::vector<std::string>& filters) {
  std::vector<const Row*> rows;
  for (const Row& r : all) {
    const std::string name = r.name;
    bool keep = rows.empty() || filters.empty();
    for (const std::string& f : filters) keep = keep || name.find(f) != std::string::npos;
    if (keep) rows.push_back(&r);
  }
  return rows;
}

struct Options {
  std::vector<int> logs;             // timed sizes, powers of two
  std::vector<std::string> filters;  // --only: rows whose name contains one of these
  bool list = false;
};

// --list, --only PART[,PART...] and, where `defaultLogs` is not empty, sizes as powers of two
// from 10 to 30 (those by default). Returns false after saying why, naming the argument.
inline bool parseArgs(int argc, char** argv, Options& o, const std::vector<int>& defaultLogs) {
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    const bool size = !defaultLogs.empty() && !arg.empty() && arg.size() <= 2 &&
                      arg.find_first_not_of("0123456789") == std::string::npos &&
                      std::stoi(arg) >= 10 && std::stoi(arg) <= 30;
    if (arg == "--list") {
      o.list = true;
    } else if (arg == "--only") {
      if (a + 1 == argc) {
        std::fprintf(stderr, "--only needs a comma-separated list of name parts\n");
        return false;
      }
      const std::string parts = argv[++a];
      for (std::size_t at = 0; at <= parts.size();) {
        const std::size_t comma = std::min(parts.find(',', at), parts.size());
        if (comma > at) o.filters.push_back(parts.substr(at, comma - at));
        at = comma + 1;
      }
      if (o.filters.empty()) {
        std::fprintf(stderr, "--only \"%s\" names no row\n", parts.c_str());
        return false;
      }
    } else if (size) {
      o.logs.push_back(std::stoi(arg));
    } else {
      std::fprintf(
          stderr, "unexpected argument \"%s\": %soptions --only PART[,PART...] and --list\n",
          arg.c_str(), defaultLogs.empty() ? "" : "sizes are powers of two from 10 to 30; ");
      return false;
    }
  }
  if (o.logs.empty()) o.logs = defaultLogs;
  return true;
}

}  // namespace kwb::sweeptool
