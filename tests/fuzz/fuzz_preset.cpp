// libFuzzer target: a preset file (kwb run --suite FILE, resources/presets).
#include "fuzz_support.h"
#include "kwb/preset.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const kwb::Suite s = kwb::parseSuite(kwb::fuzz::text(data, size), "fuzz-preset.json");
    kwb::fuzz::require(!s.name.empty() && !s.shapes.empty(), "a preset has a name and shapes");
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
