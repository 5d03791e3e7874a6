// SPDX-License-Identifier: Apache-2.0
// kwb_copy: the kwb commands (the kwb_cli objects) with the copy family registered beside this
// build's families: the "registry lines" a family needs. Test builds only.
#include <vector>

#include "commands.h"
#include "copy/copy_family.h"
#include "registry.h"

namespace kwb::cli {

const KernelRegistry& commandRegistry() {
  static const KernelRegistry r = [] {
    kernels::registerFamilies();
    cuda::registerVectorFamily(test::copyFamily());
    const auto registered = kernels::registry().all();
    std::vector<KernelDescriptor> all(registered.begin(), registered.end());
    for (KernelDescriptor& k : kernels::inListOrder(test::copyKernels())) all.push_back(k);
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
