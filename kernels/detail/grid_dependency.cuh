// SPDX-License-Identifier: Apache-2.0
#pragma once
// Programmatic dependent launch (Hopper and later): a kernel launched with
// cudaLaunchAttributeProgrammaticStreamSerialization may start while the stream's previous kernel
// ends. Its CTAs become resident and run their set-up early; each must wait (waitForPriorGrids)
// before it touches global memory that the previous kernels may write or read, because the wait
// is what orders it after them: it returns once those grids have completed and their writes are
// visible. launchDependents says that this grid's own dependents may start. Both are no-ops
// below sm_90 and in a kernel launched without the attribute.
#include <cuda_runtime_api.h>

#include <cstdlib>
#include <cstring>

#include "detail/multiprocessors.h"
#include "kwb/cuda/check.h"

namespace kwb::kernels::detail {

__device__ __forceinline__ void launchDependents() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
#endif
}

__device__ __forceinline__ void waitForPriorGrids() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;\n" ::: "memory");
#endif
}

// Whether the current device runs dependent launches (compute capability 9.0 or later).
inline bool dependentLaunchSupported() { return computeCapability() >= 90; }

// Makes `config` a dependent launch: `attr` becomes the programmatic-serialization attribute and
// the configuration's only one. `attr` must outlive `config`.
inline void makeDependent(cudaLaunchConfig_t& config, cudaLaunchAttribute& attr) {
  attr = cudaLaunchAttribute{};
  attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr.val.programmaticStreamSerializationAllowed = 1;
  config.attrs = &attr;
  config.numAttrs = 1;
}

// Whether a launcher launches as a dependent: where the device runs them, unless a measurement
// build's environment sets `offSwitch` (KWB_REDUCE_PDL, ...) to 0, to time both side by side.
inline bool dependentLaunchWanted([[maybe_unused]] const char* offSwitch) {
#ifdef KWB_PERF_EXPERIMENT
  if (const char* e = std::getenv(offSwitch); e && std::strcmp(e, "0") == 0) return false;
#endif
  return dependentLaunchSupported();
}

// A launch of `blocks` blocks of `threads` on `stream`: a dependent launch where `dependent` and
// dependentLaunchWanted(offSwitch). `attr` must outlive the configuration.
inline cudaLaunchConfig_t launchConfig(unsigned blocks, unsigned threads, cudaStream_t stream,
                                       cudaLaunchAttribute& attr, const char* offSwitch,
                                       bool dependent = true) {
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(threads);
  config.stream = stream;
  if (dependent && dependentLaunchWanted(offSwitch)) makeDependent(config, attr);
  return config;
}

}  // namespace kwb::kernels::detail
