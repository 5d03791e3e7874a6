// SPDX-License-Identifier: Apache-2.0
// sgemm.mma_multistage — stage 8: the default configuration of the mma.sync kernel
// (sgemm_mma_multistage.cuh holds the kernel; kernels/tune instantiates the other
// configurations).
//
// Default: 128×128 block tile, BK = 32, four warps of 64×64 (2×2), 4 cp.async stages
// (64 KB of shared memory, so two blocks share an SM). Each warp issues 32 mma.m16n8k16 per
// 8 ldmatrix.x4 per k16 step; 128 FP32 accumulators per thread. Chosen by `kwb tune` on an
// H200 at 4096³: 389 TFLOP/s against 319 for the earlier 128×256 eight-warp default, which
// fits only one block per SM and so leaves no second block to cover its barriers.
#include "sgemm_mma_multistage.cuh"
#include "descriptors.h"

namespace kwb::kernels {

namespace {
constexpr std::string_view kId = "sgemm.mma_multistage";

}  // namespace

LaunchInfo launchSgemmMmaMultistage(const GemmArgs& g) {
  return launchMmaMultistage<MmaDefaultConfig>(g, kId);
}

KernelDescriptor sgemmMmaMultistage() {
  KernelDescriptor d;
  d.id = std::string(kId);
  d.displayName = "mma.sync multistage";
  d.family = "sgemm";
  d.precision = Precision::kFp16Fp32Acc;
  d.alignment = 8;
  d.description =
      "mma.sync m16n8k16 FP16 in / FP32 accumulate, ldmatrix (.trans for B), 4-stage cp.async "
      "pipeline, XOR-swizzled shared memory, 128x128x32 block tile of 4 warps; shapes not a "
      "multiple of 8 run sgemm.warp_tiled";
  d.launch = &launchSgemmMmaMultistage;
  return d;
}

}  // namespace kwb::kernels
