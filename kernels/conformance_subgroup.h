// SPDX-License-Identifier: Apache-2.0
#pragma once
// conformance.subgroup: the sub-group (warp tile) probe of the SYCL sub-group test plan,
// mapped to cooperative_groups::thread_block_tile (docs/CONFORMANCE.md).
#include <vector>

#include "kwb/conformance.h"

namespace kwb::kernels {

inline constexpr const char* kSubgroupProbeId = "conformance.subgroup";

// Launches the probe with tiled_partition<tileSize>(this_thread_block()) on the current
// device, waits for it, and returns one record per thread (launch.items() entries, indexed
// blockLinearId * threadsPerBlock + threadLinearId; an entry no thread wrote holds
// kUnwritten). tileSize is 32, 16, 8, 4, 2 or 1, else InputError; CUDA errors throw CudaError.
std::vector<SubgroupRecord> runSubgroupProbe(const SubgroupLaunch& launch, int tileSize);

}  // namespace kwb::kernels
