#pragma once
#include <CLI/CLI.hpp>
#include <string>
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

// Fails early (InputError naming the path) when an output file could not be written, so a
// long run never ends in losing its results.
void checkWritable(const std::string& path);

}  // namespace kwb::cli
