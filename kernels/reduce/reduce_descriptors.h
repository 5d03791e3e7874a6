// SPDX-License-Identifier: Apache-2.0
#pragma once
// The reduce family (sum of float or int32), one file per stage named after its id, in teaching
// order, then the CUB reference. registry.cpp lists them after the GEMM kernels.
#include "kwb/kernel_descriptor.h"

namespace kwb::kernels {

KernelDescriptor reduceAtomic();       // reduce_atomic.cu
KernelDescriptor reduceSharedTree();   // reduce_shared_tree.cu
KernelDescriptor reduceWarpShuffle();  // reduce_warp_shuffle.cu
KernelDescriptor reduceVectorized();   // reduce_vectorized.cu
KernelDescriptor reduceCubBlock();     // reduce_cub_block.cu
KernelDescriptor cubReduceSumRef();    // cub_reduce_sum.cu

}  // namespace kwb::kernels
