// SPDX-License-Identifier: Apache-2.0
// kwb conformance — the sub-group (warp tile) conformance suite (docs/CONFORMANCE.md) on one
// device.
#include <cuda_runtime_api.h>

#include <chrono>
#include <iostream>
#include <sstream>

#include "commands.h"
#include "conformance_subgroup.h"
#include "kwb/conformance.h"
#include "kwb/cuda/check.h"
#include "kwb/cuda/device.h"
#include "kwb/error.h"
#include "kwb/output_files.h"
#include "kwb/results.h"
#include "kwb/run_info.h"
#include "run_options.h"

namespace kwb::cli {

namespace {

std::string formatLaunch(const SubgroupLaunch& l, int warpSize) {
  const std::int64_t threads = l.threadsPerBlock();
  const std::int64_t lastWarp = threads % warpSize;
  std::ostringstream os;
  os << "launch: block " << l.block[0] << "x" << l.block[1] << "x" << l.block[2] << " = " << threads
     << " threads (" << (threads + warpSize - 1) / warpSize << " warps, ";
  if (lastWarp == 0)
    os << "all full";
  else
    os << "the last with " << lastWarp << " of " << warpSize << " threads";
  os << "), grid " << l.grid[0] << "x" << l.grid[1] << "x" << l.grid[2] << " = " << l.blocks()
     << " blocks, " << l.items() << " items\n";
  return os.str();
}

std::string formatRun(const SubgroupRun& run) {
  std::ostringstream os;
  os << "tile size " << run.tileSize << ": ";
  if (!run.error.empty()) {
    os << "ERROR " << run.error << '\n';
    return os.str();
  }
  os << run.tiles << " tiles, " << run.incompleteTiles << " incomplete\n";
  for (const auto& c : run.checks) {
    os << "  " << (c.passed ? "PASS" : "FAIL") << "  " << c.id;
    if (c.id.size() < 22) os << std::string(22 - c.id.size(), ' ');
    os << "  " << c.description;
    if (c.notJudged > 0) os << " [" << c.notJudged << " not judged]";
    os << '\n';
    if (!c.passed) {
      for (const auto& o : c.offenders) os << "        " << o << '\n';
      const auto more = c.failures - std::int64_t(c.offenders.size());
      if (more > 0) os << "        ... and " << more << " more (" << c.failures << " in all)\n";
    }
  }
  return os.str();
}

}  // namespace

void addConformanceCommand(CLI::App& app, int& exitCode) {
  auto* sub = app.add_subcommand(
      "conformance",
      "Run the sub-group (warp tile) conformance suite conformance.subgroup: exit 0 when every "
      "check passes, 1 when one fails, 3 when there is no device");
  struct Opts {
    int index = 0;
    std::string json;
  };
  auto o = std::make_shared<Opts>();
  sub->add_option("--device", o->index, "Device index")->check(kDeviceIndex);
  sub->add_option("--json", o->json, "Also write the results document, report included, to FILE");
  sub->callback([o, &exitCode] {
    checkOutputs({}, {{"--json", o->json}});  // before the suite, not after it (exit 2)
    const auto start = std::chrono::steady_clock::now();
    const DeviceInfo d = cuda::queryDevice(o->index);  // throws NoDeviceError → exit 3
    KWB_CUDA_CHECK(cudaSetDevice(o->index));
    const SubgroupLaunch launch = conformanceLaunch(
        {d.maxBlockDim[0], d.maxBlockDim[1], d.maxBlockDim[2]}, d.maxThreadsPerBlock);

    std::cout << kernels::kSubgroupProbeId << " on device " << d.index << ": " << d.name << " (sm_"
              << d.ccMajor << d.ccMinor << "), warp size " << d.warpSize << '\n'
              << formatLaunch(launch, d.warpSize);

    ConformanceReport report;
    report.warpSize = d.warpSize;
    for (int tileSize : kConformanceTileSizes) {
      SubgroupRun run;
      try {
        run = checkSubgroupRecords(kernels::runSubgroupProbe(launch, tileSize), launch, tileSize,
                                   d.warpSize);
      } catch (const cuda::CudaError& e) {
        // Recorded, and the suite goes on: the next tile size says whether the context lives.
        run.tileSize = tileSize;
        run.launch = launch;
        run.items = launch.items();
        run.error = e.what();
      }
      std::cout << formatRun(run);
      report.runs.push_back(std::move(run));
    }

    int failedRuns = 0;
    for (const auto& r : report.runs) failedRuns += r.passed() ? 0 : 1;
    std::cout << "conformance: " << (report.passed() ? "PASS" : "FAIL") << " ("
              << report.runs.size() - std::size_t(failedRuns) << " of " << report.runs.size()
              << " tile sizes pass)\n";

    if (!o->json.empty()) {
      RunDocument doc = stampedDocument(KWB_VERSION, KWB_GIT_REVISION);
      doc.device = d;
      doc.settings.suite = kernels::kSubgroupProbeId;
      doc.conformance = report;
      doc.wallSeconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      writeOutputs({{o->json, [&] { return toJsonText(doc); }, "--json"}});  // InputError → 2
    }
    exitCode = report.passed() ? kExitOk : kExitCaseFailed;
  });
}

}  // namespace kwb::cli
