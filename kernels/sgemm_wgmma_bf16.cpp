// SPDX-License-Identifier: Apache-2.0
// sgemm.wgmma_bf16 — the Hopper wgmma stage with BF16 inputs: sgemm_wgmma.cu's kernel and
// launcher instantiated for __nv_bfloat16 (the .bf16 form of each wgmma.m64nNk16, TMA tensor
// maps of BFLOAT16); tiles, clusters, epilogue and the re-lay of ragged K or N are the FP16
// stage's. Built only for sm_90a, like sgemm.wgmma. Held to cublas.bgemm_f32acc.
#include "descriptors.h"
#include "sgemm_wgmma_choice.h"

namespace kwb::kernels {

KernelDescriptor sgemmWgmmaBf16() {
  KernelDescriptor d;
  d.id = std::string(kWgmmaBf16Id);
  d.displayName = "wgmma + TMA (Hopper, BF16)";
  d.family = "sgemm";
  d.precision = Precision::kBf16Fp32Acc;
  d.alignment = 1;  // every shape runs on the tensor cores (a ragged K or N re-lays A or B)
  d.description =
      "sgemm.wgmma with BF16 inputs: Hopper wgmma.m64n256k16 BF16 in / FP32 accumulate, TMA "
      "(BFLOAT16 tensor maps) + mbarrier 4-stage ring, the same tiles, clusters and epilogue; "
      "needs sm_90a (others run sgemm.mma_multistage_bf16, or sgemm.warp_tiled off multiples "
      "of 8)";
  d.launch = &launchSgemmWgmmaBf16;
  return d;
}

}  // namespace kwb::kernels
