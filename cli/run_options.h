// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kwb/cuda/runner.h"
#include "kwb/cuda/selection.h"
#include "kwb/shard.h"

namespace kwb::cli {

// What to run (--suite, --kernels, --family, --shapes or --sizes and --types, --seed,
// --device), shared by run, verify and ab; cuda::resolveSelection resolves it.
void addSelectionOptions(CLI::App& sub, cuda::Selection& sel, const char* defaultSuite);
// cuda::resolveSelection over the command registry and the bundled presets.
cuda::ResolvedSelection resolve(const cuda::Selection& sel, const char* defaultSuite);

// --timer isolated|back-to-back|cupti|host, shared by run and tune (docs/MEASUREMENT.md).
CLI::Option* addTimerOption(CLI::App& sub, std::string& timer);
// A number option's check: finite and within [lo, hi] ("nan", "inf" and "1e999" are refused,
// which CLI::Range lets through). CLI11 reports the message with the option's name (exit 2).
CLI::Validator finiteRange(double lo, double hi);
// A text option's check: given, it must say something ("--shapes ''" is an error, not the
// default).
extern const CLI::Validator kNotEmpty;
// A seed: a whole number from 0 to 2^64 - 1 ("-1" is refused, not wrapped).
extern const CLI::Validator kSeed;
// A CUDA device index: a whole number from 0, refused in a plain message.
extern const CLI::Validator kDeviceIndex;

// --energy [SECONDS] (run, ab; docs/MEASUREMENT.md, "Energy per launch"): each timed case
// alone for at least SECONDS between two readings of the energy counter; 1 s when bare.
CLI::Option* addEnergyOption(CLI::App& sub, double& seconds);

// --shard I/N (run, verify, tune; docs/SCALE_OUT.md): the I-th of N parts of the plan.
void addShardOption(CLI::App& sub, std::string& shard);
// Cuts `plan` to its part when `shard` was given (InputError naming a bad value, exit 2) and
// returns what the part's document records; nothing, leaving the plan whole, when not given.
// poolGpus > 0: a pool worker's part of the cut for that many GPUs (shard_plan.h).
std::optional<ShardInfo> applyShard(const std::string& shard, std::vector<cuda::PlanCase>& plan,
                                    const cuda::RunConfig& cfg, int poolGpus = 0);

// A run's configuration as every command starts it: what it records of itself (the suite or
// label, seed, device, kwb's version and revision); measurement options are the defaults.
cuda::RunConfig baseRunConfig(const std::string& suite, std::uint64_t seed, int device);

}  // namespace kwb::cli
