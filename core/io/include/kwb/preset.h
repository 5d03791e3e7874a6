// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "kwb/case_size.h"
#include "kwb/run_sizes.h"
#include "kwb/shape.h"

namespace kwb {

// A suite: the sizes and kernels of one problem family to run (resources/presets/*.json).
// A GEMM suite lists "shapes"; any other family's ("family": "reduce") lists "sizes" (size
// texts of its axes: "2^20", 1000003, "2^24 u8 256 bins") and/or "axes" (value lists crossed
// with them for the axes they leave out: {"type": ["f32", "i32"]}; "types" is axes.type), as
// `kwb run --sizes ... --axis ...` does (kwb/run_sizes.h).
struct Suite {
  std::string name;
  std::string description;
  std::string family = "gemm";         // "family"; absent: gemm
  std::vector<Shape> shapes;           // GEMM
  std::vector<std::string> sizeTexts;  // any other family: "sizes" as written
  std::vector<AxisValues> axes;        // any other family: "axes" and "types"
  std::vector<CaseSize> sizes;         // any other family: every size it runs, in run order
  std::string kernels = "all";         // a KernelRegistry::select list (kernels of the family)
};

// A preset file larger than this is refused unread.
inline constexpr std::uintmax_t kMaxPresetBytes = std::uintmax_t(4) << 20;

// `nameOrPath` is a preset name looked up in `presetsDir` ("spec-benchmark") or a path to a
// JSON file ("my/suite.json"). Throws InputError naming the file and the problem.
Suite loadSuite(std::string_view nameOrPath, const std::filesystem::path& presetsDir);
Suite parseSuite(std::string_view text, std::string_view source);
// Preset names found in `presetsDir`, sorted.
std::vector<std::string> presetNames(const std::filesystem::path& presetsDir);

// Where the bundled presets are: $KWB_PRESETS_DIR, else next to the executable
// (../share/kwb/presets), else the source tree's resources/presets.
std::filesystem::path defaultPresetsDir(const std::filesystem::path& sourceTreeFallback);

}  // namespace kwb
