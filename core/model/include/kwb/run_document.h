// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kwb/compare.h"
#include "kwb/conformance.h"
#include "kwb/device_info.h"
#include "kwb/energy.h"
#include "kwb/family_info.h"
#include "kwb/kernel_descriptor.h"
#include "kwb/kernel_info.h"
#include "kwb/paired.h"
#include "kwb/replicates.h"
#include "kwb/shape.h"
#include "kwb/shard.h"
#include "kwb/stats.h"
#include "kwb/timer.h"
#include "kwb/tune_config.h"

namespace kwb {

// Bumped on any incompatible change (docs/RESULTS.md). Version 6 writes every case's size as
// its family's named axes ("problem" and "size") and lists the families (axes, headline
// figure, roof, reference), so a reader needs no table of families. Version 5 takes samples in
// rounds spread over the run (each sample's round, the CI from between-round variation, both
// variance components) and measures "% of reference" from paired samples; version 4 adds problem
// families (a case's problem, count, elementType and figures map; the device's copy bandwidth);
// version 3 writes a tuning sweep's configurations as cases; version 2 named the timer of every
// figure; versions 1 to 3 are still read (version 1's timing marked host-inclusive, figures derived
// from the GEMM fields before version 4).
// Version 7 names the device of every case (an index into the document's `devices`, so a merged
// document keeps several) and a shard's part of its plan (`shard`) or a merge's parts (`merged`).
inline constexpr int kSchemaVersion = 7;
inline constexpr int kOldestReadableSchema = 1;

enum class CaseStatus { kPass, kFail, kFallback, kInvalid, kError, kCrashed, kSkipped };
std::string_view toString(CaseStatus s);
CaseStatus parseCaseStatus(std::string_view text);  // throws InputError
// pass and fallback are good; everything else makes `kwb` exit 1.
inline bool isGood(CaseStatus s) { return s == CaseStatus::kPass || s == CaseStatus::kFallback; }

struct Verification {
  std::string reference;  // kernel id or "cpu.fp64" the output was compared with
  std::uint64_t seed = 0;
  Tolerance tolerance;
  std::int64_t unwritten = 0;  // canary elements left after a beta = 0 launch
  CompareReport compare;       // alpha = 1, beta = 0 on canary-filled C
  bool negativeControlRejected = false;
  std::optional<CompareReport> alphaBeta;  // alpha ≠ 1, beta ≠ 0 on a prefilled C
  // NaN elements in the output of a launch on an output filled with quiet NaNs (GEMM: alpha = 1,
  // beta = 0; 1-D float outputs): > 0 means the kernel read an output it must only write.
  // Absent where the check did not run (documents before it, integer outputs).
  std::optional<std::int64_t> nanFromOutput;
  // The output of the case's last timed launch against the reference of the inputs it read
  // (docs/VALIDATION.md, "Timed launches"); absent where it was not checked.
  std::optional<CompareReport> timedOutput;
};

// NVML samples taken while the case ran; `available` false where NVML could not load.
struct ClockSample {
  bool available = false;
  double smClockMhzMin = 0, smClockMhzMax = 0;
  double temperatureCMax = 0;
  double powerWMean = 0;
  std::vector<std::string> throttleReasons;
};

// One kernel a case launched, from CUPTI's activity records: a cuBLAS call or a split-K
// stage is several kernels.
struct KernelRecord {
  std::string name;      // demangled, without the parameter list
  double perLaunch = 0;  // how many of it one launch of the case runs
  double medianMs = 0;   // median duration of one instance on the GPU
};

struct CaseResult {
  std::string kernel;
  CaseSize size;  // the problem family and the size: "gemm" 512x512x512, "reduce" 2^20 f32
  Precision precision = Precision::kFp32;
  CaseStatus status = CaseStatus::kSkipped;
  std::string message;     // why it failed, errored or was skipped
  bool fallback = false;   // the tensor-core stage ran its FP32 path
  std::string ranKernel;   // what actually ran (differs from `kernel` on fallback)
  std::string sourcePath;  // user kernels (kwb run --source): the .cu file
  std::string sourceHash;  // and the hash of its text and compile options
  std::optional<Verification> verification;
  // Timing: every sample kept, milliseconds per launch.
  std::vector<double> samplesMs;
  // The round of the run each sample was taken in (same length as samplesMs; empty before
  // schema 5, read as one round). Rounds go round-robin over the run's cases.
  std::vector<int> sampleRounds;
  stats::Uncertainty uncertainty;  // what the CI in `summary` is made of
  int launchesPerSample = 1;
  bool coldL2 = false;
  TimerMode timer = kDefaultTimer;        // the timer that made samplesMs
  std::string timerNote;                  // why another timer than the requested one was used
  int throttledSamples = 0;               // dropped: SM clock below 90% of the warm-up clock
  double warmupSmClockMhz = 0;            // SM clock measured on the device after warm-up
  std::vector<KernelRecord> kernels;      // CUPTI's view of one launch; empty without CUPTI
  std::optional<double> cuptiMedianMs;    // median per-launch sum of kernel durations
  std::optional<double> timerVsCuptiPct;  // (median - cuptiMedianMs) / cuptiMedianMs, in %
  stats::Summary summary;
  double gflops = 0.0;
  std::optional<double> pctOfFp32Reference;  // vs cublas.sgemm on the same shape
  std::optional<double> pctOfFp16Reference;  // vs cublas.hgemm_f32acc (tensor-core stages)
  std::optional<double> pctOfBf16Reference;  // vs cublas.bgemm_f32acc (BF16-input stages)
  // The % of its 16-bit tensor-core reference: cuBLAS FP16, or cuBLAS BF16 for a BF16 stage.
  std::optional<double> pctOf16BitReference() const {
    return pctOfFp16Reference ? pctOfFp16Reference : pctOfBf16Reference;
  }
  // Every "% of reference" above and in `figures`, measured from paired samples (schema 5):
  // one entry per reference the case was paired with.
  std::vector<PairedRatio> paired;
  double arithmeticIntensity = 0.0;  // FLOP per byte of the minimum traffic
  double bandwidthGBs = 0.0;         // minimum traffic / median time
  ClockSample clocks;
  // Input sets the timed launches rotated through (kwb run --fresh-inputs); 1: one set.
  int inputSets = 1;
  // Why the case's time is below what the device allows (kwb/plausibility.h); empty: plausible.
  // A suspicious case fails.
  std::string suspicious;
  // The figures of the case, keyed: "gflops", "gbps", "pct_of_reference", "pct_of_peak"
  // (derived by the framework from the family's declared work and the median time).
  std::map<std::string, double> figures;
  // The configuration a tuning sweep ran (the kernel id then names it too); absent otherwise.
  std::optional<TuneConfig> config;
  // The device that ran it: an index into RunDocument::devices (schema 7); -1: none (a case of a
  // shard that never ran). Documents before schema 7 read as 0, their one device.
  int device = 0;
  // kwb run --energy: the case's energy window (kwb/energy.h); absent when not asked for.
  std::optional<EnergyReading> energy;

  bool timed() const { return !samplesMs.empty(); }
  const std::string& problem() const { return size.family; }
  Shape shape() const { return shapeOf(size); }  // a GEMM case's shape (0x0x0 for others)
  // The paired ratio against `reference`, if the case was paired with it.
  const PairedRatio* pairedWith(std::string_view reference) const;
};

// What a tuning sweep chose for one tuned shape and the shapes of its bucket
// (kwb/tune_buckets.h): those whose 2·M·N·K lies in [minFlops, maxFlops).
struct TuneChoice {
  Shape shape;
  double minFlops = 0.0;
  double maxFlops = 0.0;  // infinite for the largest tuned shape (written as null)
  std::string config;     // the fastest configuration on `shape`, or "default"
  double gflops = 0.0;    // the winner's rate on `shape`; 0 when nothing was timed there
};

// A tuning sweep (`kwb tune`): every configuration of one kernel, and the kernel as
// registered ("default"), on one or more shapes.
struct TuneGrid {
  std::string kernel;  // the tunable kernel id, "sgemm.warp_tiled"
  Shape shape;         // the first tuned shape (the only one before per-shape buckets)
  std::uint64_t seed = 0;
  std::vector<CaseResult> results;  // shape by shape, each in the kernel's order
  std::string best;                 // the fastest timed configuration on `shape`; empty if none
  std::vector<TuneChoice> choices;  // one per tuned shape, in increasing FLOPs
};

struct KnownAnswer {
  bool ran = false;
  bool passed = false;
  std::string detail;
  Shape shape;
  double maxRelError = 0.0;
};

struct ProgressionViolation {
  Shape shape;
  std::string from;  // earlier stage id
  std::string to;    // later stage id, slower than `from`
  double fromGflops = 0.0;
  double toGflops = 0.0;
  // The two medians' 95% confidence intervals overlap: the drop may be measurement noise.
  // Still reported (the rule is strict); this says how much to believe it.
  bool withinNoise = false;
  std::string size = {};  // sizeLabel of the cases: the shape, or "2^20 f32" (schema 4)
  // The later stage's ProgressionNote that covers this case, if any: a known, measured cause.
  // Still a violation; this says why.
  std::string explanation = {};
};

struct ProgressionCheck {
  bool checked = false;
  std::vector<ProgressionViolation> violations;
};

struct RunSettings {
  std::string suite;  // preset name or file, empty for --shapes
  std::uint64_t seed = 0;
  bool verifyOnly = false;
  bool coldL2 = false;
  int warmups = 0;
  int minSamples = 0;
  int maxSamples = 0;
  double minTimeS = 0;
  double maxTimeS = 0;
  double maxNoise = 0;
  TimerMode timer = kDefaultTimer;
  bool cuptiCheck = true;  // each case also timed by CUPTI, its kernels listed
  int replicates = 1;      // rounds each case's samples are spread over (schema 5)
  int freshInputs = 1;     // input sets rotated through the timed launches (--fresh-inputs)
  // An outside profiler kwb found itself running under ("Nsight Compute", "Nsight Systems"),
  // which chose the timer and turned the CUPTI check off; empty when none.
  std::string profiler;
  // kwb run --energy SECONDS: each timed case's energy window (kwb/energy.h); 0: none.
  double energySeconds = 0;
};

// The fixed GPU-side cost of one launch, measured with an empty kernel per timer: reported
// beside the figures, never subtracted from them.
struct LaunchOverhead {
  double isolatedUs = 0;
  double backToBackUs = 0;
};

struct RunDocument {
  int schemaVersion = kSchemaVersion;
  std::string toolVersion;
  std::string gitRevision;
  std::string timestamp;  // ISO 8601 UTC
  std::string host;
  std::optional<DeviceInfo> device;  // the run's device; a merged document's first
  // Every device the cases ran on (schema 7), device first; empty in a run's document, which
  // has `device` alone (deviceList()). A merged document of several GPUs lists each once.
  std::vector<DeviceInfo> devices;
  RunSettings settings;
  // Every kernel the document names (cases, tuning), as the engine that ran it registered it;
  // read from the compatibility table for documents that predate the list.
  std::vector<KernelInfo> kernels;
  // Every problem family the cases are of (schema 6); read from legacyFamilyInfo for older
  // documents.
  std::vector<FamilyInfo> families;
  KnownAnswer knownAnswer;
  std::vector<CaseResult> cases;
  ProgressionCheck progression;
  std::optional<ConformanceReport> conformance;  // `kwb conformance`; absent for runs
  std::optional<TuneGrid> tuning;                // `kwb tune`; absent for runs
  std::optional<LaunchOverhead> launchOverhead;  // absent where nothing was timed
  double wallSeconds = 0.0;
  std::optional<ShardInfo> shard;   // `--shard I/N`: which part of which plan
  std::optional<MergeInfo> merged;  // `kwb merge`: the parts joined, missing and failed

  // `devices`, or `device` alone where the list is empty.
  std::vector<DeviceInfo> deviceList() const;
  // The device case `c` ran on; null when none (no device, or a hole of a merge).
  const DeviceInfo* deviceOf(const CaseResult& c) const;
  // The GPU model `c` ran on ("NVIDIA H100 80GB HBM3"); empty when none.
  std::string deviceModel(const CaseResult& c) const;

  const CaseResult* find(std::string_view kernel, const CaseSize& size) const;
  const CaseResult* find(std::string_view kernel, const Shape& shape) const {
    return find(kernel, gemmSize(shape));
  }
  // The declaration of family `id`: the document's own, else legacyFamilyInfo; null if neither.
  const FamilyInfo* family(std::string_view id) const;
  // The entry of `id`, or of its kernel for a tuning configuration's id; null if not listed.
  const KernelInfo* kernelInfo(std::string_view id) const;
};

// Did everything pass: the known-answer test where it ran, every case, every configuration of
// a tuning sweep and the conformance checks of the document. `kwb` exits 0 exactly then.
bool allPassed(const RunDocument& doc);

// Adds legacyKernelInfo(id)'s entry to doc.kernels unless it lists `id` already; an unknown id
// takes `precision` (its case's).
void listKernelIfMissing(RunDocument& doc, std::string_view id, std::string_view precision = {});
// The same for every kernel id the document's cases or tuning sweep name.
void listMissingKernels(RunDocument& doc);
// Adds legacyFamilyInfo's entry for every family the cases are of that doc.families lacks
// (documents before schema 6); a family neither knows stays unlisted.
void listMissingFamilies(RunDocument& doc);

}  // namespace kwb
