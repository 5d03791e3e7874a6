// SPDX-License-Identifier: Apache-2.0
#pragma once
// The 16-bit input types of the tensor-core stages (E = __half or __nv_bfloat16): which copies
// of A and B a launch reads, its TMA data type, the type's name for messages, and the kernels
// that run E. The FP16
// and BF16 stages share their kernel templates (sgemm_mma_multistage.cuh, sgemm_wgmma.cu);
// only these differ.
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <string_view>

#include "kwb/kernel_descriptor.h"
#include "descriptors.h"
#include "sgemm_wgmma_choice.h"

namespace kwb::kernels {

template <class E>
struct Element16;

template <>
struct Element16<__half> {
  static constexpr std::string_view kName = "FP16";
  static constexpr std::string_view kWgmmaId = kernels::kWgmmaId;
  static constexpr CUtensorMapDataType kTmaType = CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  static const void* a(const GemmArgs& g) { return g.aHalf; }
  static const void* b(const GemmArgs& g) { return g.bHalf; }
  // What sgemm.wgmma runs off Hopper, where its sm_90a code does not exist.
  static LaunchInfo launchMmaMultistage(const GemmArgs& g) { return launchSgemmMmaMultistage(g); }
};

template <>
struct Element16<__nv_bfloat16> {
  static constexpr std::string_view kName = "BF16";
  static constexpr std::string_view kWgmmaId = kWgmmaBf16Id;
  static constexpr CUtensorMapDataType kTmaType = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  static const void* a(const GemmArgs& g) { return g.aBf16; }
  static const void* b(const GemmArgs& g) { return g.bBf16; }
  static LaunchInfo launchMmaMultistage(const GemmArgs& g) {
    return launchSgemmMmaMultistageBf16(g);
  }
};

}  // namespace kwb::kernels
