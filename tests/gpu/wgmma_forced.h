// SPDX-License-Identifier: Apache-2.0
#pragma once
// Shared by the test_sgemm suites of sgemm.wgmma's plans: a fixture that skips off Hopper or in a
// build without sm_90a, the stage forced to a tune cell (tile, split-K, clusters) as a kernel of
// its own, and C's bits after one launch.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "sgemm_support.h"
#ifdef KWB_HAVE_WGMMA
#include "sgemm_wgmma_choice.h"
#endif

namespace kwb::test {

class WgmmaTest : public GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped()) return;
#ifndef KWB_HAVE_WGMMA
    GTEST_SKIP() << "sgemm.wgmma is built only for sm_90a (CMAKE_CUDA_ARCHITECTURES naming 90a)";
#else
    int major = 0, minor = 0;
    ASSERT_EQ(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0), cudaSuccess);
    ASSERT_EQ(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0), cudaSuccess);
    if (major != 9 || minor != 0)
      GTEST_SKIP() << "sgemm.wgmma runs its own code only on compute capability 9.0";
#endif
  }
};

#ifdef KWB_HAVE_WGMMA
template <int BN, int S, bool C>
kwb::LaunchInfo forced(const kwb::GemmArgs& g) {
  return kwb::kernels::launchSgemmWgmmaPlan(g, BN, S, C);
}
template <int BN, bool C, int... S>
std::vector<kwb::LaunchFn> splitLaunchers(std::integer_sequence<int, S...>) {
  return {&forced<BN, S + 1, C>...};
}

// sgemm.wgmma forced to a tile width and split count, through the global workspace or (cluster)
// across a cluster, named for the reports as kwb tune names the cell.
inline KernelDescriptor forcedKernel(int tileN, int splits, bool cluster = false) {
  constexpr auto kCounts = std::make_integer_sequence<int, 8>{};
  static const std::vector<kwb::LaunchFn> byWidth[2][3] = {
      {splitLaunchers<64, false>(kCounts), splitLaunchers<128, false>(kCounts),
       splitLaunchers<256, false>(kCounts)},
      {splitLaunchers<64, true>(kCounts), splitLaunchers<128, true>(kCounts),
       splitLaunchers<256, true>(kCounts)}};
  KernelDescriptor k = kwb::kernels::registry().find("sgemm.wgmma");
  k.id += "[128x" + std::to_string(tileN) + "x64_" + (cluster ? "csplit" : "split") +
          std::to_string(splits) + "]";
  k.launch = byWidth[cluster ? 1 : 0][tileN == 64    ? 0
                                      : tileN == 128 ? 1
                                                     : 2][std::size_t(splits - 1)];
  return k;
}

// sgemm.wgmma on a tile that runs only whole K (launchSgemmWgmmaPlan's tileM x tileN): 64x64,
// 64x96, 128x192 or 128x48, or 64x128 (in pairs sharing B), named as kwb tune names the cell.
template <int BM, int BN>
kwb::LaunchInfo forcedWholeTile(const kwb::GemmArgs& g) {
  return kwb::kernels::launchSgemmWgmmaPlan(g, BN, 1, false, BM);
}
inline KernelDescriptor wholeTileKernel(int tileM, int tileN) {
  KernelDescriptor k = kwb::kernels::registry().find("sgemm.wgmma");
  const bool pairsB = tileM == 64 && tileN == 128;
  k.id += "[" + std::to_string(tileM) + "x" + std::to_string(tileN) +
          (pairsB ? "x64_bshare1]" : "x64_split1]");
  if (tileM == 128)
    k.launch = tileN == 48 ? &forcedWholeTile<128, 48> : &forcedWholeTile<128, 192>;
  else
    k.launch = pairsB        ? &forcedWholeTile<64, 128>
               : tileN == 96 ? &forcedWholeTile<64, 96>
                             : &forcedWholeTile<64, 64>;
  return k;
}
// The 64x128 tile in pairs of CTAs along M sharing B (kwb tune's 64x128x64_bshare1).
inline KernelDescriptor pairsSharingBKernel() { return wholeTileKernel(64, 128); }
inline KernelDescriptor shortTileKernel(int tileN = 64) { return wholeTileKernel(64, tileN); }

// sgemm.wgmma's 128-row tile tileN wide in 2-CTA clusters sharing A, or (alsoB) 2x2 clusters
// sharing A and B (launchSgemmWgmmaSharedA), named as kwb tune names the cell.
template <int BN, bool B>
kwb::LaunchInfo forcedSharedA(const kwb::GemmArgs& g) {
  return kwb::kernels::launchSgemmWgmmaSharedA(g, BN, B);
}
inline KernelDescriptor sharedAKernel(int tileN, bool alsoB) {
  KernelDescriptor k = kwb::kernels::registry().find("sgemm.wgmma");
  k.id += "[128x" + std::to_string(tileN) + (alsoB ? "x64_abshare1]" : "x64_ashare1]");
  if (alsoB)
    k.launch = tileN == 64 ? &forcedSharedA<64, true> : &forcedSharedA<128, true>;
  else
    k.launch = tileN == 48   ? &forcedSharedA<48, false>
               : tileN == 64 ? &forcedSharedA<64, false>
                             : &forcedSharedA<128, false>;
  return k;
}

// C's bits after one launch of `kernel` with beta = 0 on the prepared case, C first filled with
// `fill` (0xFF bytes: every element a NaN, which beta = 0 must never read); `before` queues work
// on the session's stream between the fill and the launch.
inline std::vector<std::uint32_t> launchBits(const KernelDescriptor& kernel,
                                             const kwb::cuda::PreparedCase& p, const Shape& s,
                                             int fill = 0,
                                             const std::function<void()>& before = {}) {
  const std::size_t n = std::size_t(s.m * s.n);
  std::vector<std::uint32_t> bits(n);
  EXPECT_EQ(cudaMemsetAsync(p.c(), fill, n * sizeof(float), session().stream()), cudaSuccess);
  if (before) before();
  (void)kernel.launch(p.args(1.0f, 0.0f));
  EXPECT_EQ(cudaMemcpyAsync(bits.data(), p.c(), n * sizeof(float), cudaMemcpyDeviceToHost,
                            session().stream()),
            cudaSuccess);
  EXPECT_EQ(cudaStreamSynchronize(session().stream()), cudaSuccess);
  return bits;
}
#endif

}  // namespace kwb::test
