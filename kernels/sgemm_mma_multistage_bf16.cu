// SPDX-License-Identifier: Apache-2.0
// sgemm.mma_multistage_bf16 — the mma.sync stage with BF16 inputs: the kernel of
// sgemm_mma_multistage.cuh in its default configuration, instantiated for __nv_bfloat16
// (mma.sync.m16n8k16 .bf16, FP32 accumulate and out). BF16 keeps FP32's exponent range with 8
// significant bits, the format most published tensor-core kernels are measured in; this stage
// is held to cublas.bgemm_f32acc as its FP16 twin is to cublas.hgemm_f32acc.
#include "sgemm_mma_multistage.cuh"
#include "descriptors.h"

namespace kwb::kernels {

namespace {
constexpr std::string_view kId = "sgemm.mma_multistage_bf16";
}  // namespace

LaunchInfo launchSgemmMmaMultistageBf16(const GemmArgs& g) {
  return launchMmaMultistage<MmaDefaultConfig, __nv_bfloat16>(g, kId);
}

KernelDescriptor sgemmMmaMultistageBf16() {
  KernelDescriptor d;
  d.id = std::string(kId);
  d.displayName = "mma.sync multistage (BF16)";
  d.family = "sgemm";
  d.precision = Precision::kBf16Fp32Acc;
  d.alignment = 8;
  d.description =
      "sgemm.mma_multistage with BF16 inputs: mma.sync m16n8k16 BF16 in / FP32 accumulate, "
      "ldmatrix (.trans for B), 4-stage cp.async pipeline, XOR-swizzled shared memory, "
      "128x128x32 block tile of 4 warps; shapes not a multiple of 8 run sgemm.warp_tiled on the "
      "BF16-rounded inputs";
  d.launch = &launchSgemmMmaMultistageBf16;
  // Its predecessor in the progression is the last FP32 stage, sgemm.warp_tiled (the first BF16
  // stage is not held to its FP16 twins), which splits K over idle SMs on small shapes.
  d.progressionNotes = {
      {.why = "below 2x10^8 FLOPs: its 128x128 tiles give 256x384x640 six blocks for 132 SMs and "
              "it does not split K, where warp_tiled (its predecessor, the last FP32 stage) "
              "splits K over the idle SMs; measured on an H200 at 256x384x640: 10.4 against 14.1 "
              "TFLOP/s, as its FP16 twin (10.4). At 512^3 it is ahead (27.1 against 21.1)",
       .maxFlops = 2.0e8}};
  return d;
}

}  // namespace kwb::kernels
