// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: kwb's one JSON parser (core/io/src/json_parse.cpp) against
// nlohmann::json::parse. Both read the same values; kwb's refuses only what it must (nesting
// past 64 levels, a duplicate key) with an InputError saying which, and a syntax error is one
// for both.
#include <nlohmann/json.hpp>

#include "fuzz_support.h"
#include "json_read.h"

namespace {

// nlohmann's parse of `text`, or null when it throws (it accepts deep nesting and duplicate
// keys, keeping the last value).
bool referenceReads(std::string_view text, nlohmann::json& out) {
  try {
    out = nlohmann::json::parse(text);
    return true;
  } catch (const nlohmann::json::exception&) {
    return false;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = kwb::fuzz::text(data, size);
  nlohmann::json reference;
  const bool referenceOk = referenceReads(text, reference);
  try {
    const nlohmann::json mine = kwb::jsonread::parse(text);
    kwb::fuzz::require(referenceOk && mine == reference, "kwb reads what nlohmann reads");
  } catch (const nlohmann::json::exception&) {
    kwb::fuzz::require(!referenceOk, "a syntax error is one for nlohmann too");
  } catch (const kwb::InputError& e) {
    const std::string_view why = e.what();
    kwb::fuzz::require(why.find("levels deep") != why.npos || why.find("appears twice") != why.npos,
                       "kwb refuses only deep nesting and duplicate keys");
  }
  return 0;
}
