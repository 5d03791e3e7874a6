// SPDX-License-Identifier: Apache-2.0
#pragma once
// Checks that keep a user kernel honest beyond the shared verification pipeline
// (docs/BRING_YOUR_OWN.md "What is checked").
#include <cstdint>
#include <string>

#include "kwb/cuda/gemm_session.h"

namespace kwb::cuda {

// Launches `k` once with C placed between two guard regions filled with the canary byte 0xAA
// and reports the first guard element written ("" when none was): out-of-bounds writes past
// either end of C. Throws CudaError (ContextLost-worthy when sticky) on a fault, its text
// userFault's.
std::string guardViolation(const KernelDescriptor& k, const PreparedCase& p, CUstream_st* stream);

// A user kernel's CUDA error as its author reads it, named in one place for userFault and the
// case loop (case_start.cpp): "FILE (entry E)" (the id of a kernel that is not a user's), then
// `what`, then where `brokeRule` the rule it broke.
std::string nameUserFault(const KernelDescriptor& k, const std::string& what, bool brokeRule);

// The text of a user kernel's fault that lost the context: its file, entry and shape, the CUDA
// error and the rule it broke; no engine source location.
std::string userFault(const KernelDescriptor& k, const Shape& s, int code);

// The rule a user kernel that faults has broken, as its error states it.
inline constexpr const char* kUserFaultRule =
    "the rule: a kernel reads and writes only inside A, B and C at every shape (guard the loads "
    "and stores of a tile that overhangs the matrix)";

// The seed of the second verification, after timing: different inputs from the first seed.
std::uint64_t freshSeed(std::uint64_t seed);

}  // namespace kwb::cuda
