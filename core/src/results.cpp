#include "kwb/results.h"

#include <fstream>
#include <sstream>
#include <system_error>

#include "kwb/error.h"
#include "kwb/results_json.h"

namespace kwb {

namespace {
constexpr CaseStatus kAllStatuses[] = {
    CaseStatus::kPass,  CaseStatus::kFail,    CaseStatus::kFallback, CaseStatus::kInvalid,
    CaseStatus::kError, CaseStatus::kCrashed, CaseStatus::kSkipped};
}

std::string_view toString(CaseStatus s) {
  switch (s) {
    case CaseStatus::kPass:
      return "pass";
    case CaseStatus::kFail:
      return "fail";
    case CaseStatus::kFallback:
      return "fallback";
    case CaseStatus::kInvalid:
      return "invalid";
    case CaseStatus::kError:
      return "error";
    case CaseStatus::kCrashed:
      return "crashed";
    case CaseStatus::kSkipped:
      return "skipped";
  }
  return "?";
}

CaseStatus parseCaseStatus(std::string_view text) {
  for (CaseStatus s : kAllStatuses)
    if (toString(s) == text) return s;
  throw InputError("unknown case status '" + std::string(text) +
                   "' (known: pass, fail, fallback, invalid, error, crashed, skipped)");
}

const CaseResult* RunDocument::find(std::string_view kernel, const Shape& shape) const {
  for (const auto& c : cases)
    if (c.kernel == kernel && c.shape == shape) return &c;
  return nullptr;
}

std::string toJsonText(const RunDocument& doc, int indent) {
  return nlohmann::json(doc).dump(indent) + "\n";
}

RunDocument parseDocument(std::string_view text, std::string_view source) {
  const std::string src(source);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError("cannot read results '" + src + "': not valid JSON (" + e.what() +
                     "); is the file truncated?");
  }
  if (!j.is_object()) throw InputError("cannot read results '" + src + "': not a JSON object");
  const auto it = j.find("schemaVersion");
  if (it == j.end() || !it->is_number_integer())
    throw InputError("cannot read results '" + src +
                     "': no integer 'schemaVersion'; not a kwb results document");
  if (it->get<int>() < kOldestReadableSchema || it->get<int>() > kSchemaVersion)
    throw InputError("cannot read results '" + src + "': schemaVersion " +
                     std::to_string(it->get<int>()) + " is not supported (this kwb reads " +
                     std::to_string(kOldestReadableSchema) + " to " +
                     std::to_string(kSchemaVersion) + ")");
  try {
    return j.get<RunDocument>();
  } catch (const nlohmann::json::exception& e) {
    throw InputError("cannot read results '" + src + "': " + e.what());
  } catch (const InputError& e) {
    throw InputError("cannot read results '" + src + "': " + e.what());
  }
}

RunDocument readDocument(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot open results '" + path.string() + "': no such readable file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return parseDocument(ss.str(), path.string());
}

void writeTextFile(const std::filesystem::path& path, std::string_view text) {
  const std::filesystem::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out)
      throw InputError("cannot write '" + path.string() +
                       "': the folder is missing or not writable");
    out.write(text.data(), std::streamsize(text.size()));
    out.flush();
    if (!out) {
      std::error_code ec;
      std::filesystem::remove(tmp, ec);
      throw InputError("cannot write '" + path.string() + "': writing failed (disk full?)");
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    throw InputError("cannot write '" + path.string() + "': " + ec.message());
  }
}

void writeDocument(const RunDocument& doc, const std::filesystem::path& path) {
  writeTextFile(path, toJsonText(doc));
}

}  // namespace kwb
