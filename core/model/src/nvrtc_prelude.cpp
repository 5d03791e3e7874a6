// SPDX-License-Identifier: Apache-2.0
#include "kwb/nvrtc_prelude.h"

#include <algorithm>

namespace kwb {
namespace {

// The 64-bit types as libcu++ declares them under NVRTC (<cuda/std/cstdint>: long long), so a
// kernel may include it after the prelude; the same types in std:: as <cstdint> gives them.
constexpr const char* kPrelude = R"(// kwb: host-header types NVRTC lacks
#pragma once
typedef unsigned int uint;
typedef unsigned short ushort;
typedef unsigned long ulong;
typedef unsigned char uchar;
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
typedef long long intptr_t;
typedef unsigned long long uintptr_t;
typedef long long intmax_t;
typedef unsigned long long uintmax_t;
namespace std {
using ::int16_t; using ::int32_t; using ::int64_t; using ::int8_t; using ::intmax_t;
using ::intptr_t; using ::size_t; using ::uint16_t; using ::uint32_t; using ::uint64_t;
using ::uint8_t; using ::uintmax_t; using ::uintptr_t;
}
)";

// Host headers a kernel file includes for its launcher or for printf/assert, which NVRTC has
// built in: empty stand-ins, so the includes compile and device code keeps NVRTC's own.
constexpr const char* kEmpty[] = {"cstdio",      "stdio.h",  "cstdlib",  "stdlib.h", "cassert",
                                  "assert.h",    "cstdint",  "stdint.h", "cmath",    "math.h",
                                  "cublas_v2.h", "cublas.h", "cstring",  "string.h"};
constexpr const char* kAlgorithm = R"(// kwb stand-in for <algorithm>: NVRTC's device min and max
#pragma once
namespace std { using ::max; using ::min; }
)";

}  // namespace

const std::vector<std::pair<std::string, std::string>>& nvrtcBuiltinHeaders() {
  static const std::vector<std::pair<std::string, std::string>> headers = [] {
    std::vector<std::pair<std::string, std::string>> h{{kNvrtcPreludeName, kPrelude},
                                                       {"algorithm", kAlgorithm}};
    for (const char* name : kEmpty)
      h.emplace_back(name, std::string("// kwb stand-in for the host header <") + name +
                               ">: NVRTC compiles device code only\n#pragma once\n");
    return h;
  }();
  return headers;
}

bool isNvrtcStandIn(std::string_view name) {
  const auto& h = nvrtcBuiltinHeaders();
  return name != kNvrtcPreludeName &&
         std::any_of(h.begin(), h.end(), [&](const auto& p) { return p.first == name; });
}

std::string compileHints(std::string_view log) {
  const auto has = [&](std::string_view s) { return log.find(s) != std::string_view::npos; };
  std::string out;
  if (has("cannot open source file"))
    out +=
        "hint: NVRTC has no host C++ library headers (<iostream>, <vector>, ...). kwb stands "
        "in for <cstdio>, <cstdlib>, <cassert>, <cstdint>, <cmath>, <cstring>, <algorithm> "
        "and <cublas_v2.h>; keep other host-only includes out with #ifndef __CUDACC_RTC__, "
        "or build with --compiler nvcc\n";
  if (has("host functions are not allowed in JIT mode"))
    out +=
        "hint: NVRTC compiles device code only: main() and a kernel's launcher are host "
        "code. kwb launches the kernel itself (--grid, --block): keep host code out with "
        "#ifndef __CUDACC_RTC__ ... #endif, or build with --compiler nvcc\n";
  if (has("identifier \"cuda") || has("identifier \"cublas") || has("has no member \"cout\"") ||
      has("has no member \"vector\""))
    out +=
        "hint: a host API (the CUDA runtime's cudaMalloc, cuBLAS, std::cout) cannot run in "
        "device code; kwb allocates, fills and launches\n";
  if (has("name expression"))
    out +=
        "hint: --entry names a template kernel by its arguments as the file's code would, "
        "e.g. --entry 'k<64,64,8>'\n";
  return out;
}

}  // namespace kwb
