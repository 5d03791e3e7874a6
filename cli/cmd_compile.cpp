// SPDX-License-Identifier: Apache-2.0
// kwb compile --source f.cu: compile and check a user kernel without a GPU (NVRTC needs none).
#include <iostream>

#include "commands.h"
#include "kwb/error.h"
#include "kwb/output_files.h"
#include "user_source.h"

namespace kwb::cli {

void addCompileCommand(CLI::App& app, int& exitCode) {
  auto* sub = app.add_subcommand(
      "compile", "Compile a user kernel (.cu) with NVRTC and check its contract; no GPU needed");
  auto o = std::make_shared<SourceOpts>();
  addSourceOptions(*sub, *o, true);
  sub->add_option("--arch", o->arch, "Target architecture (default sm_90a)");
  auto ptxOut = std::make_shared<std::string>();
  sub->add_option("--ptx", *ptxOut, "Write the PTX here");
  sub->callback([o, ptxOut, &exitCode] {
    checkOutputs({{"--source", o->source}}, {{"--ptx", *ptxOut}});  // before compiling
    const auto k = compileSource(*o, o->arch.empty() ? "sm_90a" : o->arch);
    if (!ptxOut->empty()) writeOutputs({{*ptxOut, [&] { return k.ptx; }, "--ptx"}});
    std::cout << o->source << ": ok: entry " << *k.spec.entry << ", " << k.arch << ", block "
              << k.spec.block->x << "x" << k.spec.block->y
              << (k.spec.grid ? ", grid " + k.spec.grid->text
                              : ", tile " + std::to_string(k.spec.tile->x) + "x" +
                                    std::to_string(k.spec.tile->y))
              << ", smem " << *k.spec.smemBytes << ", " << toString(*k.spec.precision)
              << ", source " << k.hash << "\n";
    exitCode = kExitOk;
  });
}

}  // namespace kwb::cli
