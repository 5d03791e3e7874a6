#include "run_options.h"

#include <unistd.h>

#include <filesystem>

#include "kwb/error.h"
#include "kwb/preset.h"
#include "commands.h"
#include "kwb/timer.h"

namespace kwb::cli {

void addSelectionOptions(CLI::App& sub, Selection& sel, const char* defaultSuite) {
  sub.add_option("--suite", sel.suite,
                 std::string("Preset name (resources/presets) or a preset .json file; default ") +
                     defaultSuite + " unless --shapes is given");
  sub.add_option("--kernels", sel.kernels,
                 "Comma-separated kernel ids, or all / stages / references (default: the suite's)");
  sub.add_option("--shapes", sel.shapes, "Comma-separated shapes: 512 (=512^3) or 256x384x640");
  sub.add_option("--seed", sel.seed, "Seed of the input generator (recorded in the results)");
  sub.add_option("--device", sel.device, "CUDA device index")->check(CLI::NonNegativeNumber);
}

void addTimerOption(CLI::App& sub, std::string& timer) {
  timer = std::string(toString(kDefaultTimer));
  sub.add_option("--timer", timer,
                 "What clock times a sample: back-to-back (default; launches replayed from a CUDA "
                 "graph), isolated (launches queued behind a blocking kernel), cupti (CUPTI's "
                 "kernel durations) or host (host-inclusive, dispatch included)")
      ->check(CLI::IsMember({"isolated", "back-to-back", "cupti", "host"}));
}

ResolvedSelection resolve(const Selection& sel, const char* defaultSuite) {
  ResolvedSelection out;
  std::string kernelList = "all";
  if (!sel.suite.empty() || sel.shapes.empty()) {
    const Suite suite =
        loadSuite(sel.suite.empty() ? defaultSuite : sel.suite, defaultPresetsDir(KWB_PRESETS_DIR));
    out.suiteName = suite.name;
    out.shapes = suite.shapes;
    kernelList = suite.kernels;
  }
  if (!sel.shapes.empty()) out.shapes = parseShapeList(sel.shapes);
  if (!sel.kernels.empty()) kernelList = sel.kernels;
  out.kernels = commandRegistry().select(kernelList);
  if (out.kernels.empty()) throw InputError("no kernels selected by '" + kernelList + "'");
  return out;
}

void checkWritable(const std::string& path) {
  if (path.empty() || path == "-") return;
  namespace fs = std::filesystem;
  const fs::path p(path);
  std::error_code ec;
  if (fs::is_directory(p, ec)) throw InputError("cannot write '" + path + "': it is a directory");
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  if (!fs::is_directory(dir, ec))
    throw InputError("cannot write '" + path + "': folder '" + dir.string() + "' does not exist");
  if (::access(dir.c_str(), W_OK) != 0)
    throw InputError("cannot write '" + path + "': folder '" + dir.string() + "' is not writable");
  if (fs::exists(p, ec) && ::access(p.c_str(), W_OK) != 0)
    throw InputError("cannot write '" + path + "': the file is not writable");
}

}  // namespace kwb::cli
