// SPDX-License-Identifier: Apache-2.0
#include "kwb/results.h"

#include "json_read.h"
#include "json_text_size.h"
#include "kwb/error.h"
#include "kwb/results_json.h"

namespace kwb {

std::string toJsonText(const RunDocument& doc, int indent, std::uintmax_t readableBytes) {
  nlohmann::json j = doc;
  encodeNonFinite(j);  // written so that parseDocument reads it back
  if (indent < 0) return j.dump(-1) + "\n";
  // Indentation more than doubles a large document (a tune of 1736 configurations: 84 MB, past
  // what readDocument takes); without it kwb can read back what it wrote. Its size is known
  // before it is written, so a large document is written once, compact (writing it indented
  // first cost the four-GPU pool 0.5 s at the end of that tune), and a small one once, indented.
  const jsontext::TextSize size = jsontext::textSize(j, indent);
  if (size.compactAtMost + size.indentation + 1 <= readableBytes) return j.dump(indent) + "\n";
  std::string compact = j.dump(-1) + "\n";
  if (compact.size() + size.indentation <= readableBytes) return j.dump(indent) + "\n";
  return compact;
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
