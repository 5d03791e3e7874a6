#pragma once
// Descriptor factories of the stages past the spec (register blocking, warp tiling, mma.sync),
// gathered by the one registration list in registry.cpp.
#include "kwb/kernel_descriptor.h"

namespace kwb::kernels {

KernelDescriptor sgemmRegisterBlocked();  // sgemm_register_blocked.cu
KernelDescriptor sgemmWarpTiled();        // sgemm_warp_tiled.cu
KernelDescriptor sgemmMmaMultistage();    // hgemm_mma_multistage.cu
KernelDescriptor sgemmWgmma();            // hgemm_wgmma.cu, sm_90a builds only (KWB_HAVE_WGMMA)

// The FP32 stage the mma.sync stage (and its tuning configurations) fall back to when K or N
// is not a multiple of 8: the warp-tiled kernel in its default configuration.
LaunchInfo launchSgemmWarpTiled(const GemmArgs& args);

// The mma.sync stage in its default configuration: what sgemm.wgmma runs on a device that is
// not sm_90 (its own code exists for sm_90a only).
LaunchInfo launchSgemmMmaMultistage(const GemmArgs& args);

}  // namespace kwb::kernels
