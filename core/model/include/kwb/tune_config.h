// SPDX-License-Identifier: Apache-2.0
#pragma once
// One compile-time configuration of a tunable kernel. Pure C++ (no CUDA).
#include <cstdint>
#include <map>
#include <string>

namespace kwb {

// A name and the compile-time parameters it instantiates ({"BM": 128, "BN": 128, "BK": 16,
// ...}); the names of the parameters depend on the kernel.
struct TuneConfig {
  std::string name;
  std::map<std::string, std::int64_t> params;

  friend bool operator==(const TuneConfig&, const TuneConfig&) = default;
};

}  // namespace kwb
