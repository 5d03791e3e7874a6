// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one case loop of kwb: `kwb run` (verify, then time), `kwb verify` (a plan with no timing)
// and `kwb tune` (a plan over the configurations of one kernel) all run their cases here.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kwb/cuda/measure.h"
#include "kwb/events.h"
#include "kwb/family.h"
#include "kwb/kernel_descriptor.h"
#include "kwb/results.h"
#include "kwb/tuning.h"

namespace kwb::cuda {

struct PlanCase;
struct PendingCase;
using EventSink = std::function<void(const StreamEvent&)>;

struct RunConfig {
  std::string suite;  // name or file, recorded in the document
  std::uint64_t seed = 0x5EED;
  // Verification only (`kwb verify`): nothing is timed, no launch overhead is measured and no
  // progression is checked.
  bool verifyOnly = false;
  int device = 0;
  MeasureOptions measure;
  // A case whose estimated time exceeds this is skipped with the estimate (≤ 0: no bound).
  double maxCaseSeconds = 60.0;
  // Input sets the timed launches of a case rotate through (kwb run --fresh-inputs, ≥ 1), as
  // many as fit the device memory (docs/MEASUREMENT.md, "Fresh inputs"; kwb/cuda/input_sets.h).
  int freshInputs = 1;
  std::string toolVersion;
  std::string gitRevision;
  // Called with a case's plan index before its verification and before each of its samples:
  // `kwb run --case-timeout` watches the case the engine is in.
  std::function<void(int)> heartbeat = {};
  // Time and finish the block before each user kernel's case (kwb run --case-timeout): a
  // kernel that never returns then loses no finished case. Its % of reference is then the
  // ratio of medians, not of paired samples.
  bool isolateUserKernels = false;
  // Which references a case is paired with (kwb ab pairs B with A); empty: the case's own
  // references (case_block.h, pairedReferences).
  std::function<std::vector<std::string>(const CaseResult&)> pairWith = {};
  // Starts a case somewhere other than this process (kwb ab's other build, peer.h): true when
  // it did, with the case in `out`; false, or empty: the case loop starts it here.
  std::function<bool(const PlanCase&, PendingCase& out)> startElsewhere = {};
  // After a case loses the CUDA context, runs the plan's cases `indices` (the rest of the plan
  // and the verified cases of its block not yet timed) in a fresh process, each of their events
  // sent to the sink with its plan index (kwb run: a child kwb, cli/fresh_engine.cpp). Returns
  // "" when it reported them all, else why not: those it did not report are skipped with it.
  // Empty: the cases left are skipped.
  std::function<std::string(const std::vector<std::size_t>& indices, const EventSink& sink)>
      continueElsewhere = {};
  // A long-lived worker's runs (kwb run|tune --pool-serve, docs/SCALE_OUT.md): the copy roof,
  // the launch overhead and each family's known-answer test, measured by this process's first
  // run on the device, are reused by its later runs (same device, libraries and seed), and so
  // is the engine's state (its stream, NVML and the drivers' sessions): every shard of a worker
  // has the worker's one command line, so one settings.
  bool reuseDeviceFacts = false;
  std::string profiler;      // the outside profiler found (kwb/profiler_env.h), or empty
  std::string profilerNote;  // what the run changed for it (adaptToProfiler), logged
  // Seconds each case took in an earlier run (kwb run|tune --cost-hints DOC), by caseCostKey
  // (kwb/shard_cost.h): the shard cut balances by them where present and by the model's
  // estimate elsewhere (docs/SCALE_OUT.md, "Cost hints"). Part of the plan's identity.
  std::map<std::string, double> measuredCaseSeconds;
};

// One case of a plan: a kernel on a shape. In a tuning sweep `kernel` is one configuration of
// a kernel (its id names it: "sgemm.warp_tiled[cfg]") and `config` says which; consecutive
// configurations of one kernel on one shape read the same inputs, and one that falls back to
// another kernel is not timed (the time would be the other kernel's).
struct PlanCase {
  const KernelDescriptor* kernel = nullptr;  // outlives the run
  CaseSize size;                             // of the kernel's family
  std::optional<TuneConfig> config;
  // `kwb run --tuning`: what the case's ranKernel says ran in place of the kernel's own name,
  // "sgemm.warp_tiled[cfg] (tuned for 1024x1024x1024)"; a launch that fell back names its own.
  std::string ranAs = {};

  Shape shape() const { return shapeOf(size); }  // a GEMM case's shape
};
// What the stream's plan says of a case, and its record when it is not run.
PlannedCase plannedCase(const PlanCase& p);
// The settings a run of `cfg` records in its document and its stream's plan event: the suite,
// seed and mode, the measurement options and fresh inputs when it times, the profiler.
RunSettings documentSettings(const RunConfig& cfg);
// The document's kernel list of a plan: one entry per kernel it names (a configuration counts
// as its kernel), stages in family and stage order, then the references.
std::vector<KernelInfo> planKernels(const std::vector<PlanCase>& plan);
// The families of the plan's cases, in the order they first appear.
std::vector<FamilyInfo> planFamilies(const std::vector<PlanCase>& plan);
CaseResult skippedPlanCase(const PlanCase& p, const std::string& why);

// Orders a plan: shape by shape; within a shape the references first, so every stage's
// "% of cuBLAS" is known when its case finishes.
std::vector<PlanCase> orderPlan(const std::vector<const KernelDescriptor*>& kernels,
                                const std::vector<Shape>& shapes);
// The same for the 1-D families: count by count, type by type; within a size the family's
// reference first. Only kernels whose problem is `family` are taken.
std::vector<PlanCase> orderVectorPlan(const std::vector<const KernelDescriptor*>& kernels,
                                      const Family& family, const std::vector<std::int64_t>& counts,
                                      const std::vector<ElementType>& types);
// Any family: size by size, within a size the family's reference first. Only kernels of the
// sizes' family are taken.
std::vector<PlanCase> orderPlan(const std::vector<const KernelDescriptor*>& kernels,
                                const std::vector<CaseSize>& sizes);
// The cases of a stream's plan, each kernel looked up in `registry` (InputError if unknown).
std::vector<PlanCase> resolvePlan(const KernelRegistry& registry,
                                  const std::vector<PlannedCase>& plan);

// Runs a plan: each case is verified in plan order into a block; a block (whole sizes, up to
// a share of device memory: the whole plan for most suites) is then timed in interleaved
// rounds and its cases finish in plan order (docs/MEASUREMENT.md, "Rounds"). Only what
// verified is timed (nothing with verifyOnly). Emits every event to `sink` (a case's
// case_started at its verification, its case_finished when its block is timed) and returns
// the results document. A case's CUDA error is
// recorded in that case; an error that loses the CUDA context ends the run here, and the cases
// left go to cfg.continueElsewhere, or are marked skipped with the reason. `cancelled` (may be
// empty) is polled between samples and cases. Throws NoDeviceError.
RunDocument runPlan(const std::vector<PlanCase>& plan, const RunConfig& cfg, const EventSink& sink,
                    const std::function<bool()>& cancelled);
RunDocument runPlan(const KernelRegistry& registry, const std::vector<PlannedCase>& plan,
                    const RunConfig& cfg, const EventSink& sink,
                    const std::function<bool()>& cancelled);

// Copies a measurement into its case: samples, timer, CUPTI figures, summary, throughput.
void recordMeasurement(const Measurement& m, const MeasureOptions& opt, CaseResult& c);

// Derived numbers of a timed case: GFLOP/s, arithmetic intensity, achieved bandwidth.
void deriveThroughput(CaseResult& c);
// Fills % of cuBLAS FP32 (and FP16 for FP16-input kernels) from reference cases in `done`.
void fillPercentOfReference(CaseResult& c, const std::vector<CaseResult>& done);

}  // namespace kwb::cuda
