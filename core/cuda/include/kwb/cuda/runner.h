#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "kwb/cuda/measure.h"
#include "kwb/events.h"
#include "kwb/kernel_descriptor.h"
#include "kwb/results.h"

namespace kwb::cuda {

struct RunConfig {
  std::string suite;  // name or file, recorded in the document
  std::uint64_t seed = 0x5EED;
  bool verifyOnly = false;
  int device = 0;
  MeasureOptions measure;
  // A case whose estimated time exceeds this is skipped with the estimate (≤ 0: no bound).
  double maxCaseSeconds = 60.0;
  std::string toolVersion;
  std::string gitRevision;
};

using EventSink = std::function<void(const Event&)>;

// Orders a plan: shape by shape; within a shape the references first, so every stage's
// "% of cuBLAS" is known when its case finishes.
std::vector<PlannedCase> orderPlan(const std::vector<const KernelDescriptor*>& kernels,
                                   const std::vector<Shape>& shapes);

// Runs a plan case by case: verify first, then time only what verified; emits every event
// to `sink` and returns the results document. A case's CUDA error is recorded in that case;
// an error that loses the CUDA context ends the run, the cases left marked skipped with the
// reason. `cancelled` is polled between samples and cases. Throws NoDeviceError.
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
