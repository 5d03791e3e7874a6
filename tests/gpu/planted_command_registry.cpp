// SPDX-License-Identifier: Apache-2.0
// kwb_planted: the kwb commands (the kwb_cli objects) with the registry plus the planted
// out-of-bounds read, so `kwb_planted verify --kernels test.planted_oob_read` runs it. Test
// builds only; kwb itself links cli/command_registry.cpp, the registry alone.
#include <vector>

#include "commands.h"
#include "planted_read.h"
#include "registry.h"

namespace kwb::cli {

const KernelRegistry& commandRegistry() {
  static const KernelRegistry r = [] {
    const auto registered = kernels::registry().all();
    std::vector<KernelDescriptor> all(registered.begin(), registered.end());
    all.push_back(test::plantedReadDescriptor());
    return KernelRegistry(std::move(all));
  }();
  return r;
}

// This build's configurations, none added.
std::vector<kernels::TuneVariant> commandTuneVariants(std::string_view kernelId) {
  return kernels::tuneVariants(kernelId);
}

std::vector<std::string> commandTunableKernels() { return kernels::tunableKernels(); }

}  // namespace kwb::cli
