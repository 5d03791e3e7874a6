// SPDX-License-Identifier: Apache-2.0
#include "kwb/pool_protocol.h"

#include <cmath>

#include <nlohmann/json.hpp>

#include "kwb/error.h"

namespace kwb {

using nlohmann::json;

std::string shardRequestLine(const ShardRequest& r) {
  return json{{"op", "shard"}, {"shard", toString(r.shard)}, {"json", r.json}}.dump();
}

ShardRequest parseShardRequest(const std::string& line, int lineNumber) {
  const std::string where = "pool request line " + std::to_string(lineNumber);
  const json j = json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    throw InputError(where + " is not a JSON object: '" + line.substr(0, 80) + "'");
  const auto text = [&](const char* key) {
    const auto it = j.find(key);
    if (it == j.end() || !it->is_string() || it->get<std::string>().empty())
      throw InputError(where + ": '" + key + "' must be a non-empty string");
    return it->get<std::string>();
  };
  if (text("op") != "shard")
    throw InputError(where + ": unknown op '" + text("op") + "' (this kwb knows 'shard')");
  try {
    return {parseShard(text("shard")), text("json")};
  } catch (const InputError& e) {
    throw InputError(where + ": " + e.what());
  }
}

std::string shardEndLine(const ShardEnd& e) {
  json j{{"event", "shard_end"}, {"shard", e.shard}, {"exitCode", e.exitCode}};
  if (e.workerEnds) j["workerEnds"] = true;
  if (e.workerS >= 0.0) j["workerS"] = std::round(e.workerS * 1e4) / 1e4;
  return j.dump();
}

std::optional<ShardEnd> parseShardEnd(const std::string& line) {
  if (line.find("\"shard_end\"") == std::string::npos) return std::nullopt;  // most lines
  const json j = json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object() || j.value("event", "") != "shard_end")
    return std::nullopt;
  const auto shard = j.find("shard");
  const auto code = j.find("exitCode");
  if (shard == j.end() || !shard->is_number_integer() || code == j.end() ||
      !code->is_number_integer())
    return std::nullopt;
  const auto ends = j.find("workerEnds");
  const auto workerS = j.find("workerS");
  return ShardEnd{shard->get<int>(), code->get<int>(),
                  ends != j.end() && ends->is_boolean() && ends->get<bool>(),
                  workerS != j.end() && workerS->is_number() && workerS->get<double>() >= 0.0
                      ? workerS->get<double>()
                      : -1.0};
}

std::string workerReadyLine() { return json{{"event", "worker_ready"}}.dump(); }

bool isWorkerReadyLine(const std::string& line) {
  if (line.find("\"worker_ready\"") == std::string::npos) return false;  // most lines
  const json j = json::parse(line, nullptr, false);
  return !j.is_discarded() && j.is_object() && j.value("event", "") == "worker_ready";
}

}  // namespace kwb
