// SPDX-License-Identifier: Apache-2.0
#pragma once
// The PTX of sgemm.wgmma (sm_90a): mbarriers, TMA bulk tensor copies, shared-memory matrix
// descriptors and the warpgroup MMA instructions, as inline-asm wrappers. Included by
// sgemm_wgmma.cu only (sgemm.wgmma and sgemm.wgmma_bf16); see there for how they fit together.
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "detail/grid_dependency.cuh"

namespace kwb::kernels::wgmma {

// The device code below exists for sm_90a only. The host pass and the sm_90a pass see it; any
// other device pass (an "80;90a" build) compiles a kernel that traps, never launched.
#if !defined(__CUDA_ARCH__) || defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define KWB_WGMMA_TARGET 1
#else
#define KWB_WGMMA_TARGET 0
#endif

#if KWB_WGMMA_TARGET
// --- device helpers (PTX of sm_90 / sm_90a) ---------------------------------------------------

__device__ __forceinline__ std::uint32_t smemAddr(const void* p) {
  return std::uint32_t(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mbarInit(std::uint32_t bar, std::uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
}

__device__ __forceinline__ void mbarExpectTx(std::uint32_t bar, std::uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes)
               : "memory");
}

__device__ __forceinline__ void mbarArrive(std::uint32_t bar) {
  asm volatile(
      "{\n"
      ".reg .b64 state;\n"
      "mbarrier.arrive.shared::cta.b64 state, [%0];\n"
      "}\n" ::"r"(bar)
      : "memory");
}

// Spins until the phase with the given parity has completed. A fresh barrier counts its
// "previous" phase (parity 1) as complete, which lets the producer start on empty stages.
__device__ __forceinline__ void mbarWait(std::uint32_t bar, std::uint32_t parity) {
  std::uint32_t done = 0;
  do {
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
        "selp.u32 %0, 1, 0, p;\n"
        "}\n"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
  } while (!done);
}

// One 2-D box of the tensor map at element coordinates (inner, outer) into shared memory;
// completes `bytes` of the barrier's transaction count.
__device__ __forceinline__ void tmaLoad2d(std::uint32_t dst, const CUtensorMap* map, int inner,
                                          int outer, std::uint32_t bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, "
      "{%2, %3}], [%4];\n" ::"r"(dst),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(inner), "r"(outer), "r"(bar)
      : "memory");
}

// The epilogue's bulk tensor store: a 2-D box of shared memory at `src` to the tensor map's
// element coordinates (inner, outer); elements outside the tensor are not written. Stores
// issued by one thread form bulk groups: commit them, then wait until at most N groups are
// still reading shared memory (the buffer may be rewritten).
__device__ __forceinline__ void tmaStore2d(const CUtensorMap* map, std::uint32_t src, int inner,
                                           int outer) {
  asm volatile(
      "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];\n" ::"l"(
          reinterpret_cast<std::uint64_t>(map)),
      "r"(inner), "r"(outer), "r"(src)
      : "memory");
}
__device__ __forceinline__ void bulkCommit() {
  asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
}
template <int N>
__device__ __forceinline__ void bulkWaitRead() {
  asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(N) : "memory");
}
// Orders this thread's ordinary shared-memory writes before the async proxy's (TMA's) reads.
__device__ __forceinline__ void fenceProxyAsync() {
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}
// Barrier `id` (1..15; 0 is __syncthreads) over `threads` threads, whole warps.
__device__ __forceinline__ void namedBarrier(int id, int threads) {
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}
__device__ __forceinline__ void storeShared(std::uint32_t addr, float x, float y) {
  asm volatile("st.shared.v2.f32 [%0], {%1, %2};\n" ::"r"(addr), "f"(x), "f"(y) : "memory");
}

// This CTA's rank in its cluster.
__device__ __forceinline__ std::uint32_t clusterRank() {
  std::uint32_t r = 0;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
  return r;
}

// The float4 at this CTA's shared address `addr` in the shared memory of cluster CTA `rank`.
__device__ __forceinline__ float4 loadCluster(std::uint32_t addr, std::uint32_t rank) {
  float4 v;
  asm volatile(
      "{\n"
      ".reg .b32 remote;\n"
      "mapa.shared::cluster.u32 remote, %4, %5;\n"
      "ld.shared::cluster.v4.f32 {%0, %1, %2, %3}, [remote];\n"
      "}\n"
      : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
      : "r"(addr), "r"(rank)
      : "memory");
  return v;
}

// The same copy delivered to the same shared-memory offset, and completed on the same barrier
// offset, in every CTA of the cluster whose bit is set in ctaMask (TMA multicast).
__device__ __forceinline__ void tmaLoad2dMulticast(std::uint32_t dst, const CUtensorMap* map,
                                                   int inner, int outer, std::uint32_t bar,
                                                   std::uint16_t ctaMask) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::"
      "cluster [%0], [%1, {%2, %3}], [%4], %5;\n" ::"r"(dst),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(inner), "r"(outer), "r"(bar), "h"(ctaMask)
      : "memory");
}

// Arrives on the barrier at this CTA's shared-memory offset `bar` in cluster CTA `rank`
// (this CTA's own rank included), releasing this thread's prior accesses to the cluster.
__device__ __forceinline__ void mbarArriveCluster(std::uint32_t bar, std::uint32_t rank) {
  asm volatile(
      "{\n"
      ".reg .b32 remote;\n"
      "mapa.shared::cluster.u32 remote, %0, %1;\n"
      "mbarrier.arrive.shared::cluster.b64 _, [remote];\n"
      "}\n" ::"r"(bar),
      "r"(rank)
      : "memory");
}

// Programmatic dependent launch (detail/grid_dependency.cuh).
using detail::launchDependents;
using detail::waitForPriorGrids;

// Every thread of every CTA in the cluster: barriers initialised before any peer uses them,
// and no CTA exits while a peer may still arrive on its barriers or write its shared memory.
__device__ __forceinline__ void clusterSync() {
  asm volatile(
      "barrier.cluster.arrive.release;\n"
      "barrier.cluster.wait.acquire;\n" ::
          : "memory");
}

// The same barrier in two halves, so that work between them overlaps its latency (CUTLASS's
// cluster_arrive_relaxed and cluster_wait): every thread arrives, then waits. The arrival orders
// nothing itself; a thread that must publish writes to the cluster fences first (the barriers'
// initialisation: fence.mbarrier_init.release.cluster).
__device__ __forceinline__ void clusterArriveRelaxed() {
  asm volatile("barrier.cluster.arrive.relaxed.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void clusterWait() {
  asm volatile("barrier.cluster.wait.aligned;\n" ::: "memory");
}

__device__ __forceinline__ std::uint64_t smemDesc(std::uint32_t addr, std::uint32_t lbo,
                                                  std::uint32_t sbo, std::uint32_t mode = 1) {
  // mode: the swizzle, 1 = 128-byte, 2 = 64-byte (bits 62-63)
  return std::uint64_t((addr & 0x3FFFFu) >> 4) | std::uint64_t(lbo >> 4) << 16 |
         std::uint64_t(sbo >> 4) << 32 | std::uint64_t(mode) << 62;
}

__device__ __forceinline__ void wgmmaFence() {
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void wgmmaCommit() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
template <int N>
__device__ __forceinline__ void wgmmaWait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}
// Keeps the compiler from moving accumulator reads or writes across the asynchronous wgmmas
// (CUTLASS's warpgroup_fence_operand).
template <int N>
__device__ __forceinline__ void fenceOperands(float (&d)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

// The wgmma shapes the stage uses, one per block-tile width: scale-d 1, scale-a 1, scale-b 1,
// trans-a 0, trans-b 1. Each exists for FP16 and BF16 inputs (E = __half or __nv_bfloat16):
// the same instruction with .bf16 for .f16. The type is spliced into the asm text by the
// preprocessor (KWB_WGMMA_*), since an asm template must be one string literal; so are the
// accumulator registers, in runs of 16 (KWB_WGMMA_R16_j: the asm's %16j … %16j+15, and
// KWB_WGMMA_D16_j: the operands d[16j] … d[16j+15]; the second run is two of 8, R8_2 and R8_3,
// since the 48-wide tile ends after the first of them), the descriptors' and predicate's numbers
// following them.
#define KWB_WGMMA_R16_0 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15"
#define KWB_WGMMA_R8_2 ", %16, %17, %18, %19, %20, %21, %22, %23"
#define KWB_WGMMA_R8_3 ", %24, %25, %26, %27, %28, %29, %30, %31"
#define KWB_WGMMA_R16_1 KWB_WGMMA_R8_2 KWB_WGMMA_R8_3
#define KWB_WGMMA_R16_2 \
  ", %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47"
#define KWB_WGMMA_R16_3 \
  ", %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
#define KWB_WGMMA_R16_4 \
  ", %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79"
#define KWB_WGMMA_R16_5 \
  ", %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95"
#define KWB_WGMMA_R16_6 \
  ", %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111"
#define KWB_WGMMA_R16_7                                                                          \
  ", %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, " \
  "%127"
#define KWB_WGMMA_D16_0                                                                           \
  "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), \
      "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),    \
      "+f"(d[15])
#define KWB_WGMMA_D8_2                                                                         \
  , "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), \
      "+f"(d[23])
#define KWB_WGMMA_D8_3                                                                         \
  , "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), \
      "+f"(d[31])
#define KWB_WGMMA_D16_1 KWB_WGMMA_D8_2 KWB_WGMMA_D8_3
#define KWB_WGMMA_D16_2                                                                          \
  , "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]),   \
      "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), \
      "+f"(d[46]), "+f"(d[47])
#define KWB_WGMMA_D16_3                                                                          \
  , "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]),   \
      "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), \
      "+f"(d[62]), "+f"(d[63])
#define KWB_WGMMA_D16_4                                                                          \
  , "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]),   \
      "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), \
      "+f"(d[78]), "+f"(d[79])
#define KWB_WGMMA_D16_5                                                                          \
  , "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]),   \
      "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), \
      "+f"(d[94]), "+f"(d[95])
#define KWB_WGMMA_D16_6                                                                           \
  , "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), \
      "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]),         \
      "+f"(d[109]), "+f"(d[110]), "+f"(d[111])
#define KWB_WGMMA_D16_7                                                                   \
  , "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]),   \
      "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), \
      "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])

// D(64×N, FP32) += A(64×16, K-major, shared) · B(16×N, N-major, shared) for SHAPE "m64nNk16":
// REGS the N/2 accumulators' registers, DESCS and PRED the numbers after them, OUTS their operands.
#define KWB_WGMMA_MMA(T, SHAPE, REGS, DESCS, PRED, OUTS)    \
  asm volatile(                                             \
      "{\n"                                                 \
      ".reg .pred p;\n"                                     \
      "setp.ne.b32 p, " PRED                                \
      ", 0;\n"                                              \
      "wgmma.mma_async.sync.aligned." SHAPE ".f32." T "." T \
      " "                                                   \
      "{" REGS "}, " DESCS                                  \
      ", p, 1, 1, 0, 1;\n"                                  \
      "}\n"                                                 \
      : OUTS                                                \
      : "l"(descA), "l"(descB), "r"(1))
#define KWB_WGMMA_M64N256K16(T)                                                                 \
  KWB_WGMMA_MMA(T, "m64n256k16",                                                                \
                KWB_WGMMA_R16_0 KWB_WGMMA_R16_1 KWB_WGMMA_R16_2 KWB_WGMMA_R16_3 KWB_WGMMA_R16_4 \
                    KWB_WGMMA_R16_5 KWB_WGMMA_R16_6 KWB_WGMMA_R16_7,                            \
                "%128, %129", "%130",                                                           \
                KWB_WGMMA_D16_0 KWB_WGMMA_D16_1 KWB_WGMMA_D16_2 KWB_WGMMA_D16_3 KWB_WGMMA_D16_4 \
                    KWB_WGMMA_D16_5 KWB_WGMMA_D16_6 KWB_WGMMA_D16_7)
#define KWB_WGMMA_M64N192K16(T)                                                                 \
  KWB_WGMMA_MMA(T, "m64n192k16",                                                                \
                KWB_WGMMA_R16_0 KWB_WGMMA_R16_1 KWB_WGMMA_R16_2 KWB_WGMMA_R16_3 KWB_WGMMA_R16_4 \
                    KWB_WGMMA_R16_5,                                                            \
                "%96, %97", "%98",                                                              \
                KWB_WGMMA_D16_0 KWB_WGMMA_D16_1 KWB_WGMMA_D16_2 KWB_WGMMA_D16_3 KWB_WGMMA_D16_4 \
                    KWB_WGMMA_D16_5)
#define KWB_WGMMA_M64N128K16(T)                                                                   \
  KWB_WGMMA_MMA(T, "m64n128k16", KWB_WGMMA_R16_0 KWB_WGMMA_R16_1 KWB_WGMMA_R16_2 KWB_WGMMA_R16_3, \
                "%64, %65", "%66",                                                                \
                KWB_WGMMA_D16_0 KWB_WGMMA_D16_1 KWB_WGMMA_D16_2 KWB_WGMMA_D16_3)
#define KWB_WGMMA_M64N96K16(T)                                                               \
  KWB_WGMMA_MMA(T, "m64n96k16", KWB_WGMMA_R16_0 KWB_WGMMA_R16_1 KWB_WGMMA_R16_2, "%48, %49", \
                "%50", KWB_WGMMA_D16_0 KWB_WGMMA_D16_1 KWB_WGMMA_D16_2)
#define KWB_WGMMA_M64N48K16(T)                                                     \
  KWB_WGMMA_MMA(T, "m64n48k16", KWB_WGMMA_R16_0 KWB_WGMMA_R8_2, "%24, %25", "%26", \
                KWB_WGMMA_D16_0 KWB_WGMMA_D8_2)
#define KWB_WGMMA_M64N64K16(T)                                                      \
  KWB_WGMMA_MMA(T, "m64n64k16", KWB_WGMMA_R16_0 KWB_WGMMA_R16_1, "%32, %33", "%34", \
                KWB_WGMMA_D16_0 KWB_WGMMA_D16_1)

// D(64×N) += A·B for the block-tile width N: N / 2 accumulators per thread; A and B of
// element type E (__half or __nv_bfloat16), spliced into the instruction as .f16 or .bf16.
#define KWB_WGMMA_M64K16(T)    \
  if constexpr (N == 256)      \
    KWB_WGMMA_M64N256K16(T);   \
  else if constexpr (N == 192) \
    KWB_WGMMA_M64N192K16(T);   \
  else if constexpr (N == 128) \
    KWB_WGMMA_M64N128K16(T);   \
  else if constexpr (N == 96)  \
    KWB_WGMMA_M64N96K16(T);    \
  else if constexpr (N == 64)  \
    KWB_WGMMA_M64N64K16(T);    \
  else                         \
    KWB_WGMMA_M64N48K16(T)
template <class E, int N>
__device__ __forceinline__ void wgmmaM64K16(float (&d)[N / 2], std::uint64_t descA,
                                            std::uint64_t descB) {
  static_assert(N == 48 || N == 64 || N == 96 || N == 128 || N == 192 || N == 256,
                "a width the stage has");
  if constexpr (std::is_same_v<E, __nv_bfloat16>) {
    KWB_WGMMA_M64K16("bf16");
  } else {
    KWB_WGMMA_M64K16("f16");
  }
}
#undef KWB_WGMMA_M64K16

#endif  // KWB_WGMMA_TARGET

}  // namespace kwb::kernels::wgmma
