// SPDX-License-Identifier: Apache-2.0
// The JSON of a profile (`kwb profile --json`, the case dialog's "<stem>.profile.json").
#include <nlohmann/json.hpp>

#include "json_read.h"
#include "kwb/error.h"
#include "kwb/ncu_profile.h"
#include "kwb/size_json.h"

namespace kwb {

namespace {

nlohmann::json trafficJson(const NcuTraffic& t) {
  return {{"bytes", t.bytes}, {"bytesPerSecond", t.bytesPerSecond}};
}

NcuTraffic trafficFrom(const nlohmann::json& j) {
  return {j.value("bytes", 0.0), j.value("bytesPerSecond", 0.0)};
}

nlohmann::json kernelJson(const NcuKernelFigures& k) {
  nlohmann::json stalls = nlohmann::json::array();
  for (const auto& s : k.stalls)
    stalls.push_back({{"reason", s.reason}, {"cyclesPerIssue", s.cyclesPerIssue}});
  return {{"name", k.name},
          {"durationUs", k.durationUs},
          {"smThroughputPct", k.smThroughputPct},
          {"memoryThroughputPct", k.memoryThroughputPct},
          {"achievedOccupancyPct", k.achievedOccupancyPct},
          {"dramBytes", k.dramBytes},
          {"topStall", k.topStall},
          {"topStallCyclesPerIssue", k.topStallCyclesPerIssue},
          {"launch",
           {{"grid", k.grid},
            {"block", k.block},
            {"registersPerThread", k.registersPerThread},
            {"sharedMemPerBlockBytes", k.sharedMemPerBlockBytes},
            {"theoreticalOccupancyPct", k.theoreticalOccupancyPct},
            {"wavesPerSm", k.wavesPerSm}}},
          {"stalls", stalls},
          {"memory",
           {{"dramReadBytes", k.dramReadBytes},
            {"dramWriteBytes", k.dramWriteBytes},
            {"dram", trafficJson(k.dram)},
            {"l2", trafficJson(k.l2)},
            {"l1", trafficJson(k.l1)}}}};
}

// A profile written before launch statistics, stalls and traffic were read has none of them:
// they stay empty, and the case dialog says so.
NcuKernelFigures kernelFrom(const nlohmann::json& k) {
  NcuKernelFigures f;
  f.name = k.at("name").get<std::string>();
  f.durationUs = k.at("durationUs").get<double>();
  f.smThroughputPct = k.at("smThroughputPct").get<double>();
  f.memoryThroughputPct = k.at("memoryThroughputPct").get<double>();
  f.achievedOccupancyPct = k.at("achievedOccupancyPct").get<double>();
  f.dramBytes = k.at("dramBytes").get<double>();
  f.topStall = k.at("topStall").get<std::string>();
  f.topStallCyclesPerIssue = k.at("topStallCyclesPerIssue").get<double>();
  if (const auto l = k.find("launch"); l != k.end()) {
    f.grid = l->value("grid", std::string());
    f.block = l->value("block", std::string());
    f.registersPerThread = l->value("registersPerThread", 0.0);
    f.sharedMemPerBlockBytes = l->value("sharedMemPerBlockBytes", 0.0);
    f.theoreticalOccupancyPct = l->value("theoreticalOccupancyPct", 0.0);
    f.wavesPerSm = l->value("wavesPerSm", 0.0);
  }
  if (const auto st = k.find("stalls"); st != k.end())
    for (const auto& s : *st)
      f.stalls.push_back({s.at("reason").get<std::string>(), s.at("cyclesPerIssue").get<double>()});
  if (const auto m = k.find("memory"); m != k.end()) {
    f.dramReadBytes = m->value("dramReadBytes", 0.0);
    f.dramWriteBytes = m->value("dramWriteBytes", 0.0);
    f.dram = trafficFrom(m->value("dram", nlohmann::json::object()));
    f.l2 = trafficFrom(m->value("l2", nlohmann::json::object()));
    f.l1 = trafficFrom(m->value("l1", nlohmann::json::object()));
  }
  return f;
}

// "size" as a results document writes it; a profile from before it has only "shape".
CaseSize sizeOf(const nlohmann::json& j, std::string_view source) {
  try {
    return j.contains("size") ? readCaseSize(j)
                              : gemmSize(parseShape(j.at("shape").get<std::string>()));
  } catch (const InputError& e) {
    throw InputError(std::string(source) + ": the profile's size: " + e.what());
  }
}

}  // namespace

std::string ncuProfileToJson(const NcuProfile& p) {
  nlohmann::json ks = nlohmann::json::array();
  for (const auto& k : p.kernels) ks.push_back(kernelJson(k));
  nlohmann::json j{{"kernel", p.kernel}, {"size", p.size},
                   {"config", p.config}, {"revision", p.gitRevision},
                   {"ncu", p.ncuPath},   {"report", p.reportPath},
                   {"kernels", ks}};
  // A reader from before "size" (an older kwb-gui) finds a GEMM case's shape where it looked.
  if (isGemm(p.size)) j["shape"] = toString(shapeOf(p.size));
  return j.dump(2);
}

NcuProfile ncuProfileFromJson(std::string_view text, std::string_view source) {
  try {
    nlohmann::json j;
    try {
      j = jsonread::parse(text);
    } catch (const InputError& e) {  // nested too deep, or a duplicate key
      throw InputError(std::string(source) + ": not a kwb profile: " + e.what());
    }
    NcuProfile p;
    p.kernel = j.at("kernel").get<std::string>();
    p.size = sizeOf(j, source);
    p.config = j.value("config", std::string());
    p.gitRevision = j.value("revision", std::string());
    p.ncuPath = j.at("ncu").get<std::string>();
    p.reportPath = j.at("report").get<std::string>();
    for (const auto& k : j.at("kernels")) p.kernels.push_back(kernelFrom(k));
    return p;
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw InputError(std::string(source) + ": not a kwb profile: " + e.what());
  }
}

}  // namespace kwb
