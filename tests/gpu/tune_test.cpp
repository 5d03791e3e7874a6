// Every tuning configuration of every tunable kernel passes the verification pipeline on an
// aligned shape, on shapes whose every dimension cuts a tile (ragged but 8-aligned), and on
// unaligned shapes, where it must fall back and say so.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "gpu_fixture.h"
#include "kwb/cuda/gemm_session.h"
#include "kwb/results.h"
#include "registry.h"
#include "tuning_variants.h"

namespace {

constexpr std::uint64_t kSeed = 0x7E57;

kwb::cuda::GemmSession& session() {
  static std::unique_ptr<kwb::cuda::GemmSession> s;
  if (!s) s = std::make_unique<kwb::cuda::GemmSession>(0);
  return *s;
}

// Whether a configuration runs its own code on `s` (the other shapes fall back to the
// registered FP32 stage): the warp-tiled configurations need K and N multiples of 4 for their
// float4 paths; the mma.sync ones every dimension a multiple of 8 (the stage's alignment).
bool ownPath(const std::string& kernel, const kwb::Shape& s) {
  if (kernel == "sgemm.warp_tiled") return s.n % 4 == 0 && s.k % 4 == 0;
  return s.multipleOf(8);
}

class Tune : public GpuTest {};

// The lists themselves (host data) are checked by tests/kernels/kernel_list_test.cpp.
TEST_F(Tune, EveryConfigurationVerifies) {
  const kwb::Shape shapes[] = {
      {512, 512, 512},  // whole tiles for every configuration
      {264, 200, 136},  // 8-aligned, and every dimension cuts a tile of every configuration
      {8, 1032, 40},    // one short row panel, a partial K slice
      {129, 65, 33},    // unaligned: the warp-tiled and mma configurations fall back
      {36, 100, 12},    // K, N multiples of 4 only: warp-tiled runs, mma falls back
  };
  for (const auto& id : kwb::kernels::tunableKernels()) {
    const kwb::KernelDescriptor& base = kwb::kernels::registry().find(id);
    for (const auto& v : kwb::kernels::tuneVariants(id)) {
      const kwb::KernelDescriptor k = kwb::kernels::withVariant(base, v);
      for (const auto& s : shapes) {
        SCOPED_TRACE(k.id + " " + kwb::toString(s) + " seed " + std::to_string(kSeed));
        const kwb::CaseResult c = session().verifyCase(k, s, kSeed);
        const bool own = ownPath(id, s);
        EXPECT_EQ(toString(c.status),
                  toString(own ? kwb::CaseStatus::kPass : kwb::CaseStatus::kFallback))
            << c.message;
        EXPECT_EQ(c.fallback, !own);
        if (own)
          EXPECT_EQ(c.ranKernel, v.config.name);
        else  // the warp-tiled stage, which names the tile it chose after its id
          EXPECT_TRUE(c.ranKernel.starts_with("sgemm.warp_tiled")) << c.ranKernel;
        ASSERT_TRUE(c.verification.has_value()) << c.message;
        EXPECT_EQ(c.verification->unwritten, 0);
        EXPECT_EQ(c.verification->compare.mismatches, 0) << c.message;
        ASSERT_TRUE(c.verification->alphaBeta.has_value());
        EXPECT_EQ(c.verification->alphaBeta->mismatches, 0) << c.message;
        EXPECT_TRUE(c.verification->negativeControlRejected);
      }
    }
  }
}

}  // namespace
