// SPDX-License-Identifier: Apache-2.0
#pragma once
// The histogram family (u8 and f32 samples into even bins), one file per stage named after its
// id, in teaching order, then the CUB reference. registry.cpp lists them after scan.
#include "histogram/histogram_args.h"
#include "kwb/kernel_descriptor.h"

namespace kwb::kernels {

KernelDescriptor histogramGlobalAtomics();  // histogram_global_atomics.cu
KernelDescriptor histogramSharedAtomics();  // histogram_shared_atomics.cu
KernelDescriptor histogramWarpPrivate();    // histogram_warp_private.cu
KernelDescriptor histogramByteCounters();   // histogram_byte_counters.cu
KernelDescriptor cubHistogramEvenRef();     // cub_histogram_even.cu

// Stage 3's launcher, which stage 4 runs where its counters do not fit (above 256 bins).
LaunchInfo launchWarpPrivate(const HistogramArgs& a);

}  // namespace kwb::kernels
