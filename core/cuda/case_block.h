// SPDX-License-Identifier: Apache-2.0
#pragma once
// Cases verified and waiting to be timed together (docs/MEASUREMENT.md, "Rounds"): the case
// loop verifies case by case into a block, then times the whole block in interleaved rounds,
// pairs every stage with its reference and finishes the cases in plan order.
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kwb/cuda/measure.h"
#include "kwb/results.h"

namespace kwb::cuda {

struct PendingCase {
  std::size_t index = 0;           // in the plan
  CaseResult result;               // verified (or failed, skipped, errored: then nothing is timed)
  std::shared_ptr<void> inputs;    // what the timed launches read; freed with the block
  std::unique_ptr<Timing> timing;  // null when the case is not timed
  Measurement measured;            // filled by the block's rounds (status error: a sample failed)
  // Runs after timing, before `inputs` go: the timed launches' output (FamilyCase::
  // checkTimedOutput); may change the result.
  std::function<void(CaseResult&)> checkTimed;
  // Runs after timing on the case's own result (a user kernel's second seed); may change it.
  std::function<void(CaseResult&)> afterTiming;
  std::size_t deviceBytes = 0;  // held by `inputs`
};

class NvmlSampler;
struct RunConfig;

// A block holds whole sizes until it has this share of the device's memory in inputs.
inline constexpr double kBlockMemoryShare = 0.25;

// What timing and finishing a block needs from the run.
struct BlockContext {
  const RunConfig& cfg;
  NvmlSampler& nvml;
  const DeviceInfo* device;
  const std::function<bool()>& cancelled;
  const std::function<void(const std::string&)>& warn;
  bool contextLost = false;  // set by timeBlock: finish what was measured, check nothing more
};

// Times every timed case of `block` in interleaved rounds (kwb/cuda/measure.h, runRounds), the
// cases of one size forming a group. A case whose sample fails is an error; a lost context
// sets `stopReason` and ctx.contextLost. NVML's clocks over the rounds go to every timed case.
void timeBlock(std::vector<PendingCase>& block, BlockContext& ctx, std::string& stopReason);

// The case's CUPTI check, figures, % of reference (paired with the references in `block`,
// which finish first in plan order) and its after-timing check; frees its inputs.
void finishPending(PendingCase& pc, const BlockContext& ctx, const std::vector<CaseResult>& done,
                   const std::vector<PendingCase>& block);

// Which references each case is paired with and which field each fills: cublas.sgemm →
// pctOfFp32Reference, cublas.hgemm_f32acc → pctOfFp16Reference (FP16-input kernels),
// cublas.bgemm_f32acc → pctOfBf16Reference (BF16-input kernels), the family's reference →
// figures["pct_of_reference"].
std::vector<std::string> pairedReferences(const CaseResult& c);

// Pairs `c` with each of `references` found in `block` at its size (by its samples' round and
// sweep) and sets the "% of reference" fields from the paired ratios.
void applyPairedRatios(CaseResult& c, const Measurement& m, const std::vector<PendingCase>& block,
                       const std::vector<std::string>& references);

}  // namespace kwb::cuda
