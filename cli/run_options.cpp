#include "run_options.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "kwb/error.h"
#include "kwb/preset.h"
#include "commands.h"
#include "kwb/results.h"
#include "kwb/timer.h"

namespace kwb::cli {

CLI::Validator finiteRange(double lo, double hi) {
  char desc[64];
  std::snprintf(desc, sizeof desc, "NUMBER in [%g, %g]", lo, hi);
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string {
        double v = 0;
        if (!CLI::detail::lexical_cast(text, v)) return "'" + text + "' is not a number";
        char buf[160];
        if (!std::isfinite(v) || v < lo || v > hi) {
          std::snprintf(buf, sizeof buf, "'%s' is not a finite number from %g to %g",
                        text.size() > 40 ? (text.substr(0, 40) + "...").c_str() : text.c_str(), lo,
                        hi);
          return buf;
        }
        return {};
      },
      desc);
}

const CLI::Validator kSeed(
    [](std::string& text) -> std::string {
      // CLI11 reads "-1" into an unsigned seed as 2^64 - 1; a seed is a whole number >= 0.
      const auto first = text.find_first_not_of(" \t");
      if (first == std::string::npos || text[first] == '-' || text[first] == '+')
        return "'" + text + "' is not a seed (a whole number from 0 to 2^64 - 1)";
      return {};
    },
    "UINT64");

const CLI::Validator kNotEmpty(
    [](std::string& text) -> std::string {
      return text.find_first_not_of(" \t") == std::string::npos ? "must not be empty" : "";
    },
    "TEXT");

void addSelectionOptions(CLI::App& sub, Selection& sel, const char* defaultSuite) {
  sub.add_option("--suite", sel.suite,
                 std::string("Preset name (resources/presets) or a preset .json file; default ") +
                     defaultSuite + " unless --shapes is given")
      ->check(kNotEmpty);
  sub.add_option("--kernels", sel.kernels,
                 "Comma-separated kernel ids, or all / stages / references (default: the suite's)")
      ->check(kNotEmpty);
  sub.add_option("--shapes", sel.shapes, "Comma-separated shapes: 512 (=512^3) or 256x384x640")
      ->check(kNotEmpty);
  sub.add_option("--seed", sel.seed, "Seed of the input generator (recorded in the results)")
      ->check(kSeed);
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
  if (fs::exists(p, ec) && !fs::is_regular_file(p, ec))
    throw InputError("cannot write '" + path +
                     "': not a regular file (a device, FIFO or socket is never replaced)");
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  if (!fs::is_directory(dir, ec))
    throw InputError("cannot write '" + path + "': folder '" + dir.string() + "' does not exist");
  if (::access(dir.c_str(), W_OK) != 0)
    throw InputError("cannot write '" + path + "': folder '" + dir.string() + "' is not writable");
  if (fs::exists(p, ec) && ::access(p.c_str(), W_OK) != 0)
    throw InputError("cannot write '" + path + "': the file is not writable");
}

void checkDistinct(const std::vector<std::pair<std::string, std::string>>& files) {
  namespace fs = std::filesystem;
  auto same = [](const std::string& a, const std::string& b) {
    std::error_code ec;
    if (fs::equivalent(a, b, ec)) return true;
    const fs::path ca = fs::weakly_canonical(a, ec), cb = fs::weakly_canonical(b, ec);
    return ca == cb;
  };
  for (std::size_t i = 0; i < files.size(); ++i)
    for (std::size_t k = i + 1; k < files.size(); ++k) {
      const auto& [optA, a] = files[i];
      const auto& [optB, b] = files[k];
      if (a.empty() || b.empty() || a == "-" || b == "-") continue;
      if (same(a, b))
        throw InputError(optA == "input"
                             ? "cannot write '" + b + "' (" + optB + "): it is the input file"
                             : optA + " and " + optB + " name the same file '" + b +
                                   "'; give each output its own file");
    }
}

void writeOutputs(const std::vector<Output>& outputs) {
  std::vector<std::string> written;
  for (const auto& o : outputs) {
    if (o.path.empty()) continue;
    try {
      writeTextFile(o.path, o.text());
    } catch (const InputError& e) {
      std::string done;
      for (const auto& w : written) done += (done.empty() ? "" : ", ") + ("'" + w + "'");
      throw InputError(std::string(e.what()) +
                       (written.empty() ? "; nothing was written" : "; already written: " + done));
    }
    written.push_back(o.path);
  }
}

}  // namespace kwb::cli
