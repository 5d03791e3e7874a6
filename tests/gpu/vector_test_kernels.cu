// SPDX-License-Identifier: Apache-2.0
#include <cuda_runtime.h>

#include <cstdint>

#include "kwb/cuda/check.h"
#include "kwb/vector_args.h"
#include "vector_test_kernels.h"

namespace kwb::testing {
namespace {

constexpr int kThreads = 256;
constexpr int kScanThreads = 1024;

template <class T>
__global__ void blockAtomicSum(const T* in, std::int64_t n, T* out) {
  __shared__ T partial[kThreads];
  T s = 0;
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    s += in[i];
  partial[threadIdx.x] = s;
  __syncthreads();
  for (int w = kThreads / 2; w > 0; w /= 2) {
    if (int(threadIdx.x) < w) partial[threadIdx.x] += partial[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, partial[0]);
}

// One block: each thread scans a contiguous chunk, the chunk totals are scanned serially by
// thread 0, then each chunk adds its offset. `suffix` reverses the order (a planted fault).
template <class T>
__global__ void blockSerialScan(const T* in, std::int64_t n, T* out, std::int64_t last,
                                bool suffix) {
  __shared__ T totals[kScanThreads];
  const std::int64_t chunk = (n + kScanThreads - 1) / kScanThreads;
  const std::int64_t begin = std::int64_t(threadIdx.x) * chunk;
  const std::int64_t end = begin + chunk < n ? begin + chunk : n;
  T s = 0;
  for (std::int64_t i = begin; i < end; ++i) s += in[suffix ? n - 1 - i : i];
  totals[threadIdx.x] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    T run = 0;
    for (int t = 0; t < kScanThreads; ++t) {
      const T v = totals[t];
      totals[t] = run;
      run += v;
    }
  }
  __syncthreads();
  T run = totals[threadIdx.x];
  for (std::int64_t i = begin; i < end; ++i) {
    const std::int64_t src = suffix ? n - 1 - i : i;
    run += in[src];
    if (src < last) out[src] = run;
  }
}

int blocksFor(std::int64_t n) {
  const std::int64_t b = (n + kThreads - 1) / kThreads;
  return int(b < 1 ? 1 : (b > 4096 ? 4096 : b));
}

LaunchInfo reduceWith(const VectorArgs& a, std::int64_t n) {
  KWB_CUDA_CHECK(cudaMemsetAsync(a.out, 0, 4, a.stream));
  if (n <= 0) return {};
  if (a.type == ElementType::kInt32)
    blockAtomicSum<<<blocksFor(n), kThreads, 0, a.stream>>>(static_cast<const int*>(a.in), n,
                                                            static_cast<int*>(a.out));
  else
    blockAtomicSum<<<blocksFor(n), kThreads, 0, a.stream>>>(static_cast<const float*>(a.in), n,
                                                            static_cast<float*>(a.out));
  KWB_CHECK_LAUNCH();
  return {};
}

LaunchInfo scanWith(const VectorArgs& a, std::int64_t last, bool suffix) {
  if (a.count <= 0) return {};
  if (a.type == ElementType::kInt32)
    blockSerialScan<<<1, kScanThreads, 0, a.stream>>>(static_cast<const int*>(a.in), a.count,
                                                      static_cast<int*>(a.out), last, suffix);
  else
    blockSerialScan<<<1, kScanThreads, 0, a.stream>>>(static_cast<const float*>(a.in), a.count,
                                                      static_cast<float*>(a.out), last, suffix);
  KWB_CHECK_LAUNCH();
  return {};
}

LaunchInfo reduceGood(const VectorArgs& a) { return reduceWith(a, a.count); }
LaunchInfo reduceSkipLast(const VectorArgs& a) { return reduceWith(a, a.count - 1); }
LaunchInfo scanGood(const VectorArgs& a) { return scanWith(a, a.count, false); }
LaunchInfo scanLeaveLast(const VectorArgs& a) { return scanWith(a, a.count - 1, false); }
LaunchInfo scanSuffix(const VectorArgs& a) { return scanWith(a, a.count, true); }

KernelDescriptor vectorKernel(const char* id, const char* problem, int stage, bool reference,
                              VectorLaunchFn fn) {
  KernelDescriptor d;
  d.id = id;
  d.displayName = id;
  d.family = std::string(id).substr(0, std::string(id).find('.'));
  d.problem = problem;
  d.stage = stage;
  d.reference = reference;
  d.description = "test-only 1-D kernel";
  d.launchVector = fn;
  return d;
}

}  // namespace

std::vector<KernelDescriptor> vectorTestKernels() {
  return {vectorKernel("testreduce.block_atomic", "reduce", 1, false, reduceGood),
          vectorKernel("testscan.block_serial", "scan", 1, false, scanGood),
          vectorKernel("cub.reduce_sum", "reduce", 0, true, reduceGood),
          vectorKernel("cub.inclusive_sum", "scan", 0, true, scanGood)};
}

std::vector<KernelDescriptor> vectorFaultKernels() {
  return {vectorKernel("testreduce.skip_last", "reduce", 2, false, reduceSkipLast),
          vectorKernel("testscan.leave_last", "scan", 2, false, scanLeaveLast),
          vectorKernel("testscan.suffix", "scan", 3, false, scanSuffix)};
}

}  // namespace kwb::testing
