// SPDX-License-Identifier: Apache-2.0
#include "kwb/shard_failure.h"

#include "json_read.h"
#include "kwb/error.h"
#include "kwb/exit_codes.h"
#include "kwb/text_file.h"

namespace kwb {
using nlohmann::json;

namespace {

std::string exitMeaning(int status) {
  switch (status) {
    case kExitCaseFailed:
      return " (a case failed)";
    case kExitBadInput:
      return " (bad usage or input)";
    case kExitNoDevice:
      return " (no CUDA device)";
    case kExitInternal:
      return " (internal error)";
    case kExitInterrupted:
      return " (interrupted)";
    default:
      return "";
  }
}

}  // namespace

std::string ShardFailure::reason() const {
  std::string r = signal != 0       ? "killed by signal " + std::to_string(signal)
                  : exitStatus >= 0 ? "exit " + std::to_string(exitStatus) + exitMeaning(exitStatus)
                                    : "ended without a document";
  if (!stderrTail.empty()) r += ": " + stderrTail.back();
  return r;
}

std::vector<std::string> tailLines(std::string_view text) {
  if (text.size() > kFailureTailBytes) text = text.substr(text.size() - kFailureTailBytes);
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    std::string line(text.substr(start, end - start));
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) lines.push_back(std::move(line));
    start = end + 1;
  }
  if (lines.size() > kFailureTailLines)
    lines.erase(lines.begin(), lines.end() - std::ptrdiff_t(kFailureTailLines));
  return lines;
}

std::string toJsonText(const ShardFailure& f) {
  const json j = {{"kind", kShardFailureKind},
                  {"version", kShardFailureVersion},
                  {"shard", {{"index", f.shard.index}, {"count", f.shard.count}}},
                  {"planHash", f.planHash},
                  {"exitStatus", f.exitStatus},
                  {"signal", f.signal},
                  {"host", f.host},
                  {"timestamp", f.timestamp},
                  {"stderrTail", f.stderrTail}};
  // Standard error may hold any bytes: invalid UTF-8 is replaced rather than refused.
  return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

ShardFailure parseShardFailure(std::string_view text, std::string_view source) {
  const std::string src(source);
  try {
    const json j = jsonread::parse(text);
    if (!j.is_object() || j.value("kind", std::string()) != kShardFailureKind)
      throw InputError("not a shard failure record (no \"kind\": \"kwb-shard-failure\")");
    ShardFailure f;
    const json& s = j.at("shard");
    jsonread::get(s, "index", f.shard.index);
    jsonread::get(s, "count", f.shard.count);
    if (f.shard.count < 1 || f.shard.count > kMaxShards || f.shard.index < 1 ||
        f.shard.index > f.shard.count)
      throw InputError("shard " + toString(f.shard) + " is out of range");
    f.planHash = jsonread::value(j, "planHash", std::string());
    f.exitStatus = jsonread::value(j, "exitStatus", -1);
    f.signal = jsonread::value(j, "signal", 0);
    f.host = jsonread::value(j, "host", std::string());
    f.timestamp = jsonread::value(j, "timestamp", std::string());
    if (auto t = j.find("stderrTail"); t != j.end() && !t->is_null())
      jsonread::read(*t, "stderrTail", f.stderrTail);
    return f;
  } catch (const nlohmann::json::exception& e) {
    throw InputError("cannot read shard failure record '" + src +
                     "': " + jsonread::plain(e.what()));
  } catch (const InputError& e) {
    throw InputError("cannot read shard failure record '" + src + "': " + e.what());
  }
}

ShardFailure readShardFailure(const std::filesystem::path& path) {
  return parseShardFailure(readTextFile(path, "shard failure record", 1 << 20), path.string());
}

void writeShardFailure(const ShardFailure& f, const std::filesystem::path& path) {
  writeTextFile(path, toJsonText(f));
}

bool looksLikeShardFailure(std::string_view text) {
  try {
    const json j = jsonread::parse(text);
    return j.is_object() && j.value("kind", std::string()) == kShardFailureKind;
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace kwb
