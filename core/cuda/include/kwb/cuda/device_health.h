// SPDX-License-Identifier: Apache-2.0
#pragma once
// After a case ends with a CUDA error, the device is checked before the next case
// (docs/RELIABILITY.md, "A crashing kernel costs one case"): a small known-answer launch (the
// seeded generator's fill, compared bit for bit with the host's values) and a device-wide
// synchronise, so the next case never inherits a broken context or a pending error.
#include <string>

struct CUstream_st;

namespace kwb::cuda {

// "" when the device answered right; else what failed, in a sentence. A failure that loses the
// context throws CudaError (sticky) instead. KWB_FAKE_UNHEALTHY_DEVICE=1 (tests) makes the
// known answer wrong.
std::string deviceHealthProblem(CUstream_st* stream);

}  // namespace kwb::cuda
