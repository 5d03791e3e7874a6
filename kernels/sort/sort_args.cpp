// SPDX-License-Identifier: Apache-2.0
#include "sort/sort_args.h"

#include <utility>

#include "kwb/error.h"

namespace kwb::kernels::sort {

std::string_view toString(KeyType t) { return t == KeyType::kF32 ? "f32" : "u32"; }

KeyType parseKeyType(std::string_view text) {
  if (text == "u32") return KeyType::kU32;
  if (text == "f32") return KeyType::kF32;
  throw InputError("unknown sort key type '" + std::string(text) + "' (expected u32 or f32)");
}

KernelDescriptor sortDescriptor(std::string id, std::string name, bool reference,
                                std::string description, SortLaunchFn launch,
                                SortScratchFn scratch) {
  KernelDescriptor d;
  d.id = std::move(id);
  d.displayName = std::move(name);
  d.family = reference ? "cub" : "sort";
  d.problem = "sort";
  d.reference = reference;
  d.description = std::move(description);
  d.launcher = SortLauncher{launch, scratch};
  return d;
}

}  // namespace kwb::kernels::sort
