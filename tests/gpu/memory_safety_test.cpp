// SPDX-License-Identifier: Apache-2.0
// Memory-safety property: no CUDA error, no leaked device memory, resources released (RAII).
#include <cuda_runtime_api.h>

#include "kwb/cuda/device_buffer.h"
#include "sgemm_support.h"

using kwb::Shape;

namespace {

std::size_t freeBytes() {
  std::size_t f = 0, total = 0;
  EXPECT_EQ(cudaMemGetInfo(&f, &total), cudaSuccess);
  return f;
}

// Every registered GEMM kernel on a few shapes, with its own session (stream, cuBLAS handle).
void runSuite() {
  kwb::cuda::GemmSession s(0);
  EXPECT_TRUE(s.knownAnswerTest().passed);
  for (const auto& k : kwb::kernels::registry().all()) {
    if (!kwb::test::isGemm(k)) continue;
    for (const Shape& shape : {Shape{64, 48, 40}, Shape{17, 19, 23}, Shape{128, 128, 128},
                               Shape{1, 128, 1}, Shape{256, 384, 640}})
      EXPECT_TRUE(isGood(s.verifyCase(k, shape, kwb::test::kSeed).status))
          << k.id << " " << toString(shape);
  }
}

}  // namespace

class MemorySafety : public GpuTest {};

TEST_F(MemorySafety, FullSuiteLeavesFreeMemoryUnchanged) {
  // The first pass loads modules lazily and lets cuBLAS make its one-time allocations; those
  // stay resident by design. A second identical pass must then give back every byte.
  runSuite();
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const std::size_t before = freeBytes();
  runSuite();
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(freeBytes(), before);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

TEST_F(MemorySafety, DeviceBufferFreesOnDestructionAndMove) {
  constexpr std::size_t kBytes = std::size_t{256} << 20;
  ASSERT_EQ(cudaFree(nullptr), cudaSuccess);  // the context exists before the first reading
  const std::size_t before = freeBytes();
  {
    kwb::cuda::DeviceBuffer<float> a(kBytes / sizeof(float));
    EXPECT_LE(freeBytes() + kBytes, before);
    kwb::cuda::DeviceBuffer<float> b(std::move(a));
    EXPECT_EQ(a.get(), nullptr);
    EXPECT_EQ(b.bytes(), kBytes);
    a = std::move(b);  // move-assign back: still exactly one allocation
    EXPECT_EQ(b.get(), nullptr);
    EXPECT_EQ(a.bytes(), kBytes);
  }
  EXPECT_EQ(freeBytes(), before);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}
