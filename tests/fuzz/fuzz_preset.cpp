// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: a preset file (kwb run --suite FILE, resources/presets).
#include "fuzz_support.h"
#include "kwb/family.h"
#include "kwb/preset.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const kwb::Suite s = kwb::parseSuite(kwb::fuzz::text(data, size), "fuzz-preset.json");
    // A GEMM suite lists shapes; a 1-D family's suite lists element counts and types instead.
    const bool oneD = kwb::findFamily(s.family).oneDimensional;
    kwb::fuzz::require(
        !s.name.empty() && (oneD ? !s.counts.empty() && !s.types.empty() && s.shapes.empty()
                                 : !s.shapes.empty() && s.counts.empty()),
        "a preset has a name and the sizes of its family");
    for (const auto count : s.counts)
      kwb::fuzz::require(count >= 0 && count <= kwb::kMaxVectorCount,
                         "every preset count is in range");
    for (const auto& shape : s.shapes)
      kwb::fuzz::require(shape.m >= 1 && shape.n >= 1 && shape.k >= 1 &&
                             shape.m <= kwb::kMaxDimension && shape.n <= kwb::kMaxDimension &&
                             shape.k <= kwb::kMaxDimension,
                         "every preset shape is in range");
  } catch (const kwb::InputError& e) {
    kwb::fuzz::checkNamed(e, "fuzz-preset.json");
  }
  return 0;
}
