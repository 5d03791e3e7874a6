// SPDX-License-Identifier: Apache-2.0
// sgemm.wgmma launches as a programmatic dependent of the stream's previous kernel: its CTAs may
// start while that kernel still runs, and must wait (griddepcontrol.wait) before they read A or
// B. Here the kernel before lets its dependents start at once and writes A (negated) only after
// about a millisecond, so a launch that read A before its wait would compute with the old A. Every
// kind of launch the stage makes is covered: the tile kernel (128 and 64 rows), global split-K,
// the cluster split, pairs sharing A or B (8 tiles of 128x256 per SM and more, 64x128), 2x2
// clusters, re-laid operands, and BF16.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "dependent_launch_kernels.h"
#include "kwb/cuda/device_buffer.h"
#include "sgemm_support.h"
#include "wgmma_forced.h"

using kwb::KernelDescriptor;
using kwb::Shape;
using kwb::cuda::DeviceBuffer;
using kwb::test::kSeed;
using kwb::test::session;

namespace {

class WgmmaDependentLaunch : public kwb::test::WgmmaTest {};

// About a millisecond at Hopper's clocks: far longer than any launch below takes to start.
constexpr long long kSpinCycles = 2'000'000;

std::vector<std::uint16_t> download(const void* d, std::size_t count) {
  std::vector<std::uint16_t> h(count);
  EXPECT_EQ(cudaMemcpy(h.data(), d, count * 2, cudaMemcpyDeviceToHost), cudaSuccess);
  return h;
}

std::size_t differing(const std::vector<std::uint16_t>& a, const std::vector<std::uint16_t>& b) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < a.size(); ++i) n += a[i] != b[i] ? 1 : 0;
  return n;
}

// The harness sees a read that does not wait: a dependent copy without griddepcontrol.wait,
// queued behind the late writer, copies what was there before it; with the wait, what it wrote.
TEST_F(WgmmaDependentLaunch, ACopyThatDoesNotWaitReadsWhatWasThereBefore) {
  kwb::test::loadDependentLaunchKernels();
  constexpr std::size_t kCount = 1 << 20;
  const std::vector<std::uint16_t> before(kCount, 0x1111), written(kCount, 0x2222);
  DeviceBuffer<std::uint16_t> source(kCount), middle(kCount), out(kCount);
  ASSERT_EQ(cudaMemcpy(source.get(), written.data(), source.bytes(), cudaMemcpyHostToDevice),
            cudaSuccess);
  for (bool wait : {false, true}) {
    ASSERT_EQ(cudaMemcpy(middle.get(), before.data(), middle.bytes(), cudaMemcpyHostToDevice),
              cudaSuccess);
    kwb::test::launchLateCopy(middle.get(), source.get(), middle.bytes(), kSpinCycles,
                              session().stream());
    kwb::test::launchDependentCopy(out.get(), middle.get(), out.bytes(), wait, session().stream());
    ASSERT_EQ(cudaStreamSynchronize(session().stream()), cudaSuccess);
    const std::vector<std::uint16_t> got = download(out.get(), kCount);
    if (wait)
      EXPECT_EQ(differing(got, written), 0u) << "the waiting copy read elements not yet written";
    else
      EXPECT_EQ(differing(got, before), 0u)
          << "the copy that does not wait should have run before the writer ("
          << kCount - differing(got, written) << " of " << kCount
          << " elements read the written value): the test could not see a dependent launch's "
             "early read";
  }
}

#ifdef KWB_HAVE_WGMMA
struct Case {
  KernelDescriptor kernel;
  Shape shape;
};

std::vector<Case> everyLaunchKind() {
  namespace t = kwb::test;
  const KernelDescriptor& fp16 = kwb::kernels::registry().find("sgemm.wgmma");
  const KernelDescriptor& bf16 = kwb::kernels::registry().find("sgemm.wgmma_bf16");
  return {
      {fp16, {768, 768, 768}},                            // 128x64, the default
      {fp16, {1000, 1001, 1000}},                         // A and B re-laid first
      {t::forcedKernel(256, 1), {2048, 2048, 512}},       // 128x256
      {t::forcedKernel(256, 1), {8192, 4352, 128}},       // 128x256 pairs sharing B
      {t::forcedKernel(128, 2), {512, 512, 1024}},        // split-K through the workspace
      {t::forcedKernel(64, 3, true), {512, 512, 2048}},   // the cluster split
      {t::sharedAKernel(64, false), {1000, 1000, 1000}},  // pairs sharing A
      {t::sharedAKernel(128, true), {1032, 1032, 1032}},  // 2x2 clusters
      {t::shortTileKernel(64), {256, 256, 256}},          // 64x64
      {t::pairsSharingBKernel(), {1000, 1000, 1000}},     // 64x128 pairs sharing B
      {bf16, {768, 768, 768}},
  };
}

// A launch queued behind the late writer computes with what it wrote: the same bits as a launch
// long after, and not those of the A before.
TEST_F(WgmmaDependentLaunch, EveryLaunchKindReadsTheANegatedByTheKernelBefore) {
  kwb::test::loadDependentLaunchKernels();  // the stage's own kernels load at the first launch
  for (const Case& c : everyLaunchKind()) {
    const Shape& s = c.shape;
    const auto p = session().prepare(c.kernel, s, kSeed);
    const kwb::GemmArgs args = p->args(1.0f, 0.0f);
    const bool bf16 = c.kernel.precision == kwb::Precision::kBf16Fp32Acc;
    void* a = const_cast<void*>(bf16 ? args.aBf16 : args.aHalf);
    ASSERT_NE(a, nullptr) << c.kernel.id;
    const std::size_t count = std::size_t(s.m * s.k);

    const std::vector<std::uint32_t> old = kwb::test::launchBits(c.kernel, *p, s);
    std::vector<std::uint16_t> negated = download(a, count);
    for (std::uint16_t& x : negated) x ^= 0x8000u;  // the sign bit of FP16 and BF16 alike
    DeviceBuffer<std::uint16_t> staged(count);
    ASSERT_EQ(cudaMemcpy(staged.get(), negated.data(), staged.bytes(), cudaMemcpyHostToDevice),
              cudaSuccess);

    const std::vector<std::uint32_t> raced = kwb::test::launchBits(c.kernel, *p, s, 0, [&] {
      kwb::test::launchLateCopy(a, staged.get(), staged.bytes(), kSpinCycles, session().stream());
    });
    const std::vector<std::uint32_t> settled = kwb::test::launchBits(c.kernel, *p, s);
    std::size_t changed = 0, wrong = 0;
    for (std::size_t i = 0; i < old.size(); ++i) {
      changed += old[i] != settled[i] ? 1 : 0;
      wrong += raced[i] != settled[i] ? 1 : 0;
    }
    EXPECT_GT(changed, old.size() / 2)
        << c.kernel.id << " " << toString(s) << ": negating A should change C";
    EXPECT_EQ(wrong, 0u) << c.kernel.id << " " << toString(s)
                         << ": elements computed from A before the kernel before wrote it";
  }
}
#endif

}  // namespace
