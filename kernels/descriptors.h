// SPDX-License-Identifier: Apache-2.0
#pragma once
// The descriptor factories of every kernel kwb registers, one per file named after its id
// (sgemm.warp_tiled lives in sgemm_warp_tiled.cu), and the launchers one stage borrows from
// another as its fallback. registry.cpp lists the factories in stage order: a factory leaves
// `stage` and `tunable` unset, the list sets them.
#include "kwb/kernel_descriptor.h"

namespace kwb::kernels {

// The SGEMM progression, in stage order.
KernelDescriptor sgemmNaive();            // sgemm_naive.cu
KernelDescriptor sgemmTiled();            // sgemm_tiled.cu
KernelDescriptor sgemmBankFree();         // sgemm_bank_free.cu
KernelDescriptor sgemmDoubleBuffer();     // sgemm_double_buffer.cu
KernelDescriptor sgemmTensorCore();       // sgemm_tensor_core.cu
KernelDescriptor sgemmRegisterBlocked();  // sgemm_register_blocked.cu
KernelDescriptor sgemmWarpTiled();        // sgemm_warp_tiled.cu
KernelDescriptor sgemmMmaMultistage();    // sgemm_mma_multistage.cu
KernelDescriptor sgemmWgmma();            // sgemm_wgmma.cu, sm_90a builds only (KWB_HAVE_WGMMA)
// The tensor-core stages again with BF16 inputs (the same kernel templates).
KernelDescriptor sgemmMmaMultistageBf16();  // sgemm_mma_multistage_bf16.cu
KernelDescriptor sgemmWgmmaBf16();          // sgemm_wgmma_bf16.cpp, sm_90a builds only

// The cuBLAS references (cublas_refs.cpp).
KernelDescriptor cublasSgemmRef();
KernelDescriptor cublasHgemmF32AccRef();
KernelDescriptor cublasBgemmF32AccRef();
KernelDescriptor cublasTf32Ref();

// The tensor-core stage's FP32 fallback for shapes that are not multiples of 16.
LaunchInfo launchSgemmDoubleBuffer(const GemmArgs& args);

// The FP32 stage the mma.sync stage (and its tuning configurations) fall back to when K or N
// is not a multiple of 8: the warp-tiled kernel in its default configuration.
LaunchInfo launchSgemmWarpTiled(const GemmArgs& args);

// The mma.sync stage in its default configuration: what sgemm.wgmma runs on a device that is
// not sm_90 (its own code exists for sm_90a only).
LaunchInfo launchSgemmMmaMultistage(const GemmArgs& args);
// Its BF16 twin, what sgemm.wgmma_bf16 runs off Hopper.
LaunchInfo launchSgemmMmaMultistageBf16(const GemmArgs& args);

// sgemm.wgmma's launcher for BF16 inputs (sgemm_wgmma.cu, sm_90a builds only).
LaunchInfo launchSgemmWgmmaBf16(const GemmArgs& args);

}  // namespace kwb::kernels
