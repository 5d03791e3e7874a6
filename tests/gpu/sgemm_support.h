// SPDX-License-Identifier: Apache-2.0
#pragma once
// Shared by the test_sgemm suites: one verification session per process, registry filters
// (so a new kernel is covered the day it is registered) and the assertion of a good case.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "gpu_fixture.h"
#include "kwb/cuda/gemm_session.h"
#include "registry.h"

namespace kwb::test {

inline constexpr std::uint64_t kSeed = 0x5EED;

// Created on first use (after GpuTest found a device), destroyed before the CUDA runtime
// shuts down by a global test environment.
cuda::GemmSession& session();

// The GEMM family's kernels (the registry also holds the reduce and scan families).
inline bool isGemm(const KernelDescriptor& k) { return k.problem == "gemm"; }

// Ids of the registered kernels that satisfy `pred`, in registry order.
std::vector<std::string> kernelIds(bool (*pred)(const KernelDescriptor&));
// gtest parameter names may hold only letters, digits and '_'.
std::string paramName(const testing::TestParamInfo<std::string>& info);

// A case passed exactly as its descriptor promises: `pass` when the shape is a multiple of
// the kernel's alignment, `fallback` otherwise; nothing unwritten, no mismatch in either run,
// the negative control rejected, the seed and the kernel's tolerance recorded.
void expectVerified(const CaseResult& c, const KernelDescriptor& k, std::uint64_t seed);

// Fixture of the registry-parameterised suites.
class KernelTest : public GpuTest, public testing::WithParamInterface<std::string> {
 protected:
  const KernelDescriptor& kernel() const { return kernels::registry().find(GetParam()); }
};

}  // namespace kwb::test
