// SPDX-License-Identifier: Apache-2.0
// The kernels kwb's commands offer: the registry of kwb_kernels and its tuning configurations,
// nothing added. Its own file so
// that a test-only binary can link the commands with another list (tests/gpu/CMakeLists.txt).
#include "commands.h"
#include "registry.h"

namespace kwb::cli {

const KernelRegistry& commandRegistry() { return kernels::registry(); }

std::vector<kernels::TuneVariant> commandTuneVariants(std::string_view kernelId) {
  return kernels::tuneVariants(kernelId);
}

std::vector<std::string> commandTunableKernels() { return kernels::tunableKernels(); }

}  // namespace kwb::cli
