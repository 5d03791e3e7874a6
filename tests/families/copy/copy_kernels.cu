// SPDX-License-Identifier: Apache-2.0
// The test family's kernels: out[i] = in[i] for `count` 4-byte elements. Stage 1 copies one
// element a thread per grid-stride step; stage 2 moves 16 bytes a load where the pointers allow
// it; the reference is cudaMemcpyAsync. Built only in tests: it proves a family needs nothing
// outside its folder and a registry.
#include <cstdint>

#include "copy/copy_family.h"
#include "kwb/cuda/check.h"
#include "kwb/vector_args.h"

namespace kwb::test {
namespace {

constexpr int kThreads = 256;

int blocksFor(std::int64_t n) {
  const std::int64_t b = (n + kThreads - 1) / kThreads;
  return int(b < 1 ? 1 : (b > 65535 ? 65535 : b));
}

__global__ void copyElements(const std::uint32_t* __restrict__ in, std::uint32_t* out,
                             std::int64_t n) {
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = in[i];
}

__global__ void copyVectors(const uint4* __restrict__ in, uint4* out, std::int64_t n4) {
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n4; i += stride)
    out[i] = in[i];
}

LaunchInfo launchNaive(const VectorArgs& a) {
  if (a.count == 0) return {false, "copy.naive"};
  copyElements<<<blocksFor(a.count), kThreads, 0, a.stream>>>(
      static_cast<const std::uint32_t*>(a.in), static_cast<std::uint32_t*>(a.out), a.count);
  KWB_CHECK_LAUNCH();
  return {false, "copy.naive"};
}

LaunchInfo launchVectorized(const VectorArgs& a) {
  const auto* in = static_cast<const std::uint32_t*>(a.in);
  auto* out = static_cast<std::uint32_t*>(a.out);
  const bool aligned = (reinterpret_cast<std::uintptr_t>(in) % 16 == 0) &&
                       (reinterpret_cast<std::uintptr_t>(out) % 16 == 0);
  const std::int64_t n4 = aligned ? a.count / 4 : 0;
  if (n4 > 0)
    copyVectors<<<blocksFor(n4), kThreads, 0, a.stream>>>(reinterpret_cast<const uint4*>(in),
                                                          reinterpret_cast<uint4*>(out), n4);
  const std::int64_t rest = a.count - 4 * n4;
  if (rest > 0)
    copyElements<<<blocksFor(rest), kThreads, 0, a.stream>>>(in + 4 * n4, out + 4 * n4, rest);
  if (a.count > 0) KWB_CHECK_LAUNCH();
  return {false, "copy.vectorized"};
}

LaunchInfo launchReference(const VectorArgs& a) {
  if (a.count > 0)
    KWB_CUDA_CHECK(
        cudaMemcpyAsync(a.out, a.in, std::size_t(a.count) * 4, cudaMemcpyDeviceToDevice, a.stream));
  return {false, "copy.ref"};
}

KernelDescriptor descriptor(const char* id, const char* name, bool reference, const char* what,
                            VectorLaunchFn fn) {
  KernelDescriptor d;
  d.id = id;
  d.displayName = name;
  d.family = "copy";
  d.problem = "copy";
  d.reference = reference;
  d.description = what;
  d.launchVector = fn;
  return d;
}

}  // namespace

std::vector<KernelDescriptor> copyKernels() {
  return {descriptor("copy.naive", "One element a thread", false,
                     "Grid-stride loop, one 4-byte load and store a step", &launchNaive),
          descriptor("copy.vectorized", "16-byte loads", false,
                     "uint4 loads and stores where aligned, the tail element by element",
                     &launchVectorized),
          descriptor("copy.ref", "cudaMemcpyAsync", true, "The driver's device-to-device copy",
                     &launchReference)};
}

}  // namespace kwb::test
