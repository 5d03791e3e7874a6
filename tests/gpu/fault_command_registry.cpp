// SPDX-License-Identifier: Apache-2.0
// kwb_fault: the kwb commands (the kwb_cli objects) with two test-only kernels that lose the CUDA
// context (fault_engine_kernel.h), so the GPU tests can plant a fault in the middle of `kwb
// verify`'s plan and of a `kwb tune` sweep (fresh_engine_gpu_test.cpp):
//   test.fault_odd_m   faults when M is odd, right otherwise;
//   test.fault_tune    right, tunable: configurations ok_a, faults (at every shape), ok_b.
// Test builds only; kwb itself links cli/command_registry.cpp, the registry alone.
#include <string_view>
#include <vector>

#include "commands.h"
#include "fault_engine_kernel.h"
#include "kwb/cuda/check.h"
#include "registry.h"

namespace kwb::cli {
namespace {

constexpr std::string_view kOddM = "test.fault_odd_m";
constexpr std::string_view kTune = "test.fault_tune";

LaunchInfo launch(const GemmArgs& g, bool fault, std::string_view ran) {
  KWB_CUDA_CHECK(test::launchFaultingSgemm(int(g.shape.m), int(g.shape.n), int(g.shape.k), g.alpha,
                                           g.a, g.b, g.beta, g.c, fault, g.stream));
  return {false, ran};
}
LaunchInfo faultAtOddM(const GemmArgs& g) { return launch(g, (g.shape.m & 1) != 0, kOddM); }
LaunchInfo neverFault(const GemmArgs& g) { return launch(g, false, kTune); }
LaunchInfo alwaysFault(const GemmArgs& g) { return launch(g, true, kTune); }

KernelDescriptor testKernel(std::string_view id, int stage, LaunchFn fn) {
  KernelDescriptor d;
  d.id = id;
  d.displayName = std::string(id) + " (test only)";
  d.family = "test";
  d.stage = stage;
  d.description = "Loses the CUDA context on purpose. Test builds only.";
  d.launch = fn;
  return d;
}

}  // namespace

const KernelRegistry& commandRegistry() {
  static const KernelRegistry r = [] {
    const auto registered = kernels::registry().all();
    std::vector<KernelDescriptor> all(registered.begin(), registered.end());
    all.push_back(testKernel(kOddM, 1, &faultAtOddM));
    all.push_back(testKernel(kTune, 2, &neverFault));
    all.back().tunable = true;
    return KernelRegistry(std::move(all));
  }();
  return r;
}

std::vector<kernels::TuneVariant> commandTuneVariants(std::string_view kernelId) {
  if (kernelId != kTune) return kernels::tuneVariants(kernelId);
  return {{{"ok_a", {}}, &neverFault}, {{"faults", {}}, &alwaysFault}, {{"ok_b", {}}, &neverFault}};
}

std::vector<std::string> commandTunableKernels() {
  std::vector<std::string> ids = kernels::tunableKernels();
  ids.emplace_back(kTune);
  return ids;
}

}  // namespace kwb::cli
