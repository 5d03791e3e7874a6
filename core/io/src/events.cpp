// SPDX-License-Identifier: Apache-2.0
#include "kwb/events.h"

#include <cmath>

#include "json_read.h"
#include "kwb/error.h"
#include "kwb/size_json.h"
#include "kwb/results_json.h"

namespace kwb {
using jsonread::get;
using nlohmann::json;

namespace {
constexpr EventType kAllTypes[] = {
    EventType::kHello,        EventType::kDevice,     EventType::kPlan, EventType::kCaseStarted,
    EventType::kCaseFinished, EventType::kCaseFailed, EventType::kLog,  EventType::kDone};

// Schema 6: the kernel and its size; older engines wrote a shape, or for a 1-D case its
// problem, count and element type (readCaseSize reads both).
json plannedToJson(const PlannedCase& p) { return {{"kernel", p.kernel}, {"size", p.size}}; }
PlannedCase plannedFromJson(const json& j) {
  return {j.at("kernel").get<std::string>(), readCaseSize(j)};
}
}  // namespace

std::string_view toString(EventType t) {
  switch (t) {
    case EventType::kHello:
      return "hello";
    case EventType::kDevice:
      return "device";
    case EventType::kPlan:
      return "plan";
    case EventType::kCaseStarted:
      return "case_started";
    case EventType::kCaseFinished:
      return "case_finished";
    case EventType::kCaseFailed:
      return "case_failed";
    case EventType::kLog:
      return "log";
    case EventType::kDone:
      return "done";
  }
  return "?";
}

std::string toJsonLine(const StreamEvent& e) {
  json j = {{"event", toString(e.type)}, {"elapsedS", e.elapsedS}};
  if (e.gpu >= 0) j["gpu"] = e.gpu;
  if (e.shard > 0) j["shard"] = e.shard;
  switch (e.type) {
    case EventType::kHello:
      j["tool"] = "kwb";
      j["version"] = e.toolVersion;
      j["gitRevision"] = e.gitRevision;
      j["host"] = e.host;
      j["timestamp"] = e.timestamp;
      j["schemaVersion"] = e.schemaVersion;
      j["protocolVersion"] = e.protocolVersion;
      break;
    case EventType::kDevice:
      j["device"] = e.device ? json(*e.device) : json(nullptr);
      break;
    case EventType::kPlan:
      j["settings"] = e.settings;
      j["cases"] = json::array();
      for (const auto& p : e.plan) j["cases"].push_back(plannedToJson(p));
      j["kernels"] = e.kernels;
      j["families"] = e.families;
      break;
    case EventType::kCaseStarted:
      j["index"] = e.index;
      j.update(plannedToJson(e.planned));
      break;
    case EventType::kCaseFinished:
    case EventType::kCaseFailed:
      j["index"] = e.index;
      j["result"] = e.result ? json(*e.result) : json(nullptr);
      break;
    case EventType::kLog:
      j["level"] = e.level;
      j["message"] = e.message;
      break;
    case EventType::kDone:
      j["exitCode"] = e.exitCode;
      j["knownAnswer"] = e.knownAnswer;
      j["progression"] = e.progression;
      j["wallSeconds"] = e.wallSeconds;
      if (e.launchOverhead) j["launchOverhead"] = *e.launchOverhead;
      break;
  }
  encodeNonFinite(j);  // written so that parseEventLine reads it back
  return j.dump();
}

namespace {

// The fields of an event of a known type (its type and time are read already).
void readEventFields(const json& j, StreamEvent& e) {
  switch (e.type) {
    case EventType::kHello:
      get(j, "version", e.toolVersion);
      get(j, "gitRevision", e.gitRevision);
      get(j, "host", e.host);
      get(j, "timestamp", e.timestamp);
      get(j, "schemaVersion", e.schemaVersion);
      get(j, "protocolVersion", e.protocolVersion);
      if (e.protocolVersion != kProtocolVersion)
        throw ProtocolVersionError("protocol version " + std::to_string(e.protocolVersion) +
                                       " is not supported (this kwb speaks " +
                                       std::to_string(kProtocolVersion) + ")",
                                   e.protocolVersion);
      break;
    case EventType::kDevice:
      if (!j.at("device").is_null()) e.device = j.at("device").get<DeviceInfo>();
      break;
    case EventType::kPlan:
      get(j, "settings", e.settings);
      if (!j.at("cases").is_array()) throw InputError("'cases' must be a list");
      for (const auto& p : j.at("cases")) e.plan.push_back(plannedFromJson(p));
      if (auto it = j.find("kernels"); it != j.end() && !it->is_null())
        get(j, "kernels", e.kernels);  // older engines sent none: the builder fills them in
      if (auto it = j.find("families"); it != j.end() && !it->is_null())
        get(j, "families", e.families);  // schema 6
      break;
    case EventType::kCaseStarted:
      get(j, "index", e.index);
      e.planned = plannedFromJson(j);
      break;
    case EventType::kCaseFinished:
    case EventType::kCaseFailed:
      get(j, "index", e.index);
      e.result = j.at("result").get<CaseResult>();
      break;
    case EventType::kLog:
      get(j, "level", e.level);
      get(j, "message", e.message);
      break;
    case EventType::kDone:
      get(j, "exitCode", e.exitCode);
      // `kwb replay` exits with it: only the codes kwb documents (docs/PROTOCOL.md).
      if (e.exitCode < kExitOk || e.exitCode > kExitInternal)
        throw InputError("'exitCode' " + std::to_string(e.exitCode) +
                         " is not an exit code of kwb (0 to 4)");
      get(j, "knownAnswer", e.knownAnswer);
      get(j, "progression", e.progression);
      get(j, "wallSeconds", e.wallSeconds);
      if (auto it = j.find("launchOverhead"); it != j.end() && !it->is_null())
        e.launchOverhead = it->get<LaunchOverhead>();
      break;
  }
}

}  // namespace

StreamEvent parseEventLine(std::string_view line, std::string_view source, int lineNumber) {
  const std::string where = std::string(source) + ":" + std::to_string(lineNumber);
  json j;
  try {
    j = jsonread::parse(line);
  } catch (const json::exception& e) {
    // parse_error, and out_of_range for a number such as 1e400 that no double holds.
    throw InputError("bad event at " + where + ": not valid JSON (" + jsonread::plain(e.what()) +
                     ")");
  } catch (const InputError& e) {  // nested too deep, or a duplicate key
    throw InputError("bad event at " + where + ": " + e.what());
  }
  try {
    StreamEvent e;
    const std::string name = j.at("event").get<std::string>();
    bool known = false;
    for (EventType t : kAllTypes)
      if (toString(t) == name) e.type = t, known = true;
    if (!known) throw InputError("unknown event type '" + name + "'");
    e.elapsedS = jsonread::value(j, "elapsedS", 0.0);
    // `kwb replay` waits until elapsedS: a negative, non-finite or absurd time is refused.
    if (!(e.elapsedS >= 0 && e.elapsedS <= kMaxElapsedS))
      throw InputError("'elapsedS' is " + jsonread::describe(j.at("elapsedS")) +
                       "; it must be from 0 to " + std::to_string(int(kMaxElapsedS)) + " seconds");
    e.gpu = jsonread::value(j, "gpu", -1);
    e.shard = jsonread::value(j, "shard", 0);
    readEventFields(j, e);
    return e;
  } catch (const json::exception& ex) {
    throw InputError("bad event at " + where + ": " + jsonread::plain(ex.what()));
  } catch (const ProtocolVersionError& ex) {
    throw ProtocolVersionError("bad event at " + where + ": " + ex.what(), ex.version());
  } catch (const InputError& ex) {
    throw InputError("bad event at " + where + ": " + ex.what());
  }
}

}  // namespace kwb
