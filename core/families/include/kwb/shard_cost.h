// SPDX-License-Identifier: Apache-2.0
#pragma once
// The estimated cost of a planned case, which balances the shards of a plan (docs/SCALE_OUT.md).
// Every task of a job array must cut the same plan the same way, whatever GPU it landed on, so
// the estimate never reads the local device: it is the family's declared work at nominal rates,
// times the launches the run's settings make.
#include <optional>
#include <string>

#include "kwb/kernel_descriptor.h"
#include "kwb/run_document.h"

namespace kwb {

// Nominal rates of a current data-centre GPU; only their ratios matter for balance. Calibrated on
// an H200 (2026-11-27: every case of scaling and spec-benchmark, its verification, samples and
// finishing checks timed from the run's event stream; the estimates' sums per size within 10%).
struct NominalRates {
  double fp32FlopsPerS = 30e12;     // CUDA-core FP32 (a tiled stage, not the peak)
  double tensorFlopsPerS = 200e12;  // FP16 / TF32 tensor cores
  double bytesPerS = 1.5e12;        // device memory
  double launchS = 5e-6;            // the fixed cost of one launch
  // Bookkeeping of one case beyond its launches: with the minimum sample time (0.08 s) a small
  // case comes to about 0.12 s (0.10-0.14 s measured).
  double caseOverheadS = 0.035;
  // And the work on the case's buffers outside its launches (inputs made on the device, the
  // reference's output kept, comparisons on the device): small, 0.04 s at 8192³ (805 MB).
  double caseBytesPerS = 2e10;
};

// The nominal rates with a kernel's typical rate where it declares one (KernelDescriptor).
NominalRates ratesFor(const KernelDescriptor& kernel);

// Seconds one launch of the case's kernel on its size takes at `rates`: its family's work (FLOPs
// at the precision's rate, bytes at the memory's; the slower of the two) plus the launch cost.
// A family without declared work costs one launch.
double estimateLaunchSeconds(const CaseResult& planned, const NominalRates& rates = {});
// Seconds the whole case takes under `settings`: its checks' launches (verification's canary,
// negative control, NaN and alpha/beta runs, the CUPTI cross-check, the timed output's check:
// about 12 launches measured), warm-ups and the samples the stopping rule takes at least (all of
// its minimum time, at most its maximum unless the minimum count needs more; a long launch's
// count grows by the noise rule's extra rounds, 1.6 times on the average), plus the case
// overhead. Verify-only runs count the verification alone.
double estimateCaseSeconds(const CaseResult& planned, const RunSettings& settings,
                           const NominalRates& rates = {});

// Seconds a case took where it was measured (a results document's case with samples), as the
// plan would run it again under `settings`: its samples' own time, its checks' and warm-ups'
// launches at its median, its buffers and the case overhead. None for a case without samples
// (failed, skipped, or of a verify-only run). `kwb run|tune --cost-hints` balances shards by it.
std::optional<double> measuredCaseSeconds(const CaseResult& measured, const RunSettings& settings,
                                          const NominalRates& rates = {});
// What a planned case and a measured one share: kernel, size and tuning configuration.
std::string caseCostKey(const CaseResult& c);

}  // namespace kwb
