// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: shapes as typed (--shapes, the GUI's shape box): a list, and each item alone.
// Every shape read is in range and reads back from its own text.
#include "fuzz_support.h"
#include "kwb/shape.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = kwb::fuzz::text(data, size);
  try {
    for (const kwb::Shape& s : kwb::parseShapeList(text)) {
      kwb::fuzz::require(s.m >= 1 && s.n >= 1 && s.k >= 1 && s.m <= kwb::kMaxDimension &&
                             s.n <= kwb::kMaxDimension && s.k <= kwb::kMaxDimension,
                         "a shape read is in range");
      kwb::fuzz::require(kwb::parseShape(kwb::toString(s)) == s, "a shape reads back");
      (void)s.flops();
      (void)s.minBytes(4);
    }
  } catch (const kwb::InputError& e) {
    // Messages quote the text: nothing else to check, the text may be any bytes.
    (void)e;
  }
  return 0;
}
