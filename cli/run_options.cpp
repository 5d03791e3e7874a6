// SPDX-License-Identifier: Apache-2.0
#include "run_options.h"

#include <unistd.h>

#include <algorithm>
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
  sub.add_option("--family", sel.family,
                 "Problem family: gemm, reduce or scan (default: the suite's; docs/FAMILIES.md)")
      ->check(kNotEmpty);
  sub.add_option("--shapes", sel.shapes, "Comma-separated shapes: 512 (=512^3) or 256x384x640")
      ->check(kNotEmpty);
  sub.add_option("--sizes", sel.sizes,
                 "1-D families: comma-separated element counts, N or 2^K (2^20,1000003,0)")
      ->check(kNotEmpty);
  sub.add_option("--types", sel.types, "1-D families: element types, f32 and/or i32 (default both)")
      ->check(kNotEmpty);
  sub.add_option("--seed", sel.seed, "Seed of the input generator (recorded in the results)")
      ->check(kSeed);
  sub.add_option("--device", sel.device, "CUDA device index")->check(CLI::NonNegativeNumber);
}

CLI::Option* addTimerOption(CLI::App& sub, std::string& timer) {
  timer = std::string(toString(kDefaultTimer));
  return sub
      .add_option("--timer", timer,
                  "What clock times a sample: back-to-back (default; launches replayed from a CUDA "
                  "graph), isolated (launches queued behind a blocking kernel), cupti (CUPTI's "
                  "kernel durations) or host (host-inclusive, dispatch included)")
      ->check(CLI::IsMember({"isolated", "back-to-back", "cupti", "host"}));
}

namespace {
std::vector<ElementType> parseTypes(std::string_view text) {
  std::vector<ElementType> out;
  std::size_t start = 0;
  while (true) {
    const auto comma = text.find(',', start);
    const ElementType t = parseElementType(text.substr(start, comma - start));
    if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}
}  // namespace

ResolvedSelection resolve(const Selection& sel, const char* defaultSuite) {
  ResolvedSelection out;
  const Family* named = sel.family.empty() ? nullptr : &findFamily(sel.family);
  const bool oneD = named && named->oneDimensional;
  if (oneD && !sel.shapes.empty())
    throw InputError("--shapes is for the gemm family; the " + named->id +
                     " family takes --sizes (element counts)");
  if (!oneD && named && !sel.sizes.empty())
    throw InputError("--sizes is for the 1-D families (reduce, scan); gemm takes --shapes");
  std::string kernelList = "all";
  const bool sizesGiven = oneD ? !sel.sizes.empty() : !sel.shapes.empty();
  if (!sel.suite.empty() || !sizesGiven) {
    const std::string suiteName = !sel.suite.empty() ? sel.suite
                                  : oneD             ? named->id + "-benchmark"
                                                     : std::string(defaultSuite);
    const Suite suite = loadSuite(suiteName, defaultPresetsDir(KWB_PRESETS_DIR));
    if (named && suite.family != named->id)
      throw InputError("suite '" + suite.name + "' is of the " + suite.family + " family, not " +
                       named->id);
    out.suiteName = suite.name;
    out.family = &findFamily(suite.family);
    out.shapes = suite.shapes;
    out.counts = suite.counts;
    out.types = suite.types;
    kernelList = suite.kernels;
  }
  if (!out.family) out.family = named ? named : &findFamily("gemm");
  if (out.family->oneDimensional) {
    if (!sel.shapes.empty())
      throw InputError("--shapes is for the gemm family; the " + out.family->id +
                       " family takes --sizes (element counts)");
    if (!sel.sizes.empty()) out.counts = parseCountList(sel.sizes);
    if (!sel.types.empty()) out.types = parseTypes(sel.types);
    if (out.types.empty()) out.types = {ElementType::kFloat32, ElementType::kInt32};
  } else {
    if (!sel.sizes.empty() || !sel.types.empty())
      throw InputError("--sizes and --types are for the 1-D families (reduce, scan); suite '" +
                       out.suiteName + "' is of the gemm family");
    if (!sel.shapes.empty()) out.shapes = parseShapeList(sel.shapes);
  }
  if (!sel.kernels.empty()) kernelList = sel.kernels;
  for (const KernelDescriptor* k : commandRegistry().select(kernelList)) {
    if (k->problem == out.family->id)
      out.kernels.push_back(k);
    else if (kernelList != "all" && kernelList != "stages" && kernelList != "references")
      throw InputError("kernel " + k->id + " is of the " + k->problem + " family, not " +
                       out.family->id + " (give --family " + k->problem + ")");
  }
  if (out.kernels.empty())
    throw InputError("no " + out.family->id + " kernels selected by '" + kernelList +
                     "' (kwb list shows the kernels of each family)");
  return out;
}

std::vector<CaseSize> ResolvedSelection::sizes() const {
  std::vector<CaseSize> out;
  if (!family->oneDimensional) {
    for (const Shape& s : shapes) out.push_back(gemmSize(s));
    return out;
  }
  for (const std::int64_t n : counts)
    for (const ElementType t : types)
      out.push_back(vectorSize(family->id, n, std::string(toString(t))));
  return out;
}

std::vector<cuda::PlanCase> orderedPlan(const ResolvedSelection& sel) {
  return cuda::orderPlan(sel.kernels, sel.sizes());
}

cuda::RunConfig baseRunConfig(const std::string& suite, std::uint64_t seed, int device) {
  cuda::RunConfig cfg;
  cfg.suite = suite;
  cfg.seed = seed;
  cfg.device = device;
  cfg.toolVersion = KWB_VERSION;
  cfg.gitRevision = KWB_GIT_REVISION;
  return cfg;
}

double parsePercent(const std::string& text, const char* option) {
  std::string s = text;
  if (!s.empty() && s.back() == '%') s.pop_back();
  std::size_t used = 0;
  double v = NAN;
  try {
    v = std::stod(s, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != s.size() || s.empty() || !std::isfinite(v) || v < 0 || v > 1000)
    throw InputError(std::string(option) + " '" + text +
                     "': expected a percentage from 0 to 1000, e.g. 3%");
  return v / 100.0;
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
