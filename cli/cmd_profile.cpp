// SPDX-License-Identifier: Apache-2.0
// kwb profile: one case under Nsight Compute (--set full), its report kept beside the results,
// and the figures a kernel engineer reads first (docs/MEASUREMENT.md, "Profiling one case").
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "commands.h"
#include "kwb/child_process.h"
#include "kwb/error.h"
#include "kwb/family.h"
#include "kwb/ncu_profile.h"
#include "kwb/output_files.h"
#include "kwb/results.h"
#include "output.h"
#include "run_options.h"

namespace kwb::cli {
namespace {

struct ProfileOpts {
  std::string kernel, out = ".", ncu, json;
  // The case's size as `kwb run` takes it: --shape(s) for GEMM, else --sizes, --types, --axis;
  // the family is the kernel's unless --family names it.
  std::string family, shape, sizes, types;
  std::vector<std::string> axes;
  int launchCount = 8;
  double timeoutS = 600;
  bool locate = false;
};

std::string tail(const std::string& path, std::size_t chars) {
  std::string text;
  try {
    text = readTextFile(path, "ncu log", 64u << 20);
  } catch (const std::exception&) {
    return "";
  }
  return text.size() > chars ? "..." + text.substr(text.size() - chars) : text;
}

std::string figuresTable(const NcuProfile& p) {
  std::vector<std::vector<std::string>> rows{
      {"kernel", "time us", "SM %", "memory %", "occupancy %", "DRAM MB", "top stall"}};
  for (const auto& k : p.kernels)
    rows.push_back({k.name.substr(0, 48), fixed(k.durationUs, 2), fixed(k.smThroughputPct, 1),
                    fixed(k.memoryThroughputPct, 1), fixed(k.achievedOccupancyPct, 1),
                    fixed(k.dramBytes / 1e6, 2),
                    k.topStall.empty() ? "-"
                                       : k.topStall + " (" + fixed(k.topStallCyclesPerIssue, 2) +
                                             " cycles/issue)"});
  return formatTable(rows);
}

// Per kernel (its launches' mean): where it ran and what it moved; empty for a table that
// lacks launch statistics.
std::string launchTable(const NcuProfile& p) {
  std::vector<std::vector<std::string>> rows{{"kernel", "grid", "block", "regs", "smem KiB",
                                              "occupancy % (theor./achieved)", "waves/SM",
                                              "DRAM GB/s", "L2 GB/s", "L1 GB/s"}};
  for (const auto& k : ncuMeanPerKernel(p)) {
    if (!k.hasLaunchStatistics()) continue;
    rows.push_back({k.name.substr(0, 48), k.grid, k.block, fixed(k.registersPerThread, 0),
                    fixed(k.sharedMemPerBlockBytes / 1024, 1),
                    fixed(k.theoreticalOccupancyPct, 1) + " / " + fixed(k.achievedOccupancyPct, 1),
                    fixed(k.wavesPerSm, 2), fixed(k.dram.bytesPerSecond / 1e9, 0),
                    fixed(k.l2.bytesPerSecond / 1e9, 0), fixed(k.l1.bytesPerSecond / 1e9, 0)});
  }
  if (rows.size() == 1) return "";
  const NcuPerCase per = ncuPerCase(p);
  return formatTable(rows) + "DRAM per launch of the case: " + fixed(per.dramBytes / 1e6, 2) +
         " MB (" + std::to_string(per.caseLaunches) + " launches profiled)\n";
}

// The option that picks the value of axis `a` of size `s`: for a message.
std::string optionOf(const CaseSize& s, const SizeAxis& a) {
  if (isGemm(s)) return "--shape";
  if (a.name == "type") return "--types";
  if (a.isNumber() && a.unit.empty()) return "--sizes";
  return "--axis " + a.name + "=V";
}

// The one case the options name, resolved as `kwb run` resolves them (cli/run_options.h), in
// the kernel's family unless --family names another. Throws InputError naming the option when
// they name no size, or more than one.
CaseSize profiledSize(const ProfileOpts& o, const KernelDescriptor& k) {
  const std::string family = o.family.empty() ? k.problem : o.family;
  if (o.shape.empty() && o.sizes.empty())
    throw InputError("kwb profile needs the case's size: " + k.id + " is of the " + family +
                     " family, which takes " +
                     (family == "gemm" ? "--shape (512 or MxNxK)"
                                       : "--sizes (one size, as kwb run --family " + family +
                                             " takes it), with --types or --axis as needed"));
  if (family != "gemm" && !o.shape.empty())
    throw InputError("--shape is for gemm kernels; " + k.id + " is of the " + family +
                     " family, which takes --sizes (" + sizeGrammar(findFamily(family)) + ")");
  if (family == "gemm" && !o.shape.empty()) {
    try {
      parseShapeList(o.shape);
    } catch (const InputError& e) {
      throw InputError("--shape " + o.shape + ": " + e.what());
    }
  }
  cuda::Selection sel;
  sel.kernels = k.id;
  sel.family = family;
  sel.shapes = o.shape;
  sel.sizes = o.sizes;
  sel.types = o.types;
  sel.axes = o.axes;
  const std::vector<CaseSize> sizes = resolve(sel, "quick").sizes();
  if (sizes.size() == 1) return sizes.front();
  std::string listed, options;
  for (std::size_t i = 0; i < sizes.size() && i < 4; ++i)
    listed += (i ? ", " : "") + sizeLabel(sizes[i]);
  for (std::size_t a = 0; a < sizes.front().axes.size(); ++a) {
    const SizeAxis& first = sizes.front().axes[a];
    const bool varies = std::any_of(sizes.begin(), sizes.end(),
                                    [&](const CaseSize& s) { return !(s.axes[a] == first); });
    const std::string option = optionOf(sizes.front(), first);
    if (varies && options.find(option) == std::string::npos)
      options += (options.empty() ? "" : ", ") + option;
  }
  throw InputError("kwb profile profiles one case; the options give " +
                   std::to_string(sizes.size()) + " (" + listed +
                   (sizes.size() > 4 ? ", ..." : "") + "): give one value of " + options);
}

// --out: a folder for the report and ncu's log; made when it is missing and its parent exists
// (as mkdir would), so a typo in a parent folder is refused rather than built.
void outFolder(const std::string& out) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(out, ec)) return;
  if (fs::exists(out, ec)) throw InputError("--out '" + out + "': exists and is not a folder");
  const fs::path parent = fs::absolute(out, ec).parent_path();
  if (!fs::is_directory(parent, ec))
    throw InputError("--out '" + out + "': its parent folder " + parent.string() +
                     " does not exist");
  if (!fs::create_directory(out, ec) && !fs::is_directory(out))
    throw InputError("--out '" + out + "': cannot make the folder: " + ec.message());
}

int profileCommand(const ProfileOpts& o) {
  const std::string engine = thisKwb();
  const std::string engineDir = std::filesystem::path(engine).parent_path().string();
  const auto ncu = o.ncu.empty() ? findNcu(engineDir) : std::optional<std::string>(o.ncu);
  if (!ncu)
    throw InputError("Nsight Compute (ncu) not found beside kwb (" + engineDir +
                     "), on PATH or in /usr/local/cuda/bin; give its path with --ncu");
  if (ncu->find('/') != std::string::npos && ::access(ncu->c_str(), X_OK) != 0)
    throw InputError("Nsight Compute '" + *ncu + "' is not an executable file");
  if (o.locate) {
    std::cout << *ncu << '\n';
    return kExitOk;
  }
  if (o.kernel.empty())
    throw InputError("kwb profile needs --kernel and the case's size (or --locate)");
  checkOutputs({}, {{"--json", o.json}});  // before ncu runs, not after it
  NcuProfile p;
  const KernelDescriptor& kernel = commandRegistry().find(o.kernel);  // InputError naming it
  p.kernel = kernel.id;
  p.size = profiledSize(o, kernel);
  p.config = "default";  // the kernel as registered: kwb profile takes no tuning
  p.gitRevision = KWB_GIT_REVISION;
  p.ncuPath = *ncu;
  outFolder(o.out);
  const std::string base =
      (std::filesystem::path(o.out) / ncuReportStem(p.kernel, p.size)).string();
  p.reportPath = base + ".ncu-rep";
  const std::string log = base + ".ncu.log", csv = base + ".csv";

  std::cerr << "profiling " << p.kernel << " " << sizeLabel(p.size) << " with " << *ncu
            << " --set full (report " << p.reportPath << ")\n";
  const auto run = runProcess(ncuProfileArgs(*ncu, engine, p.kernel, p.size, base, o.launchCount),
                              log, log + ".err", o.timeoutS);
  if (run.timedOut || run.exitCode != 0 || !std::filesystem::exists(p.reportPath)) {
    std::cerr << "kwb profile: ncu "
              << (run.timedOut ? "did not finish within " + fixed(o.timeoutS, 0) + " s"
                               : "failed (exit " + std::to_string(run.exitCode) + ")")
              << "; its output:\n"
              << tail(log, 1500) << tail(log + ".err", 1500) << '\n';
    return kExitCaseFailed;
  }
  const auto imported = runProcess(ncuImportArgs(*ncu, p.reportPath), csv, log + ".err", 120);
  if (imported.exitCode != 0) {
    std::cerr << "kwb profile: ncu --import failed: " << tail(log + ".err", 1500) << '\n';
    return kExitCaseFailed;
  }
  p.kernels = parseNcuRawCsv(readTextFile(csv, "ncu table", 256u << 20), csv);
  if (p.kernels.empty()) {
    std::cerr << "kwb profile: ncu profiled no kernel of " << p.kernel << " " << sizeLabel(p.size)
              << " (log " << log << ")\n";
    return kExitCaseFailed;
  }
  if (o.json == "-")
    std::cout << ncuProfileToJson(p) << '\n';
  else
    std::cout << figuresTable(p) << launchTable(p);
  if (!o.json.empty() && o.json != "-") writeTextFile(o.json, ncuProfileToJson(p) + "\n", "--json");
  return kExitOk;
}

}  // namespace

void addProfileCommand(CLI::App& app, int& exitCode) {
  auto* sub = app.add_subcommand(
      "profile", "Profile one case under Nsight Compute (--set full) and print its key figures");
  auto o = std::make_shared<ProfileOpts>();
  sub->add_option("--kernel", o->kernel, "Kernel id, e.g. sgemm.warp_tiled");
  sub->add_option("--shape,--shapes", o->shape,
                  "A gemm kernel's case: one shape, 512 (=512^3) or 256x384x640")
      ->check(kNotEmpty);
  sub->add_option("--family", o->family,
                  "The case's family (default: the kernel's): gemm, reduce, scan, ...")
      ->check(kNotEmpty);
  sub->add_option("--sizes,--size", o->sizes,
                  "Any other family's case: one size of its axes, as kwb run --sizes takes it: "
                  "2^28, \"2^28 f32\", \"2^24 u8 256 bins\"")
      ->check(kNotEmpty);
  sub->add_option("--types,--type", o->types,
                  "The case's element type where the size leaves it out: f32 or i32 (reduce, "
                  "scan), as kwb run --types")
      ->check(kNotEmpty);
  sub->add_option("--axis", o->axes,
                  "NAME=V: the value of an axis the size leaves out, as kwb run --axis "
                  "(repeatable: --axis bins=256 --axis distribution=zipf)")
      ->allow_extra_args(false)
      ->check(kNotEmpty);
  sub->add_option("--out", o->out, "Folder for the .ncu-rep report and ncu's log (default .)");
  sub->add_option("--ncu", o->ncu, "Path of ncu (default: beside kwb, on PATH, in the toolkit)");
  sub->add_option("--json", o->json, "Write the figures as JSON here ('-': stdout)");
  sub->add_option("--launch-count", o->launchCount, "Kernel launches ncu profiles (default 8)")
      ->check(CLI::Range(1, 1000));
  sub->add_option("--timeout", o->timeoutS, "Give up on ncu after this many seconds")
      ->check(CLI::Range(1.0, 86400.0));
  sub->add_flag("--locate", o->locate, "Only print where ncu is (exit 2 when it is not found)");
  sub->callback([o, &exitCode] { exitCode = profileCommand(*o); });
}

}  // namespace kwb::cli
