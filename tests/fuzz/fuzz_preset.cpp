// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: a preset file (kwb run --suite FILE, resources/presets).
#include "fuzz_support.h"
#include "kwb/family.h"
#include "kwb/preset.h"
#include "kwb/run_sizes.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const kwb::Suite s = kwb::parseSuite(kwb::fuzz::text(data, size), "fuzz-preset.json");
    // A GEMM suite lists shapes; any other family's suite lists sizes of its axes instead.
    const kwb::Family& f = kwb::findFamily(s.family);
    const bool shapes = kwb::takesShapes(f);
    kwb::fuzz::require(!s.name.empty() && (shapes ? !s.shapes.empty() && s.sizes.empty()
                                                  : !s.sizes.empty() && s.shapes.empty()),
                       "a preset has a name and the sizes of its family");
    for (const auto& one : s.sizes)
      kwb::fuzz::require(kwb::checkedSize(f, one) == one,
                         "every preset size is one of its family, each axis in range");
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
