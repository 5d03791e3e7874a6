// SPDX-License-Identifier: Apache-2.0
// The kernels kwb's commands offer: the registry of kwb_kernels, nothing added. Its own file so
// that a test-only binary can link the commands with another list (tests/gpu/CMakeLists.txt).
#include "commands.h"
#include "registry.h"

namespace kwb::cli {

const KernelRegistry& commandRegistry() { return kernels::registry(); }

}  // namespace kwb::cli
