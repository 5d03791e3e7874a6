// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "kwb/cuda/runner.h"
#include "kwb/family.h"
#include "kwb/kernel_descriptor.h"
#include "kwb/shape.h"

namespace kwb::cli {

// What to run: --suite, --kernels, --family, --shapes or --sizes and --types, --seed,
// --device; shared by run and verify.
struct Selection {
  std::string suite;
  std::string kernels;
  std::string family;  // empty: the suite's, else gemm
  std::string shapes;
  std::string sizes;  // 1-D families: "2^20,1000003"
  std::string types;  // 1-D families: "f32,i32"
  std::uint64_t seed = 0x5EED;
  int device = 0;
};
void addSelectionOptions(CLI::App& sub, Selection& sel, const char* defaultSuite);

struct ResolvedSelection {
  std::string suiteName;                         // empty when only --shapes was given
  const Family* family = nullptr;                // never null once resolved
  std::vector<const KernelDescriptor*> kernels;  // of the family only
  std::vector<Shape> shapes;                     // GEMM
  std::vector<std::int64_t> counts;              // 1-D families
  std::vector<ElementType> types;                // 1-D families
  // The sizes in run order: every shape, or every count in every type.
  std::vector<CaseSize> sizes() const;
};
// Throws InputError naming the bad preset, family, kernel id, shape or size. A 1-D family with
// neither --suite nor --sizes runs the suite "<family>-benchmark".
ResolvedSelection resolve(const Selection& sel, const char* defaultSuite);
// The run order of the selection's cases (cuda::orderPlan / orderVectorPlan).
std::vector<cuda::PlanCase> orderedPlan(const ResolvedSelection& sel);

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

// A run's configuration as every command starts it: what it records of itself (the suite or
// label, seed, device, kwb's version and revision); measurement options are the defaults.
cuda::RunConfig baseRunConfig(const std::string& suite, std::uint64_t seed, int device);

// "3%" and "3" both mean three percent (returned as 0.03); anything else is an InputError naming
// the option and the value.
double parsePercent(const std::string& text, const char* option);

// Fails early (InputError naming the path) when an output file could not be written, so a
// long run never ends in losing its results.
void checkWritable(const std::string& path);

// Fails early when two of the named files are the same file, or an output is the input:
// `files` pairs an option ("--csv", or "input") with its path; empty paths and "-" are skipped.
void checkDistinct(const std::vector<std::pair<std::string, std::string>>& files);

// Writes each (path, producer) whose path is not empty, in order. When one fails, the
// InputError says which of the others were already written, so nothing is silently lost.
struct Output {
  std::string path;
  std::function<std::string()> text;
};
void writeOutputs(const std::vector<Output>& outputs);

}  // namespace kwb::cli
