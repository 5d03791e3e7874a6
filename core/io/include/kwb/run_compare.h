// SPDX-License-Identifier: Apache-2.0
#pragma once
// Comparing two results documents case by case: is the new run faster, slower, the same, or
// can the samples not tell? The verdict reads the medians' 95% confidence intervals (which
// include the drift between rounds of a run, kwb/replicates.h) through the one decision rule
// of kwb/verdict_rule.h. Two separate runs can only decide changes larger than the drift;
// `kwb ab` measures two things interleaved and decides far smaller ones.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kwb/results.h"
#include "kwb/verdict_rule.h"

namespace kwb {

struct CompareRule {
  // The equivalence margin of decide(): a change whose whole CI lies within ±sameWithin is
  // SAME; FASTER and SLOWER need a CI that excludes no change and a change beyond it.
  double sameWithin = 0.02;
};

struct CaseComparison {
  std::string kernel;
  CaseSize caseSize;        // the case's family and size
  std::string size = {};    // sizeLabel: "512x512x512", "2^20 f32"
  std::string device = {};  // the GPU model both ran on, where documents share models
  // The two cases compared: their indices in the base's and the new document's `cases` (-1:
  // none), so a page can show their figures without matching them again.
  int baseIndex = -1, newIndex = -1;
  double baseMs = 0, newMs = 0;  // medians per launch
  stats::Interval baseCi, newCi;
  double change = 0;         // newMs / baseMs - 1: positive is slower
  stats::Interval changeCi;  // its 95% CI (as new / base - 1)
  // The new case's CUPTI time over the base's, where both were traced (kwb/cupti_ratio.h): the
  // change read from the kernels' own durations. The reason says where it and newMs / baseMs
  // part by more than kCuptiRatioTolerance.
  std::optional<double> cuptiRatio;
  Verdict verdict = Verdict::kUncertain;
  std::string reason;  // one sentence: why this verdict
};

struct RunComparison {
  std::vector<CaseComparison> cases;               // timed in both, in the new document's order
  std::vector<std::string> onlyInBase, onlyInNew;  // "kernel shape", untimed ones included
  // Cases matched by kernel and size only on another GPU model: never compared (documents that
  // share a GPU model compare each case on its own model: merged documents of several GPUs).
  std::vector<std::string> otherDevice;
  // The two documents were recorded on different GPU models (or one names none): their times
  // are not comparable as a change of the code. Every verdict still stands as computed; the
  // CLI, the Baseline tab and the report say this first.
  bool crossDevice = false;
  std::string deviceNote;  // "cross-device comparison: base NVIDIA H200, new NVIDIA H100 ..."
  int count(Verdict v) const;
};

// Throws nothing; cases timed by different timers are UNCERTAIN with the reason.
CaseComparison compareCase(const CaseResult& base, const CaseResult& now, const CompareRule& rule);
RunComparison compareRuns(const RunDocument& base, const RunDocument& now,
                          const CompareRule& rule = {});

}  // namespace kwb
