// SPDX-License-Identifier: Apache-2.0
#pragma once
// --source and its launch options, shared by kwb run and kwb compile (docs/BRING_YOUR_OWN.md).
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "kwb/cuda/user_kernel.h"
#include "kwb/kernel_descriptor.h"

namespace kwb::cli {

struct SourceOpts {
  std::string source;
  std::string entry, block, grid, tile, precision;
  int smem = -1;
  std::vector<std::string> defines;
  std::string arch;  // kwb compile only: run takes the device's
  std::string compiler = "nvrtc";
  // The bounds of a user's source and its compile (docs/RELIABILITY.md, "Bounded user sources").
  cuda::SourceLimits limits;
  double compileTimeoutS = 120;
  std::size_t compileMemoryMib = 8192;
};
// `required`: kwb compile needs --source; kwb run takes it optionally.
void addSourceOptions(CLI::App& sub, SourceOpts& o, bool required);
// The options as a spec that overrides the file's `// kwb:` header. Throws InputError.
UserLaunchSpec optionSpec(const SourceOpts& o);
// Compiles o.source for `arch` (printing NVRTC's warnings and cache use to stderr), in a child
// process within o's time and memory (isolatedNvrtc).
cuda::CompiledUserKernel compileSource(const SourceOpts& o, const std::string& arch);
// NVRTC in a child kwb (cmd_nvrtc_child.cpp) within o.compileTimeoutS and o.compileMemoryMib.
cuda::NvrtcRunner isolatedNvrtc(const SourceOpts& o);

}  // namespace kwb::cli
