// SPDX-License-Identifier: Apache-2.0
#include "kwb/profiler_env.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace kwb {

std::string_view toString(Profiler p) {
  switch (p) {
    case Profiler::kNsightCompute:
      return "Nsight Compute";
    case Profiler::kNsightSystems:
      return "Nsight Systems";
    case Profiler::kNone:
      break;
  }
  return "";
}

namespace {
bool contains(std::string haystack, std::string_view needle) {
  std::transform(haystack.begin(), haystack.end(), haystack.begin(),
                 [](unsigned char ch) { return char(std::tolower(ch)); });
  return haystack.find(needle) != std::string::npos;
}
}  // namespace

Profiler detectProfiler(const std::function<const char*(const char*)>& env) {
  auto get = [&](const char* name) -> std::string {
    const char* v = env ? env(name) : std::getenv(name);
    return v ? std::string(v) : std::string();
  };
  const std::string forced = get("KWB_PROFILER");
  if (forced == "ncu") return Profiler::kNsightCompute;
  if (forced == "nsys") return Profiler::kNsightSystems;
  if (forced == "none") return Profiler::kNone;
  // Nsight Systems first: a copy of nsys ships inside Nsight Compute's folder, so the folder's
  // name alone does not tell them apart; its injection library and variables do.
  const std::string inject = get("CUDA_INJECTION64_PATH") + " " + get("LD_PRELOAD");
  if (!get("NSYS_PROFILING_SESSION_ID").empty() || contains(inject, "toolsinjection") ||
      contains(inject, "nsight-systems") || contains(inject, "nsight_systems"))
    return Profiler::kNsightSystems;
  for (const char* ncu : {"treelauncher", "interceptorinjection", "nsight-compute", "/ncu"})
    if (contains(inject, ncu)) return Profiler::kNsightCompute;
  // Nsight Compute's launcher sets these for the process it profiles.
  if (!get("NV_NSIGHT_INJECTION_PORT_BASE").empty()) return Profiler::kNsightCompute;
  return Profiler::kNone;
}

}  // namespace kwb
