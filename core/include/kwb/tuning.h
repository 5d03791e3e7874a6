#pragma once
// A tuning sweep: the compile-time configurations of one tunable kernel, each verified and,
// when it passes, timed on one shape. Pure C++ (no CUDA): the results document carries it.
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "kwb/shape.h"

namespace kwb {

// One configuration: a name and the compile-time parameters it instantiates
// ({"BM": 128, "BN": 128, "BK": 16, ...}); the names of the parameters depend on the kernel.
struct TuneConfig {
  std::string name;
  std::map<std::string, std::int64_t> params;

  friend bool operator==(const TuneConfig&, const TuneConfig&) = default;
};

struct TuneResult {
  TuneConfig config;
  std::string status;              // a CaseStatus name: "pass", "fail", "fallback", "error", ...
  std::string message;             // why it failed or was not timed
  std::string ranKernel;           // what ran: the configuration, or the kernel it fell back to
  std::optional<double> medianMs;  // timed only when verification passed
  std::optional<double> gflops;
  int samples = 0;

  friend bool operator==(const TuneResult&, const TuneResult&) = default;
};

struct TuneGrid {
  std::string kernel;  // the tunable kernel id, "sgemm.warp_tiled"
  Shape shape;
  std::uint64_t seed = 0;
  std::vector<TuneResult> results;  // in the kernel's configuration order
  std::string best;                 // name of the fastest timed configuration; empty if none

  friend bool operator==(const TuneGrid&, const TuneGrid&) = default;
};

// The fastest configuration that passed verification and was timed (lowest median; ties keep
// the earlier one), or nullopt when none was.
std::optional<std::size_t> fastest(std::span<const TuneResult> results);

}  // namespace kwb
