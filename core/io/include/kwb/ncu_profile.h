// SPDX-License-Identifier: Apache-2.0
#pragma once
// One case profiled by Nsight Compute (`kwb profile`, the GUI's "Profile with Nsight Compute"):
// the command that runs it, and the key figures read back from the report's raw page.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kwb/case_size.h"

namespace kwb {

// One warp stall reason: warp cycles stalled on it per issued instruction
// (smsp__average_warps_issue_stalled_<reason>_per_issue_active.ratio).
struct NcuStall {
  std::string reason;  // "long_scoreboard"
  double cyclesPerIssue = 0;
  friend bool operator==(const NcuStall&, const NcuStall&) = default;
};

// Bytes moved at one level of the memory hierarchy and their rate over the launch.
struct NcuTraffic {
  double bytes = 0;
  double bytesPerSecond = 0;
  friend bool operator==(const NcuTraffic&, const NcuTraffic&) = default;
};

// What a kernel engineer looks at first, per profiled kernel launch.
struct NcuKernelFigures {
  std::string name;
  double durationUs = 0;
  double smThroughputPct = 0;       // sm__throughput, % of peak sustained
  double memoryThroughputPct = 0;   // gpu__compute_memory_throughput, % of peak sustained
  double achievedOccupancyPct = 0;  // sm__warps_active, % of peak sustained active
  double dramBytes = 0;             // dram__bytes.sum
  std::string topStall;             // the stall reason with most cycles per issued instruction
  double topStallCyclesPerIssue = 0;

  // Launch statistics (empty and 0 in a profile recorded before kwb read them).
  std::string grid, block;             // "(8, 16, 1)": ncu's Grid Size and Block Size
  double registersPerThread = 0;       // launch__registers_per_thread
  double sharedMemPerBlockBytes = 0;   // launch__shared_mem_per_block_static + _dynamic
  double theoreticalOccupancyPct = 0;  // sm__maximum_warps_per_active_cycle_pct
  double wavesPerSm = 0;               // launch__waves_per_multiprocessor
  // Every stall reason recorded, most cycles first ("selected" and "not_selected" left out).
  std::vector<NcuStall> stalls;
  // Memory traffic: dram__bytes, lts__t_bytes (L2), l1tex__t_bytes (L1/TEX), with .per_second.
  double dramReadBytes = 0, dramWriteBytes = 0;
  NcuTraffic dram, l2, l1;

  bool hasLaunchStatistics() const { return !grid.empty() || registersPerThread > 0; }
  bool hasMemoryTraffic() const { return l2.bytes > 0 || l1.bytes > 0; }
};

struct NcuProfile {
  std::string kernel;  // kwb kernel id
  // The case's size, of any family: a GEMM shape (gemmSize) or a 1-D family's count and axes.
  CaseSize size;
  // What the profile belongs to beside the case: the configuration profiled ("default": the
  // kernel as registered, which `kwb profile` runs) and the git revision of the kwb that ran
  // it. Empty in a profile written before they were recorded: such a profile names no
  // revision, and the GUI marks it stale (docs/GUI.md, "The case dialog").
  std::string config;
  std::string gitRevision;
  std::string ncuPath;
  std::string reportPath;  // the .ncu-rep kept for Nsight Compute's own viewer
  std::vector<NcuKernelFigures> kernels;
};

// The metrics kwb reads beyond those `--set full` is sure to record, asked for with ncu's
// --metrics: launch statistics, theoretical occupancy and the traffic at DRAM, L2 and L1.
const std::vector<std::string>& ncuExtraMetrics();

// A profile's launches of the case: ncu profiles `--launch-count` kernel launches, and a case
// may launch more than one kernel each time (a split-K GEMM and its reduction). The launches
// of the case are counted by its first kernel; their DRAM bytes and time are per launch of it.
struct NcuPerCase {
  int caseLaunches = 0;
  double dramBytes = 0;   // every kernel's DRAM bytes over the profile ÷ caseLaunches
  double durationUs = 0;  // every kernel's ncu time ÷ caseLaunches
};
NcuPerCase ncuPerCase(const NcuProfile& p);
// One entry per kernel name, in order of first launch: the mean of its launches' figures (its
// stalls matched by reason, most first again), the launch statistics of its first launch.
std::vector<NcuKernelFigures> ncuMeanPerKernel(const NcuProfile& p);

// Parses `ncu --import R --csv --page raw --print-units base`: a header row starting with
// "ID", an optional units row, then one row per profiled launch. Missing metrics read 0.
// Throws InputError naming `source` when the text has no header or a row is malformed.
std::vector<NcuKernelFigures> parseNcuRawCsv(std::string_view csv, std::string_view source);

// A kernel name as people read it: a mangled name ("_Z...") demangled, and ncu's text for an
// anonymous namespace ("<unnamed>::", or "unnamed>::" with its '<' lost) written as C++ does,
// "(anonymous namespace)::". Other names are returned as given.
std::string readableKernelName(std::string_view name);

// The argument lists kwb runs. The profiled run times the case once with the host timer (which
// never holds the stream, so ncu's serialised replay cannot wait on it), limited to the NVTX
// range of the timed samples, leaving out the timer's clock probe.
// The profiled command is `kwb run --kernels K` with caseSizeOptions(size, "--shapes").
std::vector<std::string> ncuProfileArgs(const std::string& ncu, const std::string& kwb,
                                        const std::string& kernel, const CaseSize& size,
                                        const std::string& reportBase, int launchCount);
std::vector<std::string> ncuImportArgs(const std::string& ncu, const std::string& report);

// The options that name one case's size to `kwb run` and `kwb profile`: a GEMM size as
// {shapeOption, "512x512x512"} (`kwb run` takes --shapes, `kwb profile` --shape as it always
// has), any other family's as {"--family", "reduce", "--sizes", "2^28 f32"}: the size's label
// names every axis, so the run crosses it with nothing and runs exactly this case.
std::vector<std::string> caseSizeOptions(const CaseSize& size, const std::string& shapeOption);

// A file name for the report of one case: "sgemm.warp_tiled-512x512x512",
// "reduce.vectorized-2^28-f32", "histogram.shared_atomics-2^24-256-bins-u8-uniform" (a space
// is '-', any character other than a letter, digit, '.', '_', '-' or '^' is '_').
std::string ncuReportStem(const std::string& kernel, const CaseSize& size);

// Where Nsight Compute is: `ncu` beside the engine, then on PATH, then in the CUDA toolkit.
std::optional<std::string> findNcu(const std::string& engineDir);

// The profile as `kwb profile --json` writes it (core/io/src/ncu_profile_json.cpp): its size as a
// results document writes a case's ("size": family and axes), and a GEMM size also as "shape"
// ("512x512x512"), which a profile written before "size" carries alone and still reads.
std::string ncuProfileToJson(const NcuProfile& p);
NcuProfile ncuProfileFromJson(std::string_view text, std::string_view source);

}  // namespace kwb
