// SPDX-License-Identifier: Apache-2.0
// kwb profile: one case under Nsight Compute (--set full), its report kept beside the results,
// and the figures a kernel engineer reads first (docs/MEASUREMENT.md, "Profiling one case").
#include <unistd.h>

#include <filesystem>
#include <iostream>

#include "commands.h"
#include "kwb/child_process.h"
#include "kwb/error.h"
#include "kwb/ncu_profile.h"
#include "kwb/output_files.h"
#include "kwb/results.h"
#include "output.h"

namespace kwb::cli {
namespace {

struct ProfileOpts {
  std::string kernel, shape, out = ".", ncu, json;
  int launchCount = 8;
  double timeoutS = 600;
  bool locate = false;
};

std::string selfPath() {
  std::error_code ec;
  const auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("kwb") : p.string();
}

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

int profileCommand(const ProfileOpts& o) {
  const std::string engine = selfPath();
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
  if (o.kernel.empty() || o.shape.empty())
    throw InputError("kwb profile needs --kernel and --shape (or --locate)");
  checkOutputs({}, {{"--json", o.json}});  // before ncu runs, not after it
  NcuProfile p;
  p.kernel = commandRegistry().find(o.kernel).id;  // throws InputError naming the id
  p.shape = parseShape(o.shape);
  p.config = "default";  // the kernel as registered: kwb profile takes no tuning
  p.gitRevision = KWB_GIT_REVISION;
  p.ncuPath = *ncu;
  std::error_code ec;
  if (!std::filesystem::is_directory(o.out, ec))
    throw InputError("--out '" + o.out + "': not a folder");
  const std::string base =
      (std::filesystem::path(o.out) / ncuReportStem(p.kernel, p.shape)).string();
  p.reportPath = base + ".ncu-rep";
  const std::string log = base + ".ncu.log", csv = base + ".csv";

  std::cerr << "profiling " << p.kernel << " " << toString(p.shape) << " with " << *ncu
            << " --set full (report " << p.reportPath << ")\n";
  const auto run = runProcess(ncuProfileArgs(*ncu, engine, p.kernel, p.shape, base, o.launchCount),
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
    std::cerr << "kwb profile: ncu profiled no kernel of " << p.kernel << " " << toString(p.shape)
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
  sub->add_option("--shape", o->shape, "One shape: 512 (=512^3) or 256x384x640");
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
