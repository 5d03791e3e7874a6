// SPDX-License-Identifier: Apache-2.0
#pragma once
// Test-only kernels around a programmatic dependent launch: one that lets the stream's next
// kernel start at once and writes late, and a dependent copy that does or does not wait for it.
#include <cstddef>

struct CUstream_st;

namespace kwb::test {

// One block on `stream`: lets its dependents launch at once (griddepcontrol.launch_dependents),
// spins for `spinCycles` SM clocks, then copies `bytes` (even) from src to dst.
void launchLateCopy(void* dst, const void* src, std::size_t bytes, long long spinCycles,
                    CUstream_st* stream);

// A copy of `bytes` (even) from src to dst launched as a programmatic dependent of the stream's
// previous kernel, which first waits for that kernel (griddepcontrol.wait) or, with `wait`
// false, does not: the fault a dependent launch must not have.
void launchDependentCopy(void* dst, const void* src, std::size_t bytes, bool wait,
                         CUstream_st* stream);

// Loads both kernels now. With lazy loading (CUDA's default) a kernel's first launch loads its
// module, and that load may wait for the device to go idle: a dependent launched for the first
// time would then start only after the kernel before it ended, and no early read could be seen.
void loadDependentLaunchKernels();

}  // namespace kwb::test
