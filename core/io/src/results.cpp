// SPDX-License-Identifier: Apache-2.0
#include "kwb/results.h"

#include "json_read.h"
#include "kwb/error.h"
#include "kwb/results_json.h"

namespace kwb {

std::string toJsonText(const RunDocument& doc, int indent, std::uintmax_t readableBytes) {
  nlohmann::json j = doc;
  encodeNonFinite(j);  // written so that parseDocument reads it back
  std::string text = j.dump(indent) + "\n";
  // Indentation more than doubles a large document (a tune of 1736 configurations: 84 MB, past
  // what readDocument takes); without it kwb can read back what it wrote.
  if (indent >= 0 && text.size() > readableBytes) text = j.dump(-1) + "\n";
  return text;
}

RunDocument parseDocument(std::string_view text, std::string_view source) {
  const std::string src(source);
  nlohmann::json j;
  try {
    j = jsonread::parse(text);
  } catch (const nlohmann::json::exception& e) {
    // parse_error, and out_of_range for a number such as 1e400 that no double holds.
    throw InputError("cannot read results '" + src + "': not valid JSON (" +
                     jsonread::plain(e.what()) + "); is the file truncated?");
  } catch (const InputError& e) {  // nested too deep, or a duplicate key
    throw InputError("cannot read results '" + src + "': " + e.what());
  }
  if (!j.is_object()) throw InputError("cannot read results '" + src + "': not a JSON object");
  const auto it = j.find("schemaVersion");
  if (it == j.end() || !it->is_number_integer())
    throw InputError("cannot read results '" + src +
                     "': no integer 'schemaVersion'; not a kwb results document");
  if (!it->is_number_integer() || *it < kOldestReadableSchema || *it > kSchemaVersion)
    throw InputError("cannot read results '" + src + "': schemaVersion " + it->dump() +
                     " is not supported (this kwb reads " + std::to_string(kOldestReadableSchema) +
                     " to " + std::to_string(kSchemaVersion) + ")");
  try {
    return j.get<RunDocument>();
  } catch (const nlohmann::json::exception& e) {
    throw InputError("cannot read results '" + src + "': " + jsonread::plain(e.what()));
  } catch (const InputError& e) {
    throw InputError("cannot read results '" + src + "': " + e.what());
  }
}

RunDocument readDocument(const std::filesystem::path& path) {
  return parseDocument(readTextFile(path, "results", kMaxDocumentBytes), path.string());
}

void writeDocument(const RunDocument& doc, const std::filesystem::path& path) {
  writeTextFile(path, toJsonText(doc));
}

}  // namespace kwb
