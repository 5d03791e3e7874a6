// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <CLI/CLI.hpp>

#include <string_view>
#include <vector>

#include "kwb/kernel_descriptor.h"
#include "tuning_variants.h"

namespace kwb::cli {

// The kernels every command selects from (list, run, verify, tune). kwb defines it as
// kernels::registry() in command_registry.cpp; only a test binary links another definition.
const KernelRegistry& commandRegistry();
// The configurations `kwb tune` sweeps of one of those kernels, and the ids that have some:
// kernels::tuneVariants and kernels::tunableKernels in kwb, defined beside commandRegistry.
std::vector<kernels::TuneVariant> commandTuneVariants(std::string_view kernelId);
std::vector<std::string> commandTunableKernels();

// Each subcommand lives in its own cmd_*.cpp and registers itself on the app; its callback
// stores the exit code in `exitCode`. Errors are thrown (InputError → 2, NoDeviceError → 3)
// and mapped in main.cpp.
void addListCommand(CLI::App& app, int& exitCode);
void addDeviceCommand(CLI::App& app, int& exitCode);
void addVerifyCommand(CLI::App& app, int& exitCode);
void addConformanceCommand(CLI::App& app, int& exitCode);
void addRunCommand(CLI::App& app, int& exitCode);
void addReplayCommand(CLI::App& app, int& exitCode);
void addExportCommand(CLI::App& app, int& exitCode);
void addTuneCommand(CLI::App& app, int& exitCode);
void addCompareCommand(CLI::App& app, int& exitCode);
void addAbCommand(CLI::App& app, int& exitCode);
void addProfileCommand(CLI::App& app, int& exitCode);
void addCompileCommand(CLI::App& app, int& exitCode);
void addMergeCommand(CLI::App& app, int& exitCode);
// kwb slurm submit|status|resume (cmd_slurm.cpp, slurm_calls.cpp, slurm_status.cpp).
void addSlurmCommand(CLI::App& app, int& exitCode);
// kwb shard-failure (hidden): a shard failure record for kwb merge (cmd_shard_failure.cpp).
void addShardFailureCommand(CLI::App& app, int& exitCode);
// kwb nvrtc-child (hidden): one NVRTC compile for a parent kwb (cmd_nvrtc_child.cpp).
void addNvrtcChildCommand(CLI::App& app, int& exitCode);

}  // namespace kwb::cli
