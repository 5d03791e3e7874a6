// SPDX-License-Identifier: Apache-2.0
#pragma once
// What nvcc users get from host headers and NVRTC lacks (docs/BRING_YOUR_OWN.md, "Code that
// builds with nvcc"): a prelude included before the source (uint, ushort, the <cstdint> types),
// stand-ins for host headers kernel files include for their launchers (<cstdio>, <cassert>,
// <cublas_v2.h>, ...), and a hint for each NVRTC error that means "host code".
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kwb {

// The prelude's header name: compiles pass it to NVRTC with --pre-include.
inline constexpr const char* kNvrtcPreludeName = "kwb_nvrtc_prelude.h";

// The prelude and every stand-in, as (include name, text): NVRTC takes them in memory.
const std::vector<std::pair<std::string, std::string>>& nvrtcBuiltinHeaders();
// Whether `name` (as in #include <name>) is one of the stand-ins.
bool isNvrtcStandIn(std::string_view name);

// One "hint: ..." line per kind of NVRTC error in `log` that has a known cause (a host header
// NVRTC does not have, a host function such as main, a host API call), or "".
std::string compileHints(std::string_view log);

}  // namespace kwb
