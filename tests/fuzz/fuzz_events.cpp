// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: an event stream (kwb run --stream as kwb-gui reads it, kwb replay).
// Each line is parsed alone, as the GUI does, and the events read drive a DocumentBuilder; every
// event read must write back as a line that reads again to the same text.
#include "fuzz_support.h"
#include "kwb/events.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view all = kwb::fuzz::text(data, size);
  kwb::DocumentBuilder builder;
  int lineNumber = 0;
  for (std::size_t start = 0; start < all.size();) {
    std::size_t end = all.find('\n', start);
    if (end == std::string_view::npos) end = all.size();
    const std::string_view line = all.substr(start, end - start);
    start = end + 1;
    ++lineNumber;
    if (line.empty()) continue;
    kwb::StreamEvent e;
    try {
      e = kwb::parseEventLine(line, "fuzz.jsonl", lineNumber);
    } catch (const kwb::InputError& err) {
      kwb::fuzz::checkNamed(err, "fuzz.jsonl:" + std::to_string(lineNumber));
      continue;
    }
    const std::string written = kwb::toJsonLine(e);
    const kwb::StreamEvent back = kwb::parseEventLine(written, "written", 1);  // must not throw
    kwb::fuzz::require(kwb::toJsonLine(back) == written, "a written event reads back the same");
    builder.apply(e);
  }
  (void)builder.document();
  return 0;
}
