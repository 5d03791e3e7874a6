// SPDX-License-Identifier: Apache-2.0
#pragma once
// sgemm.wgmma's split-K across a thread-block cluster (sgemm_wgmma_cluster_split.cu): the launch
// sgemm_wgmma.cu makes for a plan with clusterSplit set. Built only for sm_90a.
#include "detail/half_restride.h"
#include "kwb/kernel_descriptor.h"

namespace kwb::kernels {

// C = alpha·A·B + beta·C on 128 × tileN tiles (64, 128 or 256), each computed by a cluster of
// `splits` CTAs (2 to 8, at most K's 64-wide k blocks: wgmmaEffectiveClusterSplits) that sum
// their partial tiles through distributed shared memory. E is __half or __nv_bfloat16 (the two
// instances the .cu defines). Throws InputError for a grid of more than 2^31 - 1 CTAs.
template <class E>
void launchWgmmaClusterSplit(const GemmArgs& g, const detail::HalfOperands& ops, int tileN,
                             int splits);

}  // namespace kwb::kernels
