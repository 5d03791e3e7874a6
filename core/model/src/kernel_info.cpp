// SPDX-License-Identifier: Apache-2.0
#include "kwb/kernel_info.h"

#include "kwb/kernel_descriptor.h"

namespace kwb {

KernelInfo kernelInfo(const KernelDescriptor& d) {
  return {d.id,        d.displayName, d.family,  d.stage,   std::string(toString(d.precision)),
          d.reference, d.description, d.tunable, d.problem, d.progressionNotes};
}

}  // namespace kwb
