// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: a results document (kwb run --json, kwb-gui --open, kwb export).
// Every document read must also export to CSV and Markdown, and write back as a document that
// reads again to the same text (no value is written that the reader refuses).
#include "fuzz_support.h"
#include "kwb/exporters.h"
#include "kwb/results.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  kwb::RunDocument doc;
  try {
    doc = kwb::parseDocument(kwb::fuzz::text(data, size), "fuzz.json");
  } catch (const kwb::InputError& e) {
    kwb::fuzz::checkNamed(e, "fuzz.json");
    return 0;
  }
  (void)kwb::toCsv(doc);
  (void)kwb::toMarkdown(doc);
  const std::string written = kwb::toJsonText(doc);
  const kwb::RunDocument back = kwb::parseDocument(written, "written.json");  // must not throw
  kwb::fuzz::require(kwb::toJsonText(back) == written, "a written document reads back the same");
  return 0;
}
