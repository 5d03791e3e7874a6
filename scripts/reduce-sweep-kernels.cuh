// SPDX-License-Identifier: Apache-2.0
#pragma once
// The kernels that scripts/reduce-sweep.cu times: reduce.vectorized's kernel with its choices as
// template parameters (threads, 16-byte loads in flight, load instruction, finish), and a
// cp.async.bulk ring (sm_90). They add with the stage's own helpers (vector_common.cuh).
#include <type_traits>

#include "reduce/vector_common.cuh"

namespace kwb::sweep {

namespace vec = kwb::kernels::vec;
using vec::add;
using vec::Vec4T;

// The load instruction of the body's 16-byte vectors (the head and tail use __ldg).
enum class Load { kLdg, kNoAllocate256, kPrefetch256 };

template <Load kLoad, typename V>
__device__ inline V load16(const V* p) {
  if constexpr (kLoad == Load::kLdg) {
    return __ldg(p);
  } else {
    unsigned a, b, c, d;
    if constexpr (kLoad == Load::kNoAllocate256)
      asm("ld.global.nc.L1::no_allocate.L2::256B.v4.u32 {%0, %1, %2, %3}, [%4];"
          : "=r"(a), "=r"(b), "=r"(c), "=r"(d)
          : "l"(p));
    else
      asm("ld.global.L2::256B.v4.u32 {%0, %1, %2, %3}, [%4];"
          : "=r"(a), "=r"(b), "=r"(c), "=r"(d)
          : "l"(p));
    if constexpr (std::is_same_v<V, float4>)
      return make_float4(__uint_as_float(a), __uint_as_float(b), __uint_as_float(c),
                         __uint_as_float(d));
    else
      return make_int4(int(a), int(b), int(c), int(d));
  }
}

// load16 as vec::threadSumVectorized takes it.
template <Load kLoad>
struct Load16 {
  template <typename V>
  __device__ V operator()(const V* p) const {
    return load16<kLoad>(p);
  }
};

// The stage's per-thread pass with the body's load chosen: the same head, trips and tail.
template <typename T, int kUnroll, Load kLoad>
__device__ inline T threadSum(const T* __restrict__ in, std::int64_t n, std::int64_t head) {
  return vec::threadSumVectorized<T, kUnroll>(in, n, head, Load16<kLoad>{});
}

// kTwoPass: each block writes its sum to out[blockIdx.x] (the partials); else one atomic a block.
template <typename T, int kThreads, int kUnroll, Load kLoad, bool kTwoPass>
__global__ void __launch_bounds__(kThreads)
    sweepKernel(const T* __restrict__ in, T* out, std::int64_t n, std::int64_t head) {
  const T v = vec::blockSum<T, kThreads>(threadSum<T, kUnroll, kLoad>(in, n, head));
  if (threadIdx.x == 0) {
    if constexpr (kTwoPass)
      out[blockIdx.x] = v;
    else
      atomicAdd(out, v);
  }
}

// The second pass: one block adds the partials in a fixed order, so the float sum of a given n
// and grid is the same every launch.
template <typename T>
__global__ void __launch_bounds__(1024) finishKernel(const T* partials, T* out, int count) {
  T v = T(0);
  for (int i = int(threadIdx.x); i < count; i += 1024) v = add(v, partials[i]);
  v = vec::blockSum<T, 1024>(v);
  if (threadIdx.x == 0) *out = v;
}

// mbarrier and bulk-copy PTX (sm_90). A wait that never completes traps instead of hanging the
// sweep: a broken ring then fails the run loudly.
__device__ inline bool tryWait(unsigned bar, unsigned parity) {
  unsigned done = 0;
  asm volatile(
      "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, "
      "p; }"
      : "=r"(done)
      : "r"(bar), "r"(parity)
      : "memory");
  return done != 0;
}

// A block takes chunks blockIdx.x, blockIdx.x + gridDim.x, ... of kChunkBytes each; thread 0
// keeps kStages bulk copies in flight into a ring of shared memory (the copy engine moves the
// bytes, so no thread holds registers for loads in flight), every thread adds its 16-byte
// vectors of each chunk as it lands, and a barrier frees the slot for the next copy. The head
// (before the first 16-byte boundary) and what follows the last whole chunk are added by
// scalar loads across the grid.
template <typename T, int kThreads, int kStages, int kChunkBytes>
__global__ void __launch_bounds__(kThreads)
    bulkKernel(const T* __restrict__ in, T* out, std::int64_t n, std::int64_t head) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  static_assert(kChunkBytes % (16 * kThreads) == 0);
  extern __shared__ __align__(128) unsigned char ring[];
  __shared__ __align__(8) unsigned long long full[kStages];
  constexpr std::int64_t kChunk = kChunkBytes / sizeof(T);
  const T* body = in + head;
  const std::int64_t chunks = (n - head) / kChunk;
  const std::int64_t mine =
      chunks > blockIdx.x ? (chunks - 1 - blockIdx.x) / gridDim.x + 1 : std::int64_t(0);
  const unsigned ringAt = unsigned(__cvta_generic_to_shared(ring));
  const unsigned fullAt = unsigned(__cvta_generic_to_shared(full));
  auto issue = [&](std::int64_t k) {
    const unsigned s = unsigned(k % kStages), bar = fullAt + 8u * s;
    const T* src = body + (blockIdx.x + k * gridDim.x) * kChunk;
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar),
                 "r"(kChunkBytes)
                 : "memory");
    asm volatile(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, "
        "[%3];" ::"r"(ringAt + s * kChunkBytes),
        "l"(src), "r"(kChunkBytes), "r"(bar)
        : "memory");
  };
  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s)
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(fullAt + 8u * s) : "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");  // the copies see the inits
  }
  __syncthreads();
  if (threadIdx.x == 0)
    for (std::int64_t k = 0; k < kStages && k < mine; ++k) issue(k);
  T v = T(0);
  for (std::int64_t k = 0; k < mine; ++k) {
    const unsigned s = unsigned(k % kStages), parity = unsigned(k / kStages) & 1u;
    for (long spins = 0; !tryWait(fullAt + 8u * s, parity);)
      if (++spins == (1l << 26)) __trap();
    const auto* slot = reinterpret_cast<const Vec4T<T>*>(ring + s * kChunkBytes);
#pragma unroll
    for (int j = 0; j < kChunkBytes / 16 / kThreads; ++j)
      v = add(v, vec::sum4<T>(slot[threadIdx.x + j * kThreads]));
    __syncthreads();  // every thread has read slot s
    if (threadIdx.x == 0 && k + kStages < mine) {
      asm volatile("fence.proxy.async.shared::cta;" ::: "memory");  // reads before the rewrite
      issue(k + kStages);
    }
  }
  const std::int64_t tid = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t threads = std::int64_t(gridDim.x) * blockDim.x;
  if (tid < head) v = add(v, in[tid]);
  for (std::int64_t i = head + chunks * kChunk + tid; i < n; i += threads) v = add(v, in[i]);
  v = vec::blockSum<T, kThreads>(v);
  if (threadIdx.x == 0) atomicAdd(out, v);
#else
  __trap();
#endif
}

}  // namespace kwb::sweep
