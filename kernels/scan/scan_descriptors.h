// SPDX-License-Identifier: Apache-2.0
#pragma once
// The scan family (inclusive prefix sum of float or int32), one file per stage named after its
// id, in teaching order, then the CUB reference. registry.cpp lists them after reduce.
#include "kwb/kernel_descriptor.h"

namespace kwb::kernels {

KernelDescriptor scanHillisSteele();       // scan_hillis_steele.cu
KernelDescriptor scanBlelloch();           // scan_blelloch.cu
KernelDescriptor scanReduceThenScan();     // scan_reduce_then_scan.cu
KernelDescriptor scanDecoupledLookback();  // scan_decoupled_lookback.cu
KernelDescriptor cubInclusiveSumRef();     // cub_inclusive_sum.cu

}  // namespace kwb::kernels
