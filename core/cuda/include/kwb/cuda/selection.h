// SPDX-License-Identifier: Apache-2.0
#pragma once
// What to run: a suite or preset, a family, kernels and sizes, resolved into the kernels and
// sizes of one family and then into the ordered plan. kwb run, verify and ab resolve their
// options through it; the kernels to choose from and the presets' folder are given, so core
// knows neither the kernel list nor where kwb was built.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "kwb/case_size.h"
#include "kwb/cuda/runner.h"
#include "kwb/family.h"
#include "kwb/kernel_descriptor.h"
#include "kwb/shape.h"

namespace kwb::cuda {

// The options as given (--suite, --kernels, --family, --shapes or --sizes, --types and --axis,
// --seed, --device); an empty text was not given.
struct Selection {
  std::string suite;
  std::string kernels;
  std::string family;  // empty: the suite's, else gemm
  std::string shapes;
  std::string sizes;  // any family but GEMM: size texts of its axes, "2^20,1000003"
  std::string types;  // the spelling of --axis type=...: "f32,i32"
  std::vector<std::string> axes = {};  // --axis name=v1,v2 (kwb/run_sizes.h), each as given
  std::uint64_t seed = 0x5EED;
  int device = 0;
};

struct ResolvedSelection {
  std::string suiteName;                         // empty when only --shapes was given
  const Family* family = nullptr;                // never null once resolved
  std::vector<const KernelDescriptor*> kernels;  // of the family only
  std::vector<CaseSize> sizeList;                // of the family, in run order
  const std::vector<CaseSize>& sizes() const { return sizeList; }
};

// Kernels come from `registry`; a suite is a preset name in `presetsDir` or a file. Without
// sizes (--shapes or --sizes) and without a suite, a gemm selection runs `defaultSuite` and any
// other family's the suite "<family>-benchmark". --sizes replaces a suite's sizes and each
// --axis (--types) its values of that axis (kwb/run_sizes.h). Throws InputError naming the bad
// preset, family, kernel id, shape, size, axis or axis value.
ResolvedSelection resolveSelection(const Selection& sel, const KernelRegistry& registry,
                                   const std::string& defaultSuite,
                                   const std::filesystem::path& presetsDir);

// The run order of the selection's cases (orderPlan).
std::vector<PlanCase> orderedPlan(const ResolvedSelection& sel);

}  // namespace kwb::cuda
