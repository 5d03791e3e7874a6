// SPDX-License-Identifier: Apache-2.0
#pragma once
// `kwb ab` (docs/MEASUREMENT.md, "A/B in one run"): two kernels, or two versions of a user's
// .cu, measured interleaved in one process, sweep by sweep, and decided from the ratio of
// paired samples. This is what it reports, per size, and its JSON form (`kwb ab --json`),
// which the GUI's bring-your-own panel reads for "this save against the last".
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kwb/device_info.h"
#include "kwb/results.h"
#include "kwb/verdict_rule.h"

namespace kwb {

struct AbResult {
  std::string size;         // sizeLabel of the cases: "512x512x512", "2^20 f32"
  double aMs = 0, bMs = 0;  // medians per launch
  // B's time / A's time from paired samples (below 1: B is faster), and its 95% CI.
  double ratio = 0;
  stats::Interval ci95;
  int pairs = 0;
  int rounds = 0;
  Verdict verdict = Verdict::kUncertain;
  std::string reason;
  // B's CUPTI kernel time over A's (each side's median per launch of its kernels' traced
  // durations), where both sides were traced: the timer's ratio checked against the kernels'
  // own (kwb/cupti_ratio.h). Where the two differ by more than kCuptiRatioTolerance the reason
  // says so.
  std::optional<double> cuptiRatio;
  // Across builds, each pair of processes' own result (combineProcessPairs); empty for one.
  struct PairPart {
    double ratio = 0;
    stats::Interval ci95;
  };
  std::vector<PairPart> processPairs;
};

struct AbReport {
  static constexpr int kVersion = 1;
  std::string a, b;            // what was compared: kernel ids (a user kernel's before/after names)
  std::string aLabel, bLabel;  // how the user named them (a path, an id)
  double sameWithin = 0.01;
  std::optional<DeviceInfo> device;
  std::vector<AbResult> results;
  RunDocument document;  // both sides' cases, verification and samples included
};

// B against A at one size from their cases (samples with rounds and sweeps paired by the
// caller into `paired`: A's time / B's time in %, i.e. B's throughput in % of A's).
AbResult abResult(const CaseResult& a, const CaseResult& b, const PairedRatio& paired,
                  double sameWithin);

// One size across builds timed in several pairs of processes (the builds started in both
// orders, kwb ab --against-kwb --process-pairs): where each process's buffers land is fixed for
// its life, so one pair cannot average it out. The ratio is the pairs' geometric mean; the
// interval spans every pair's interval, so FASTER, SLOWER or SAME holds only where every pair
// says so, and pairs that disagree read UNCERTAIN. A part that was not compared (no ratio)
// makes the whole not compared, with its reason. `parts` is not empty.
AbResult combineProcessPairs(const std::vector<AbResult>& parts, double sameWithin);

std::string toJsonText(const AbReport& r);
// Throws InputError naming `source` on anything malformed.
AbReport parseAbReport(std::string_view text, std::string_view source);
AbReport readAbReport(const std::filesystem::path& path);

}  // namespace kwb
