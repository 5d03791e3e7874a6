// SPDX-License-Identifier: Apache-2.0
#include "run_options.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>

#include "kwb/cuda/shard_plan.h"
#include "kwb/error.h"
#include "kwb/preset.h"
#include "commands.h"
#include "kwb/timer.h"

namespace kwb::cli {

namespace {
std::string shortText(const std::string& text) {
  return text.size() > 40 ? text.substr(0, 40) + "..." : text;
}
}  // namespace

CLI::Validator finiteRange(double lo, double hi) {
  char desc[64];
  std::snprintf(desc, sizeof desc, "NUMBER in [%g, %g]", lo, hi);
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string {
        double v = 0;
        if (!CLI::detail::lexical_cast(text, v)) return "'" + text + "' is not a number";
        char buf[160];
        if (!std::isfinite(v) || v < lo || v > hi) {
          std::snprintf(buf, sizeof buf, "'%s' is not a finite number from %g to %g",
                        text.size() > 40 ? (text.substr(0, 40) + "...").c_str() : text.c_str(), lo,
                        hi);
          return buf;
        }
        return {};
      },
      desc);
}

const CLI::Validator kSeed(
    [](std::string& text) -> std::string {
      // CLI11 reads "-1" into an unsigned seed as 2^64 - 1, and 2^64 as something else again:
      // a seed is whole digits whose number fits 64 bits.
      std::uint64_t v = 0;
      const char* end = text.data() + text.size();
      const auto [ptr, ec] = std::from_chars(text.data(), end, v);
      if (text.empty() || ec != std::errc() || ptr != end)
        return "'" + shortText(text) + "' is not a seed (a whole number from 0 to 2^64 - 1)";
      return {};
    },
    "UINT64");

const CLI::Validator kDeviceIndex(
    [](std::string& text) -> std::string {
      // CLI::NonNegativeNumber's message prints DBL_MAX in full.
      int v = 0;
      const char* end = text.data() + text.size();
      const auto [ptr, ec] = std::from_chars(text.data(), end, v);
      if (text.empty() || ec != std::errc() || ptr != end || v < 0)
        return "'" + shortText(text) + "' is not a device index (a whole number from 0)";
      return {};
    },
    "INDEX");

const CLI::Validator kNotEmpty(
    [](std::string& text) -> std::string {
      return text.find_first_not_of(" \t") == std::string::npos ? "must not be empty" : "";
    },
    "TEXT");

void addSelectionOptions(CLI::App& sub, cuda::Selection& sel, const char* defaultSuite) {
  sub.add_option("--suite", sel.suite,
                 std::string("Preset name (resources/presets) or a preset .json file; default ") +
                     defaultSuite + " unless --shapes is given")
      ->check(kNotEmpty);
  sub.add_option("--kernels", sel.kernels,
                 "Comma-separated kernel ids, or all / stages / references (default: the suite's)")
      ->check(kNotEmpty);
  sub.add_option("--family", sel.family,
                 "Problem family: gemm, reduce, scan, ... (default: the suite's; docs/FAMILIES.md)")
      ->check(kNotEmpty);
  sub.add_option("--shapes", sel.shapes, "Comma-separated shapes: 512 (=512^3) or 256x384x640")
      ->check(kNotEmpty);
  sub.add_option("--sizes", sel.sizes,
                 "Families other than gemm: comma-separated sizes of the family's axes: element "
                 "counts N or 2^K (2^20,1000003,0), \"2^24 u8 256 bins\"")
      ->check(kNotEmpty);
  sub.add_option("--types", sel.types,
                 "Element types, as --axis type=...: f32 and/or i32 for reduce and scan (default "
                 "both)")
      ->check(kNotEmpty);
  sub.add_option("--axis", sel.axes,
                 "NAME=V1,V2: the values of an axis the --sizes leave out, crossed with them "
                 "(repeatable; --axis bins=256 --axis distribution=uniform,zipf)")
      ->allow_extra_args(false)
      ->check(kNotEmpty);
  sub.add_option("--seed", sel.seed, "Seed of the input generator (recorded in the results)")
      ->check(kSeed);
  sub.add_option("--device", sel.device, "CUDA device index")->check(kDeviceIndex);
}

CLI::Option* addTimerOption(CLI::App& sub, std::string& timer) {
  timer = std::string(toString(kDefaultTimer));
  return sub
      .add_option("--timer", timer,
                  "What clock times a sample: back-to-back (default; launches replayed from a CUDA "
                  "graph), isolated (launches queued behind a blocking kernel), cupti (CUPTI's "
                  "kernel durations) or host (host-inclusive, dispatch included)")
      ->check(CLI::IsMember({"isolated", "back-to-back", "cupti", "host"}));
}

CLI::Option* addEnergyOption(CLI::App& sub, double& seconds) {
  return sub
      .add_option("--energy", seconds,
                  "After its samples, run each case alone for at least SECONDS (default 1 when "
                  "bare) between two readings of the GPU's energy counter: joules per launch, "
                  "average power, GFLOP/J or GB/J (docs/MEASUREMENT.md, \"Energy per launch\")")
      ->expected(0, 1)
      ->default_str("1")
      ->check(finiteRange(0.1, 3600.0));
}

cuda::ResolvedSelection resolve(const cuda::Selection& sel, const char* defaultSuite) {
  return cuda::resolveSelection(sel, commandRegistry(), defaultSuite,
                                defaultPresetsDir(KWB_PRESETS_DIR));
}

cuda::RunConfig baseRunConfig(const std::string& suite, std::uint64_t seed, int device) {
  cuda::RunConfig cfg;
  cfg.suite = suite;
  cfg.seed = seed;
  cfg.device = device;
  cfg.toolVersion = KWB_VERSION;
  cfg.gitRevision = KWB_GIT_REVISION;
  return cfg;
}

void addShardOption(CLI::App& sub, std::string& shard) {
  sub.add_option("--shard", shard,
                 "Run only the I-th of N parts of the plan, balanced by estimated cost, a size's "
                 "cases together (1/4 .. 4/4); the document names its part for kwb merge "
                 "(docs/SCALE_OUT.md)");
}

std::optional<ShardInfo> applyShard(const std::string& shard, std::vector<cuda::PlanCase>& plan,
                                    const cuda::RunConfig& cfg, int poolGpus) {
  if (shard.empty() && poolGpus > 0)
    throw InputError("--pool-gpus " + std::to_string(poolGpus) +
                     ": a pool's part of its plan, given with --pool-serve or --shard");
  if (shard.empty()) return std::nullopt;
  cuda::ShardedPlan part = cuda::selectShard(plan, cfg, parseShard(shard), poolGpus);
  plan = std::move(part.cases);
  return std::move(part.info);
}

}  // namespace kwb::cli
