// SPDX-License-Identifier: Apache-2.0
#pragma once
// The radix sort family (u32 / f32 keys, optionally with u32 values), one file per stage named
// after its id, in teaching order, then the CUB reference. registry.cpp lists them after scan.
#include "kwb/kernel_descriptor.h"

namespace kwb::kernels::sort {

KernelDescriptor sortBlockMerge();      // sort_block_merge.cu
KernelDescriptor sortReduceThenScan();  // sort_reduce_then_scan.cu
KernelDescriptor sortOnesweep();        // sort_onesweep.cu
KernelDescriptor cubRadixSortRef();     // cub_radix_sort.cu

}  // namespace kwb::kernels::sort
