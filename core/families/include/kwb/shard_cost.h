// SPDX-License-Identifier: Apache-2.0
#pragma once
// The estimated cost of a planned case, which balances the shards of a plan (docs/SCALE_OUT.md).
// Every task of a job array must cut the same plan the same way, whatever GPU it landed on, so
// the estimate never reads the local device: it is the family's declared work at nominal rates,
// times the launches the run's settings make.
#include "kwb/kernel_descriptor.h"
#include "kwb/run_document.h"

namespace kwb {

// Nominal rates of a current data-centre GPU; only their ratios matter for balance.
struct NominalRates {
  double fp32FlopsPerS = 20e12;     // CUDA-core FP32 (a stage, not the peak)
  double tensorFlopsPerS = 200e12;  // FP16 / TF32 tensor cores
  double bytesPerS = 1.5e12;        // device memory
  double launchS = 5e-6;            // the fixed cost of one launch
  // Inputs, reference, checks and bookkeeping of one case beyond its launches: with the
  // minimum sample time (0.08 s) a small case comes to about 0.13 s, as measured on an H200
  // (0.11-0.14 s a case of spec-benchmark's smaller sizes, 2026-11-27).
  double caseOverheadS = 0.05;
  // And the work on the case's buffers outside its launches (inputs, copies, checks), which
  // grows with them: about 0.7 s a case at 8192³ (805 MB of A, B and C) on an H200 host.
  double caseBytesPerS = 1.2e9;
};

// The nominal rates with a kernel's typical rate where it declares one (KernelDescriptor).
NominalRates ratesFor(const KernelDescriptor& kernel);

// Seconds one launch of the case's kernel on its size takes at `rates`: its family's work (FLOPs
// at the precision's rate, bytes at the memory's; the slower of the two) plus the launch cost.
// A family without declared work costs one launch.
double estimateLaunchSeconds(const CaseResult& planned, const NominalRates& rates = {});
// Seconds the whole case takes under `settings`: its checks' launches (canary, beta = 0, the
// traced launch, the timed output's), warm-ups and the samples the
// stopping rule takes at least (all of its minimum time, at most its maximum unless the minimum
// count needs more), plus the case overhead. Verify-only runs count the verification alone.
double estimateCaseSeconds(const CaseResult& planned, const RunSettings& settings,
                           const NominalRates& rates = {});

}  // namespace kwb
