#pragma once
#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "kwb/kernel_descriptor.h"
#include "kwb/shape.h"

namespace kwb::cli {

// What to run: --suite, --kernels, --shapes, --seed, --device; shared by run and verify.
struct Selection {
  std::string suite;
  std::string kernels;
  std::string shapes;
  std::uint64_t seed = 0x5EED;
  int device = 0;
};
void addSelectionOptions(CLI::App& sub, Selection& sel, const char* defaultSuite);

struct ResolvedSelection {
  std::string suiteName;  // empty when only --shapes was given
  std::vector<const KernelDescriptor*> kernels;
  std::vector<Shape> shapes;
};
// Throws InputError naming the bad preset, kernel id or shape.
ResolvedSelection resolve(const Selection& sel, const char* defaultSuite);

// --timer isolated|back-to-back|cupti|host, shared by run and tune (docs/MEASUREMENT.md).
void addTimerOption(CLI::App& sub, std::string& timer);
// A number option's check: finite and within [lo, hi] ("nan", "inf" and "1e999" are refused,
// which CLI::Range lets through). CLI11 reports the message with the option's name (exit 2).
CLI::Validator finiteRange(double lo, double hi);
// A text option's check: given, it must say something ("--shapes ''" is an error, not the
// default).
extern const CLI::Validator kNotEmpty;
// A seed: a whole number from 0 to 2^64 - 1 ("-1" is refused, not wrapped).
extern const CLI::Validator kSeed;

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
