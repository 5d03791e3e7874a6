// SPDX-License-Identifier: Apache-2.0
#pragma once
// What every reduce and scan kernel shares: the element types' addition (int32 wraps), 16-byte
// vector types, a warp sum, the launcher's switch on the element type, and grid sizing.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "detail/multiprocessors.h"
#include "kwb/cuda/check.h"
#include "kwb/kernel_descriptor.h"
#include "kwb/vector_args.h"

namespace kwb::kernels::vec {

// The sum of int32 is wrapping two's-complement addition (modulo 2^32), the result atomicAdd
// on int gives; computed through unsigned so the C++ is defined. Float is plain addition, so a
// float sum depends on the order of the additions.
__host__ __device__ inline float add(float a, float b) { return a + b; }
__host__ __device__ inline int add(int a, int b) { return int(unsigned(a) + unsigned(b)); }

// Four elements in one 16-byte load or store: a quarter as many memory instructions.
template <typename T>
struct Vec4;
template <>
struct Vec4<float> {
  using type = float4;
};
template <>
struct Vec4<int> {
  using type = int4;
};
template <typename T>
using Vec4T = typename Vec4<T>::type;

template <typename T>
__device__ inline T sum4(Vec4T<T> v) {
  return add(add(v.x, v.y), add(v.z, v.w));
}

// Lane 0 ends with the sum of the warp's 32 values: five register exchanges, no shared memory
// and no __syncthreads.
template <typename T>
__device__ inline T warpSum(T v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v = add(v, __shfl_down_sync(0xffffffffu, v, offset));
  return v;
}

// Inclusive scan across the warp (Hillis-Steele on registers): lane i ends with v0 + ... + vi.
template <typename T>
__device__ inline T warpInclusiveScan(T v) {
  const int lane = int(threadIdx.x & 31u);
  for (int offset = 1; offset < 32; offset <<= 1) {
    const T other = __shfl_up_sync(0xffffffffu, v, offset);
    if (lane >= offset) v = add(other, v);
  }
  return v;
}

// The block's sum, in thread 0: each warp reduces with shuffles, lane 0 of each warp parks its
// total in shared memory (one word per warp), and the first warp reduces those. One barrier.
template <typename T, int kThreads>
__device__ inline T blockSum(T v) {
  static_assert(kThreads % 32 == 0 && kThreads <= 1024);
  constexpr int kWarps = kThreads / 32;
  __shared__ T warpTotals[kWarps];
  v = warpSum(v);
  const int warp = int(threadIdx.x / 32), lane = int(threadIdx.x % 32);
  if (lane == 0) warpTotals[warp] = v;
  __syncthreads();
  if (warp == 0) v = warpSum(lane < kWarps ? warpTotals[lane] : T(0));
  return v;
}

// The stages' load of a 16-byte vector (scripts/reduce-sweep-kernels.cuh times others).
struct PlainLoad {
  template <typename V>
  __device__ V operator()(const V* p) const {
    return *p;
  }
};

// One thread's share of a grid-stride pass over in[0, n) with 16-byte loads: `head` scalar
// elements up to the first 16-byte boundary, then 4-element vectors, kUnroll of them loaded
// (by `load`) before any is added (independent loads in flight hide the memory latency), then
// the scalar tail. Each element is read by exactly one thread of the grid.
template <typename T, int kUnroll, class VectorLoad = PlainLoad>
__device__ inline T threadSumVectorized(const T* __restrict__ in, std::int64_t n, std::int64_t head,
                                        VectorLoad load = {}) {
  const std::int64_t tid = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t threads = std::int64_t(gridDim.x) * blockDim.x;
  const auto* body = reinterpret_cast<const Vec4T<T>*>(in + head);
  const std::int64_t vectors = (n - head) / 4;
  T v = T(0);
  std::int64_t i = tid;
  for (; i + (kUnroll - 1) * threads < vectors; i += kUnroll * threads) {
    Vec4T<T> x[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) x[u] = load(body + i + u * threads);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v = add(v, sum4<T>(x[u]));
  }
  for (; i < vectors; i += threads) v = add(v, sum4<T>(load(body + i)));
  const std::int64_t tailStart = head + vectors * 4;
  if (tid < head) v = add(v, in[tid]);
  if (tid < n - tailStart) v = add(v, in[tailStart + tid]);
  return v;
}

inline bool aligned16(const void* p) { return (reinterpret_cast<std::uintptr_t>(p) & 15u) == 0; }

// Elements before the first 16-byte boundary of p (4-byte elements), at most n.
inline std::int64_t headElements(const void* p, std::int64_t n) {
  const std::int64_t misaligned = std::int64_t(reinterpret_cast<std::uintptr_t>(p) & 15u);
  return std::min<std::int64_t>(n, misaligned == 0 ? 0 : (16 - misaligned) / 4);
}

using detail::gridFor;  // blocks for a grid-stride kernel (detail/multiprocessors.h)

// Calls f(float{}) or f(int{}) for the launch's element type: every kernel is a template on
// the element type, and the launcher instantiates both.
template <typename F>
void dispatch(ElementType type, F&& f) {
  if (type == ElementType::kInt32)
    f(int{});
  else
    f(float{});
}

inline std::size_t alignUp(std::size_t bytes) { return (bytes + 255) & ~std::size_t(255); }

}  // namespace kwb::kernels::vec

namespace kwb::kernels {

// A 1-D family's descriptor: stages have family == problem ("reduce", "scan"), references
// family "cub". The registry list sets the stage number.
inline KernelDescriptor vectorDescriptor(const char* id, const char* name, const char* problem,
                                         bool reference, const char* what, VectorLaunchFn fn,
                                         ScratchBytesFn scratch = nullptr) {
  KernelDescriptor d;
  d.id = id;
  d.displayName = name;
  d.family = reference ? "cub" : problem;
  d.problem = problem;
  d.reference = reference;
  d.description = what;
  d.launchVector = fn;
  d.scratchBytes = scratch;
  return d;
}

}  // namespace kwb::kernels
